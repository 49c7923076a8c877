/* candsink.h: where sps-peaks' candidates go: one stream, written as they
 * come; or, to be written at the end, one stream in another order or cut
 * to the N of highest S/N, or PRESTO's ROOT_DM%.2f.singlepulse files, one
 * per DM that has candidates (trials whose DMs print alike share one),
 * each in time order and under a temporary name until it is complete
 * (writer.h). */
#ifndef SPS_CANDSINK_H
#define SPS_CANDSINK_H

#include <stddef.h>
#include <stdint.h>

#include "candfile.h"
#include "candorder.h"
#include "error.h"

struct sps_cand_sink {
	struct sps_cand_out out;	/* the stream, or the files' settings */
	const char	*root;		/* per-DM files, or NULL */
	const struct sps_events_meta *meta;	/* with root: the .inf
						 * beside each file; NULL:
						 * none */
	enum sps_cand_order order;	/* of the stream */
	size_t		 top;		/* the N of highest S/N only; 0: all */
	struct sps_cand	*held;
	size_t		 nheld, capheld;
	uint64_t	 written;	/* candidates written */
};

/* Send candidates to out's stream, or (root not NULL) to per-DM files;
 * in time order, all of them. */
void sps_cand_sink_init(struct sps_cand_sink *s,
    const struct sps_cand_out *out, const char *root);
/* Write the stream in order instead (the per-DM files are in time order
 * whatever it is), only the top candidates of highest S/N (0: all).
 * Candidates are then held until sps_cand_sink_close: at most 2 top of
 * them with top. */
void sps_cand_sink_select(struct sps_cand_sink *s, enum sps_cand_order order,
    size_t top);
enum sps_err sps_cand_sink_put(struct sps_cand_sink *s,
    const struct sps_cand *c);
enum sps_err sps_cand_sink_close(struct sps_cand_sink *s);
void sps_cand_sink_free(struct sps_cand_sink *s);

#endif
