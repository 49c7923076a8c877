/* unit-rfimask: rfifind masks written byte by byte as PRESTO lays them
 * out, read back; and each malformed one refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rfimask.h"

/* A mask of 8 channels, 3 intervals of 100 spectra: channel 1 zapped,
 * interval 2 zapped, interval 0 masks channels 3 and 5, interval 1
 * masks all 8 (no list stored), interval 2 none listed.  cut: bytes
 * to leave off the end. */
static FILE *
mask_file(int numchan, long cut, int extra)
{
	double head[6] = { 10, 4, 55000.5, 0.1, 1400, 1 };
	int counts[4] = { numchan, 3, 100, 1 }, zap = 1, nint = 1, zi = 2;
	int per[3] = { 2, numchan, 0 }, list[2] = { 3, 5 };
	FILE *f = tmpfile();
	long len;
	char *buf;

	fwrite(head, sizeof(double), 6, f);
	fwrite(counts, sizeof(int), 4, f);
	fwrite(&zap, sizeof(int), 1, f);
	fwrite(&nint, sizeof(int), 1, f);
	fwrite(&zi, sizeof(int), 1, f);
	fwrite(per, sizeof(int), 3, f);
	fwrite(list, sizeof(int), 2, f);
	if (extra)
		fputc(0, f);
	len = ftell(f) - cut;
	buf = malloc((size_t)len);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)len, f), len);
	fclose(f);
	f = tmpfile();
	fwrite(buf, 1, (size_t)len, f);
	free(buf);
	rewind(f);
	return f;
}

static void
reads_what_rfifind_writes(void **state)
{
	struct sps_rfimask m;
	unsigned char masked[8];
	FILE *f = mask_file(8, 0, 0);
	int c;

	(void)state;
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_OK);
	fclose(f);
	assert_int_equal(m.numchan, 8);
	assert_int_equal(m.numint, 3);
	assert_int_equal(m.ptsperint, 100);
	assert_true(m.dtint == 0.1 && m.lofreq == 1400);
	assert_int_equal(sps_rfimask_check(&m, "a.mask", 8), SPS_OK);
	assert_int_equal(sps_rfimask_check(&m, "a.mask", 16), SPS_EVALUE);
	assert_int_equal(sps_rfimask_interval(&m, 99), 0);
	assert_int_equal(sps_rfimask_interval(&m, 100), 1);
	assert_int_equal(sps_rfimask_interval(&m, 1000000), 2);
	memset(masked, 0, 8);
	assert_int_equal(sps_rfimask_channels(&m, 0, masked), 3);
	for (c = 0; c < 8; c++)
		assert_int_equal(masked[c], c == 1 || c == 3 || c == 5);
	memset(masked, 0, 8);
	assert_int_equal(sps_rfimask_channels(&m, 1, masked), 8);
	memset(masked, 0, 8);
	assert_int_equal(sps_rfimask_channels(&m, 2, masked), 8);
	sps_rfimask_free(&m);
}

static void
refuses_truncated_and_malformed(void **state)
{
	struct sps_rfimask m;
	FILE *f;

	(void)state;
	f = mask_file(8, 4, 0);
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_ETRUNC);
	assert_non_null(strstr(sps_errmsg(), "truncated"));
	fclose(f);
	f = mask_file(8, 70, 0);
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_ETRUNC);
	fclose(f);
	f = mask_file(8, 0, 1);
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "after its end"));
	fclose(f);
	f = mask_file(4, 0, 0);	/* channel 5 of 4 */
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_EFORMAT);
	fclose(f);
}

/* Counts that promise more than the file holds are refused before
 * memory is taken for them (2^28 intervals in 72 bytes), and channel
 * lists whose sum passes 2^31 are refused without overflowing. */
static void
refuses_counts_beyond_the_file(void **state)
{
	double head[6] = { 10, 4, 55000.5, 0.1, 1400, 1 };
	int counts[5] = { 64, (1 << 28) - 1, 100, 0, 0 };
	int big[8] = { 1 << 24, 200, 100, 0, 0, (1 << 24) - 1,
	    (1 << 24) - 1, 0 };
	struct sps_rfimask m;
	FILE *f = tmpfile();
	int i;

	(void)state;
	fwrite(head, sizeof(double), 6, f);
	fwrite(counts, sizeof(int), 5, f);
	rewind(f);
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_ETRUNC);
	assert_string_equal(sps_errmsg(), "a.mask: rfifind mask ends inside "
	    "the channel counts (truncated?)");
	fclose(f);
	f = tmpfile();
	fwrite(head, sizeof(double), 6, f);
	fwrite(big, sizeof(int), 5, f);
	for (i = 0; i < 200; i++)
		fwrite(&big[5], sizeof(int), 1, f);
	rewind(f);
	assert_int_equal(sps_rfimask_read(f, "a.mask", &m), SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "more than 2^31"));
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_what_rfifind_writes),
		cmocka_unit_test(refuses_truncated_and_malformed),
		cmocka_unit_test(refuses_counts_beyond_the_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
