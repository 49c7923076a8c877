/* unit-reader: the block reader and writer round-trip every nbits, also
 * when sub-byte spectra do not end on byte boundaries; skips (seeks)
 * give what reads would; data cut inside a spectrum, temp files and
 * joined files, their cuts, skips and raw reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "join.h"
#include "reader.h"
#include "writer.h"

static char dir[] = "/tmp/sps-unit-XXXXXX";

static void
make_header(struct sps_header *h, int nchans, int nbits)
{
	sps_header_init(h);
	sps_header_set(h, "nchans", "1");
	h->nchans = nchans;
	sps_header_set(h, "nbits", "8");
	h->nbits = nbits;
	sps_header_set(h, "nifs", "1");
	sps_header_set(h, "tsamp", "0.001");
	sps_header_set(h, "fch1", "1500");
	sps_header_set(h, "foff", "-1");
	sps_header_set(h, "tstart", "60000");
	sps_header_set(h, "data_type", "1");
}

static char *
path_of(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

/* Write nspectra of a ramp in blocks of `block`, read back in blocks of
 * `rblock`, and compare. */
static void
roundtrip(int nchans, int nbits, size_t nspectra, size_t block,
    size_t rblock)
{
	size_t nv = (size_t)nchans, i, got, done = 0;
	float max = nbits == 32 ? 1e6f : (float)((1u << (nbits < 16 ? nbits :
	    16)) - 1);
	float *data = malloc(nspectra * nv * sizeof(float));
	float *back = malloc(nspectra * nv * sizeof(float));
	struct sps_header h;
	struct sps_writer w;
	struct sps_reader r;
	enum sps_err e;

	for (i = 0; i < nspectra * nv; i++)
		data[i] = (float)((i * 2654435761u) % ((size_t)max + 1));
	make_header(&h, nchans, nbits);
	assert_int_equal(sps_writer_open(&w, path_of("rt.fil")), SPS_OK);
	assert_int_equal(sps_writer_header(&w, &h), SPS_OK);
	for (i = 0; i < nspectra; i += block)
		assert_int_equal(sps_writer_spectra(&w, data + i * nv,
		    i + block <= nspectra ? block : nspectra - i), SPS_OK);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	assert_int_equal(w.nclipped, 0);
	assert_int_equal(sps_reader_open(&r, path_of("rt.fil")), SPS_OK);
	assert_int_equal(r.nsamples, nspectra);
	while ((e = sps_reader_read(&r, back + done * nv, rblock, &got)) ==
	    SPS_OK)
		done += got;
	assert_int_equal(e, SPS_EEOF);
	assert_int_equal(done, nspectra);
	assert_memory_equal(data, back, nspectra * nv * sizeof(float));
	sps_reader_close(&r);
	sps_header_free(&h);
	free(data);
	free(back);
}

static void
test_roundtrip_every_nbits(void **state)
{
	static const int widths[] = { 1, 2, 4, 8, 16, 32 };
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++) {
		roundtrip(64, widths[i], 1000, 100, 77);
		roundtrip(11, widths[i], 999, 7, 5);	/* unaligned spectra */
		roundtrip(13, widths[i], 101, 1, 1);
	}
}

/* A file of n spectra of a ramp of nbits values; the values, to free. */
static float *
write_ramp(const char *name, int nchans, int nbits, size_t n)
{
	size_t nv = (size_t)nchans * n, i;
	float *data = malloc(nv * sizeof(float));
	unsigned top = nbits >= 16 ? 65535 : (1u << nbits) - 1;
	struct sps_header h;
	struct sps_writer w;

	assert_non_null(data);
	for (i = 0; i < nv; i++)
		data[i] = (float)((i * 2654435761u) % (top + 1));
	make_header(&h, nchans, nbits);
	assert_int_equal(sps_writer_open(&w, path_of(name)), SPS_OK);
	assert_int_equal(sps_writer_header(&w, &h), SPS_OK);
	assert_int_equal(sps_writer_spectra(&w, data, n), SPS_OK);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	sps_header_free(&h);
	return data;
}

/* Read `first` spectra, skip `skip`, and find the rest as they are. */
static void
skip_reads_the_rest(const char *name, const float *data, int nchans,
    size_t n, size_t first, size_t skip)
{
	size_t nv = (size_t)nchans, got, done;
	float *back = malloc((n + 1) * nv * sizeof(float));
	struct sps_reader r;

	assert_non_null(back);
	assert_int_equal(sps_reader_open(&r, path_of(name)), SPS_OK);
	if (first > 0) {
		assert_int_equal(sps_reader_read(&r, back, first, &got),
		    SPS_OK);
		assert_int_equal(got, first);
	}
	assert_int_equal(sps_reader_skip(&r, skip), SPS_OK);
	assert_int_equal(r.position, first + skip);
	done = first + skip;
	while (sps_reader_read(&r, back, 7, &got) == SPS_OK && got > 0) {
		assert_memory_equal(back, data + done * nv,
		    got * nv * sizeof(float));
		done += got;
	}
	assert_int_equal(done, n);
	sps_reader_close(&r);
	free(back);
}

static void
test_skip_every_nbits(void **state)
{
	static const int widths[] = { 1, 2, 4, 8, 16, 32 };
	static const size_t skips[] = { 1, 2, 3, 8, 99, 299 };
	struct sps_reader r;
	float *data, v[11];
	size_t i, k, got;

	(void)state;
	for (i = 0; i < 6; i++) {
		/* 11 channels: sub-byte spectra that end inside a byte */
		data = write_ramp("sk.fil", 11, widths[i], 300);
		for (k = 0; k < 6; k++) {
			skip_reads_the_rest("sk.fil", data, 11, 300, 0,
			    skips[k]);
			skip_reads_the_rest("sk.fil", data, 11, 300, 1,
			    skips[k] - 1);
			skip_reads_the_rest("sk.fil", data, 11, 300, 3,
			    skips[k] / 2);
		}
		free(data);
	}
	assert_int_equal(sps_reader_open(&r, path_of("sk.fil")), SPS_OK);
	assert_int_equal(sps_reader_skip(&r, 301), SPS_ETRUNC);
	assert_non_null(strstr(sps_errmsg(), "cannot skip past the end"));
	assert_int_equal(sps_reader_read(&r, v, 1, &got), SPS_EEOF);
	sps_reader_close(&r);
}

static void
test_skip_refuses_channel_major(void **state)
{
	struct sps_reader r;
	float *data;

	(void)state;
	data = write_ramp("cm.fil", 4, 8, 10);
	assert_int_equal(sps_reader_open(&r, path_of("cm.fil")), SPS_OK);
	r.hdr.sps_order = 1;
	assert_int_equal(sps_reader_skip(&r, 0), SPS_OK);
	assert_int_equal(sps_reader_skip(&r, 2), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "sps-cornerturn --to time"));
	sps_reader_close(&r);
	free(data);
}

/* Standard input becomes a pipe that gives the bytes of path. */
static FILE *
pipe_stdin(const char *path)
{
	char cmd[300];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cat %s", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	dup2(fileno(p), 0);
	clearerr(stdin);
	return p;
}

/* A file of `whole` spectra of a ramp and `stray` bytes after them, as a
 * recording cut short leaves; the ramp goes to want. */
static void
write_cut(const char *name, int nchans, int nbits, size_t whole,
    size_t stray, float *want)
{
	unsigned char junk[64];
	struct sps_header h;
	struct sps_writer w;
	size_t i;
	FILE *f;

	for (i = 0; i < whole * (size_t)nchans; i++)
		want[i] = (float)(i % (nbits < 8 ? 1u << nbits : 256u));
	memset(junk, 0x5a, sizeof(junk));
	make_header(&h, nchans, nbits);
	sps_writer_open(&w, path_of(name));
	sps_writer_header(&w, &h);
	sps_writer_spectra(&w, want, whole);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	assert_non_null(f = fopen(path_of(name), "ab"));
	assert_int_equal(fwrite(junk, 1, stray, f), stray);
	fclose(f);
	sps_header_free(&h);
}

/* Read all of path (through a pipe when piped) in blocks of 3: the whole
 * spectra, then the end, with cut bytes after them. */
static void
expect_cut(const char *name, int piped, int nchans, size_t whole,
    uint64_t cut, const float *want)
{
	char path[256];
	struct sps_reader r;
	float buf[64 * 16];
	size_t got, done = 0;
	enum sps_err e;
	FILE *p = NULL;

	snprintf(path, sizeof(path), "%s", path_of(name));
	if (piped)
		p = pipe_stdin(path);
	assert_int_equal(sps_reader_open(&r, piped ? "-" : path), SPS_OK);
	if (!piped) {
		assert_int_equal(r.nsamples, whole);
		assert_int_equal(r.cut_bytes, cut);
	}
	while ((e = sps_reader_read(&r, buf + done * (size_t)nchans, 3,
	    &got)) == SPS_OK)
		done += got;
	assert_int_equal(e, SPS_EEOF);
	assert_int_equal(done, whole);
	assert_memory_equal(buf, want, whole * (size_t)nchans * sizeof(float));
	assert_int_equal(r.nsamples, whole);
	assert_int_equal(r.cut_bytes, cut);
	assert_int_equal(r.cut_files, cut > 0);
	if (cut > 0)
		assert_string_equal(r.cut_name, piped ? "stdin" : path);
	sps_reader_close(&r);
	if (p != NULL)
		pclose(p);
}

/* Neither a file nor a pipe with no whole spectrum is data. */
static void
expect_no_spectrum(const char *name)
{
	struct sps_reader r;
	char path[256];
	float buf[64];
	size_t got;
	FILE *p;

	snprintf(path, sizeof(path), "%s", path_of(name));
	assert_int_equal(sps_reader_open(&r, path), SPS_ETRUNC);
	assert_non_null(strstr(sps_errmsg(), "not one whole spectrum"));
	p = pipe_stdin(path);
	assert_int_equal(sps_reader_open(&r, "-"), SPS_OK);
	assert_int_equal(sps_reader_read(&r, buf, 3, &got), SPS_ETRUNC);
	assert_int_equal(got, 0);
	assert_non_null(strstr(sps_errmsg(), "stdin: truncated data: 3 "
	    "bytes, not one whole spectrum of 10"));
	sps_reader_close(&r);
	pclose(p);
}

/* A recording cut inside a spectrum is its whole spectra, from a file
 * and from a pipe, also where sub-byte spectra end inside a byte. */
static void
test_cut_data(void **state)
{
	float want[64 * 16];
	int piped;

	(void)state;
	write_cut("cut.fil", 10, 8, 7, 3, want);
	for (piped = 0; piped <= 1; piped++)
		expect_cut("cut.fil", piped, 10, 7, 3, want);
	/* 5 spectra of 22 bits: 14 bytes, 2 bits of them padding */
	write_cut("cut2.fil", 11, 2, 5, 2, want);
	for (piped = 0; piped <= 1; piped++)
		expect_cut("cut2.fil", piped, 11, 5, 2, want);
	write_cut("whole.fil", 10, 32, 7, 0, want);
	for (piped = 0; piped <= 1; piped++)
		expect_cut("whole.fil", piped, 10, 7, 0, want);
	write_cut("short.fil", 10, 8, 0, 3, want);
	expect_no_spectrum("short.fil");
	write_cut("empty.fil", 10, 8, 0, 0, want);
	expect_cut("empty.fil", 0, 10, 0, 0, want);
}

static void
test_temp_name_until_close(void **state)
{
	struct sps_header h;
	struct sps_writer w;

	(void)state;
	make_header(&h, 4, 8);
	unlink(path_of("tmp.fil"));
	assert_int_equal(sps_writer_open(&w, path_of("tmp.fil")), SPS_OK);
	sps_writer_header(&w, &h);
	assert_int_equal(access(path_of("tmp.fil"), F_OK), -1);
	sps_writer_abort(&w);
	assert_int_equal(access(path_of("tmp.fil"), F_OK), -1);
	assert_int_equal(sps_writer_open(&w, path_of("tmp.fil")), SPS_OK);
	sps_writer_header(&w, &h);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	assert_int_equal(access(path_of("tmp.fil"), F_OK), 0);
	sps_header_free(&h);
}

static void
write_piece(const char *name, double tstart, size_t n, float value)
{
	struct sps_header h;
	struct sps_writer w;
	float v[4 * 10];
	size_t i;

	for (i = 0; i < 4 * n; i++)
		v[i] = value;
	make_header(&h, 4, 8);
	h.tstart = tstart;
	sps_writer_open(&w, path_of(name));
	sps_writer_header(&w, &h);
	sps_writer_spectra(&w, v, n);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	sps_header_free(&h);
}

static void
test_join(void **state)
{
	char a[256], b[256], c[256];
	char *paths[2];
	struct sps_reader r;
	float buf[4 * 40];
	size_t got;

	(void)state;
	write_piece("a.fil", 60000, 10, 1);
	write_piece("b.fil", 60000 + 10 * 0.001 / 86400, 10, 2);
	write_piece("c.fil", 60000 + 15 * 0.001 / 86400, 10, 3);
	strcpy(a, path_of("a.fil"));
	strcpy(b, path_of("b.fil"));
	strcpy(c, path_of("c.fil"));
	paths[0] = a;
	paths[1] = b;
	assert_int_equal(sps_reader_open_many(&r, paths, 2), SPS_OK);
	assert_int_equal(r.nsamples, 20);
	assert_int_equal(sps_reader_read(&r, buf, 40, &got), SPS_OK);
	assert_int_equal(got, 10);
	assert_int_equal(sps_reader_read(&r, buf + 40, 30, &got), SPS_OK);
	assert_int_equal(got, 10);
	assert_true(buf[0] == 1 && buf[79] == 2);
	sps_reader_close(&r);
	paths[0] = b;
	paths[1] = a;
	assert_int_equal(sps_reader_open_many(&r, paths, 2), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "out of order"));
	paths[0] = a;
	paths[1] = c;
	assert_int_equal(sps_reader_open_many(&r, paths, 2), SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "gap of 5.0 samples"));
	assert_int_equal(sps_reader_open_joined(&r, paths, 2, 1), SPS_OK);
	assert_int_equal(r.nsamples, 25);
	assert_int_equal(r.gap_spectra, 5);
	sps_reader_close(&r);
}

static void
append_stray(const char *name, size_t n)
{
	FILE *f;

	assert_non_null(f = fopen(path_of(name), "ab"));
	assert_int_equal(fwrite("\x7f\x7f\x7f", 1, n, f), n);
	fclose(f);
}

/* Joined files cut inside a spectrum: each gives its whole spectra, and
 * the reader names the first cut and counts them. */
static void
test_join_cut(void **state)
{
	char a[256], b[256];
	char *paths[2] = { a, b };
	struct sps_reader r;
	float buf[4 * 40];
	size_t got;

	(void)state;
	write_piece("ca.fil", 60000, 10, 1);
	write_piece("cb.fil", 60000 + 10 * 0.001 / 86400, 10, 2);
	append_stray("ca.fil", 3);
	strcpy(a, path_of("ca.fil"));
	strcpy(b, path_of("cb.fil"));
	assert_int_equal(sps_reader_open_many(&r, paths, 2), SPS_OK);
	assert_int_equal(r.nsamples, 20);
	assert_int_equal(r.cut_bytes, 3);
	assert_int_equal(r.cut_files, 1);
	assert_string_equal(r.cut_name, a);
	assert_int_equal(sps_reader_read(&r, buf, 40, &got), SPS_OK);
	assert_int_equal(got, 10);
	assert_int_equal(sps_reader_read(&r, buf + 4 * 10, 40, &got), SPS_OK);
	assert_int_equal(got, 10);
	assert_true(buf[4 * 10 - 1] == 1 && buf[4 * 10] == 2);
	assert_int_equal(sps_reader_read(&r, buf, 40, &got), SPS_EEOF);
	sps_reader_close(&r);
	append_stray("cb.fil", 2);
	assert_int_equal(sps_reader_open_many(&r, paths, 2), SPS_OK);
	assert_int_equal(r.nsamples, 20);
	assert_int_equal(r.cut_files, 2);
	assert_int_equal(r.cut_bytes, 3);
	assert_string_equal(r.cut_name, a);
	sps_reader_close(&r);
}

/* Skips across joined files, raw reads of them (also with --fill-gaps
 * where there is no gap), and skips over a filled gap, which are read:
 * what fills it comes from the block read before it. */
static void
test_join_skip_and_raw(void **state)
{
	char a[256], b[256], c[256];
	unsigned char raw[4 * 40];
	char *paths[2];
	struct sps_reader r;
	float buf[4 * 40];
	size_t got;
	int fill;

	(void)state;
	write_piece("a.fil", 60000, 10, 1);
	write_piece("b.fil", 60000 + 10 * 0.001 / 86400, 10, 2);
	write_piece("c.fil", 60000 + 15 * 0.001 / 86400, 10, 3);
	strcpy(a, path_of("a.fil"));
	strcpy(b, path_of("b.fil"));
	strcpy(c, path_of("c.fil"));
	paths[0] = a;
	paths[1] = b;
	for (fill = 0; fill <= 1; fill++) {
		assert_int_equal(sps_reader_open_joined(&r, paths, 2, fill),
		    SPS_OK);
		assert_int_equal(sps_reader_skip(&r, 9), SPS_OK);
		assert_int_equal(sps_reader_read_raw(&r, raw, 40, &got),
		    SPS_OK);
		assert_true(got == 1 && raw[0] == 1 && raw[3] == 1);
		assert_int_equal(sps_reader_skip(&r, 2), SPS_OK);
		assert_int_equal(sps_reader_read_raw(&r, raw, 40, &got),
		    SPS_OK);
		assert_true(got == 8 && raw[0] == 2 && raw[31] == 2);
		assert_int_equal(sps_reader_read_raw(&r, raw, 40, &got),
		    SPS_EEOF);
		sps_reader_close(&r);
	}
	assert_int_equal(sps_reader_open_joined(&r, paths, 2, 0), SPS_OK);
	assert_int_equal(sps_reader_skip(&r, 20), SPS_OK);
	assert_int_equal(sps_reader_skip(&r, 1), SPS_ETRUNC);
	sps_reader_close(&r);
	paths[1] = c;
	assert_int_equal(sps_reader_open_joined(&r, paths, 2, 1), SPS_OK);
	assert_int_equal(sps_reader_read_raw(&r, raw, 1, &got), SPS_EUSAGE);
	assert_int_equal(sps_reader_skip(&r, 12), SPS_OK);
	assert_int_equal(sps_reader_read(&r, buf, 40, &got), SPS_OK);
	assert_true(got == 3 && buf[0] == 1 && buf[11] == 1);
	assert_int_equal(sps_reader_read(&r, buf, 40, &got), SPS_OK);
	assert_true(got == 10 && buf[0] == 3);
	sps_reader_close(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_every_nbits),
		cmocka_unit_test(test_cut_data),
		cmocka_unit_test(test_temp_name_until_close),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_skip_every_nbits),
		cmocka_unit_test(test_skip_refuses_channel_major),
		cmocka_unit_test(test_join_skip_and_raw),
		cmocka_unit_test(test_join_cut),
	};
	int failed;

	if (mkdtemp(dir) == NULL)
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	return failed;
}
