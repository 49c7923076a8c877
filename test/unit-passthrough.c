/* unit-passthrough: spectra copied byte for byte, whole-byte spectra and
 * sub-byte ones alike; counting without a writer; a partial last
 * spectrum ends the data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "passthrough.h"

static char dir[] = "/tmp/sps-unit-XXXXXX";

static char *
path_of(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

/* A SIGPROC file of nchans x nbits with ndata bytes of a pattern. */
static void
make_file(const char *path, int nchans, int nbits, size_t ndata,
    unsigned char *data)
{
	struct sps_header h;
	FILE *f;
	size_t i;

	sps_header_init(&h);
	sps_header_set(&h, "nchans", "1");
	h.nchans = nchans;
	sps_header_set(&h, "nbits", "8");
	h.nbits = nbits;
	sps_header_set(&h, "nifs", "1");
	sps_header_set(&h, "tsamp", "0.001");
	sps_header_set(&h, "fch1", "1500");
	sps_header_set(&h, "foff", "-1");
	for (i = 0; i < ndata; i++)
		data[i] = (unsigned char)(i * 37 + 11);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(sps_header_write(f, &h), SPS_OK);
	assert_int_equal(fwrite(data, 1, ndata, f), ndata);
	assert_int_equal(fclose(f), 0);
}

/* The data bytes of a SIGPROC file (after its header). */
static size_t
file_data(const char *path, unsigned char *buf, size_t len)
{
	struct sps_header h;
	size_t got;
	FILE *f;

	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(sps_header_read(f, NULL, 0, &h), SPS_OK);
	got = fread(buf, 1, len, f);
	fclose(f);
	sps_header_free(&h);
	return got;
}

/* Copy in to out through sps_passthrough; expect nspectra and the data
 * bytes unchanged. */
static void
copy_and_compare(int nchans, int nbits, size_t ndata, uint64_t nspectra)
{
	unsigned char data[4096], back[4096];
	struct sps_reader r;
	struct sps_writer w;
	uint64_t n;

	make_file(path_of("in.fil"), nchans, nbits, ndata, data);
	assert_int_equal(sps_reader_open(&r, path_of("in.fil")), SPS_OK);
	assert_int_equal(sps_writer_open(&w, path_of("out.fil")), SPS_OK);
	assert_int_equal(sps_writer_header(&w, &r.hdr), SPS_OK);
	assert_int_equal(sps_passthrough(&r, &w, &n), SPS_OK);
	assert_int_equal(n, nspectra);
	assert_int_equal(sps_writer_close(&w), SPS_OK);
	sps_reader_close(&r);
	assert_int_equal(file_data(path_of("out.fil"), back, sizeof(back)),
	    ndata);
	assert_memory_equal(back, data, ndata);
}

static void
test_whole_bytes(void **state)
{
	(void)state;
	copy_and_compare(4, 8, 4 * 100, 100);
	copy_and_compare(6, 4, 3 * 7, 7);
	copy_and_compare(2, 32, 8 * 3, 3);
}

static void
test_sub_byte_spectra(void **state)
{
	(void)state;
	copy_and_compare(3, 1, 3, 8);		/* 8 spectra of 3 bits */
	copy_and_compare(5, 2, 5 * 2, 8);	/* 8 spectra of 10 bits */
	copy_and_compare(3, 4, 3 * 501, 1002);
}

static void
test_count_only(void **state)
{
	unsigned char data[64];
	struct sps_reader r;
	uint64_t n = 99;

	(void)state;
	make_file(path_of("c.fil"), 3, 1, 6, data);
	assert_int_equal(sps_reader_open(&r, path_of("c.fil")), SPS_OK);
	assert_int_equal(sps_passthrough(&r, NULL, &n), SPS_OK);
	assert_int_equal(n, 16);
	sps_reader_close(&r);
}

/* Through a pipe, where the reader cannot know the length beforehand. */
static void
test_partial_spectrum(void **state)
{
	unsigned char data[64], whole[1024];
	struct sps_reader r;
	int fd[2];
	uint64_t n;
	FILE *f;
	size_t len;

	(void)state;
	make_file(path_of("p.fil"), 4, 8, 10, data);
	assert_non_null(f = fopen(path_of("p.fil"), "rb"));
	len = fread(whole, 1, sizeof(whole), f);
	fclose(f);
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(write(fd[1], whole, len), (ssize_t)len);
	close(fd[1]);
	assert_int_equal(dup2(fd[0], STDIN_FILENO), STDIN_FILENO);
	close(fd[0]);
	assert_int_equal(sps_reader_open(&r, "-"), SPS_OK);
	assert_int_equal(r.nsamples, SPS_NSAMPLES_UNKNOWN);
	assert_int_equal(sps_passthrough(&r, NULL, &n), SPS_OK);
	assert_int_equal(n, 2);
	assert_int_equal(r.nsamples, 2);
	assert_int_equal(r.cut_bytes, 2);
	sps_reader_close(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_bytes),
		cmocka_unit_test(test_sub_byte_spectra),
		cmocka_unit_test(test_count_only),
		cmocka_unit_test(test_partial_spectrum),
	};
	int failed;

	if (mkdtemp(dir) == NULL)
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	return failed;
}
