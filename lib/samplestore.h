/* samplestore.h: the samples of one DM trial that its noise model
 * (noise.h) holds until their windows are made, first in first out.
 *
 * They are kept in blocks of a few thousand samples, each block as 16-bit
 * integers added to a float base (its first sample) wherever that gives
 * every sample of the block back bit for bit, else as floats.  The
 * dedispersed sums of integer samples of a few bits are integers within a
 * few thousand of each other, and take half the bytes; any other data
 * take what the floats take. */
#ifndef SPS_SAMPLESTORE_H
#define SPS_SAMPLESTORE_H

#include <stddef.h>

#include "error.h"

struct sps_samplestore;

/* A store for `hold` samples at most at a time; fed more, it grows. */
enum sps_err sps_samplestore_create(struct sps_samplestore **s, size_t hold);
void sps_samplestore_free(struct sps_samplestore *s);

/* Append x[0..n). */
enum sps_err sps_samplestore_push(struct sps_samplestore *s, const float *x,
    size_t n);

/* The samples held. */
size_t sps_samplestore_len(const struct sps_samplestore *s);

/* The held samples from .. from + n - 1 (0 is the first held) into
 * out, as they were pushed. */
void sps_samplestore_read(const struct sps_samplestore *s, size_t from,
    size_t n, float *out);

/* Forget the first n samples held. */
void sps_samplestore_drop(struct sps_samplestore *s, size_t n);

/* Bytes a store for `hold` samples uses at most while it holds up to
 * `most` samples: every block in 16 bits (packed), or every block in
 * floats; a store that drops samples only once it has held `hold` (a
 * noise model's) has a block partly dropped only then. */
size_t sps_samplestore_bytes(size_t hold, size_t most, int packed);

#endif
