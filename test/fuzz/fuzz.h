/* fuzz.h: what the libFuzzer harnesses (test/fuzz/fuzz-*.c) share: the
 * fuzzer's bytes as a stream (not seekable, as a pipe is) or as a regular
 * file with a path (as a file on disk is), a cap on what a harness
 * allocates for the data a header describes, and the reading of a
 * recording's data. */
#ifndef SPS_FUZZ_H
#define SPS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Values (floats) a harness allocates at most for one block of data.  A
 * header may describe spectra of 2^40 values; the tools then fail to
 * allocate and say so, which the fuzzer would report as out of memory. */
#define FUZZ_MAX_VALUES	(1 << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a read-only stream that fstat does not call a regular
 * file.  NULL when it cannot be made (the input is then skipped). */
FILE *fuzz_stream(const uint8_t *data, size_t size);

/* The bytes as an anonymous regular file (memfd): *fd holds it, path
 * (room for 32 bytes) names it for openers that take a path.  Returns 0,
 * or -1 when it cannot be made.  fuzz_file_close(fd) removes it. */
int fuzz_file(const uint8_t *data, size_t size, int *fd, char *path);
void fuzz_file_close(int fd);

/* Read r's data as the tools do: up to `block` raw spectra, a skip of
 * `skip`, then floats in blocks to the end (blocks capped by
 * FUZZ_MAX_VALUES; nothing when one spectrum is more). */
struct sps_reader;
void fuzz_read_data(struct sps_reader *r, size_t block, uint64_t skip);

#endif
