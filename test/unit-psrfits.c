/* unit-psrfits: the PSRFITS reader on small files written here with
 * cfitsio: header values, raw reads of exact data, scaling and polarisation
 * sums, channel order, options, and the info it reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <fitsio.h>

#include "psrfits.h"
#include "reader.h"

#define NCHAN	8
#define NSBLK	4
#define NROWS	2
#define MAXPOL	4

static char dir[] = "/tmp/sps-unit-XXXXXX";

struct fits_spec {
	int	 npol;
	const char *pol_type;
	int	 ascending;
	double	 scl, offs, zero_off;
	int	 subint;	/* 0: leave the SUBINT table out */
	const char *telescop, *backend;	/* NULL: Parkes, Medusa */
	int	 gap_rows;	/* rows missing before the last row */
	const char *nsblk_text;	/* NSBLK's value as a string */
	int	 nsblk_double;	/* NSBLK written as a real */
};

static unsigned char
raw(long t, int p, int c)
{
	return (unsigned char)((t * NCHAN + c + p * 64) & 255);
}

static char *
path_of(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static void
write_rows(fitsfile *f, const struct fits_spec *s, int *st)
{
	double freq[NCHAN], wts[NCHAN], scl[NCHAN * MAXPOL];
	double offs[NCHAN * MAXPOL], at;
	unsigned char data[NSBLK * MAXPOL * NCHAN];
	long row, t;
	int p, c;

	for (c = 0; c < NCHAN; c++) {
		freq[c] = s->ascending ? 1000 + c : 1007 - c;
		wts[c] = 1;
		for (p = 0; p < MAXPOL; p++) {
			scl[p * NCHAN + c] = s->scl;
			offs[p * NCHAN + c] = s->offs;
		}
	}
	for (row = 1; row <= NROWS; row++) {
		for (t = 0; t < NSBLK; t++)
			for (p = 0; p < s->npol; p++)
				for (c = 0; c < NCHAN; c++)
					data[(t * s->npol + p) * NCHAN + c] =
					    raw((row - 1) * NSBLK + t, p, c);
		at = (row - 0.5 + (row == NROWS ? s->gap_rows : 0)) *
		    NSBLK * 1e-3;
		fits_write_col(f, TDOUBLE, 1, row, 1, 1, &at, st);
		fits_write_col(f, TDOUBLE, 2, row, 1, NCHAN, freq, st);
		fits_write_col(f, TDOUBLE, 3, row, 1, NCHAN, wts, st);
		fits_write_col(f, TDOUBLE, 4, row, 1, NCHAN * s->npol, offs,
		    st);
		fits_write_col(f, TDOUBLE, 5, row, 1, NCHAN * s->npol, scl, st);
		fits_write_col(f, TBYTE, 6, row, 1, NSBLK * s->npol * NCHAN,
		    data, st);
	}
}

static const char *
make_fits(const char *name, const struct fits_spec *s)
{
	char *ttype[] = { "OFFS_SUB", "DAT_FREQ", "DAT_WTS", "DAT_OFFS",
	    "DAT_SCL", "DATA" };
	char f1[16], f2[16], f3[16];
	char *tform[] = { "1D", f1, f1, f2, f2, f3 };
	const char *path = path_of(name);
	int st = 0, nbits = 8, nchan = NCHAN, nsblk = NSBLK;
	long imjd = 60000, smjd = 3600;
	double soffs = 0.25, tbin = 1e-3;
	fitsfile *f;

	unlink(path);
	snprintf(f1, sizeof(f1), "%dD", NCHAN);
	snprintf(f2, sizeof(f2), "%dE", NCHAN * s->npol);
	snprintf(f3, sizeof(f3), "%dB", NSBLK * s->npol * NCHAN);
	fits_create_file(&f, path, &st);
	fits_create_img(f, BYTE_IMG, 0, NULL, &st);
	fits_write_key(f, TSTRING, "FITSTYPE", "PSRFITS", NULL, &st);
	fits_write_key(f, TSTRING, "OBS_MODE", "SEARCH", NULL, &st);
	fits_write_key(f, TSTRING, "TELESCOP", (void *)(s->telescop != NULL ?
	    s->telescop : "Parkes"), NULL, &st);
	fits_write_key(f, TSTRING, "BACKEND", (void *)(s->backend != NULL ?
	    s->backend : "Medusa"), NULL, &st);
	fits_write_key(f, TSTRING, "SRC_NAME", "J0534+2200", NULL, &st);
	fits_write_key(f, TSTRING, "RA", "01:02:03.5", NULL, &st);
	fits_write_key(f, TSTRING, "DEC", "-04:05:06.5", NULL, &st);
	fits_write_key(f, TLONG, "STT_IMJD", &imjd, NULL, &st);
	fits_write_key(f, TLONG, "STT_SMJD", &smjd, NULL, &st);
	fits_write_key(f, TDOUBLE, "STT_OFFS", &soffs, NULL, &st);
	if (s->subint) {
		fits_create_tbl(f, BINARY_TBL, 0, 6, ttype, tform, NULL,
		    "SUBINT", &st);
		fits_write_key(f, TINT, "NBITS", &nbits, NULL, &st);
		fits_write_key(f, TINT, "NCHAN", &nchan, NULL, &st);
		fits_write_key(f, TINT, "NPOL", (void *)&s->npol, NULL, &st);
		fits_write_key(f, TSTRING, "POL_TYPE", (void *)s->pol_type,
		    NULL, &st);
		if (s->nsblk_text != NULL)
			fits_write_key(f, TSTRING, "NSBLK",
			    (void *)s->nsblk_text, NULL, &st);
		else if (s->nsblk_double)
			fits_write_key_fixdbl(f, "NSBLK", (double)nsblk, 1,
			    NULL, &st);
		else
			fits_write_key(f, TINT, "NSBLK", &nsblk, NULL, &st);
		fits_write_key(f, TDOUBLE, "TBIN", &tbin, NULL, &st);
		fits_write_key(f, TDOUBLE, "ZERO_OFF", (void *)&s->zero_off,
		    NULL, &st);
		write_rows(f, s, &st);
	}
	fits_close_file(f, &st);
	assert_int_equal(st, 0);
	return path;
}

static const struct fits_spec plain =
    { 1, "AA+BB", 0, 1, 0, 0, 1, NULL, NULL, 0, NULL, 0 };

/* TELESCOP and BACKEND to SIGPROC's codes, where there are codes. */
static void
test_telescope_codes(void **state)
{
	static const struct {
		const char	*telescop, *backend;
		int		 telescope_id, machine_id;	/* -1: none */
	} cases[] = {
		{ "VLA", "YUPPI", 12, -1 },
		{ "Parkes", "Medusa", 4, -1 },
		{ "ARECIBO 305m", "PSPM", 1, 1 },
		{ "ATA", "SPIGOT", 9, 7 },
		{ "FAST", "ROACH", 21, 83 },
		{ "Somewhere", "BPSR", -1, 10 },
	};
	struct fits_spec spec = plain;
	struct sps_reader r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		spec.telescop = cases[i].telescop;
		spec.backend = cases[i].backend;
		assert_int_equal(sps_reader_open(&r, make_fits("t.fits",
		    &spec)), SPS_OK);
		assert_int_equal(sps_header_has(&r.hdr, "telescope_id"),
		    cases[i].telescope_id >= 0);
		assert_int_equal(sps_header_has(&r.hdr, "machine_id"),
		    cases[i].machine_id >= 0);
		if (cases[i].telescope_id >= 0)
			assert_int_equal(r.hdr.telescope_id,
			    cases[i].telescope_id);
		if (cases[i].machine_id >= 0)
			assert_int_equal(r.hdr.machine_id, cases[i].machine_id);
		assert_string_equal(sps_psrfits_info(&r)->backend,
		    cases[i].backend);
		sps_reader_close(&r);
	}
}

static void
test_header(void **state)
{
	const struct sps_psrfits_info *info;
	struct sps_reader r;

	(void)state;
	assert_int_equal(sps_reader_open(&r, make_fits("h.fits", &plain)),
	    SPS_OK);
	assert_int_equal(r.hdr.nchans, NCHAN);
	assert_int_equal(r.hdr.nifs, 1);
	assert_int_equal(r.hdr.nbits, 8);
	assert_int_equal(r.hdr.data_type, 1);
	assert_int_equal(r.hdr.telescope_id, 4);
	assert_string_equal(r.hdr.source_name, "J0534+2200");
	assert_true(r.hdr.fch1 == 1007 && r.hdr.foff == -1);
	assert_true(r.hdr.tsamp == 1e-3);
	assert_true(r.hdr.tstart == 60000 + 3600.25 / 86400);
	assert_true(r.hdr.src_raj == 10203.5 && r.hdr.src_dej == -40506.5);
	assert_int_equal(r.nsamples, NROWS * NSBLK);
	info = sps_psrfits_info(&r);
	assert_non_null(info);
	assert_int_equal(info->nrows, NROWS);
	assert_int_equal(info->applied, 0);
	assert_int_equal(info->value_nbits, 8);
	assert_int_equal(sps_reader_value_nbits(&r), 8);
	assert_int_equal(info->nwarnings, 0);
	sps_reader_close(&r);
}

/* Exact data give raw SIGPROC bytes; rising frequencies come reversed. */
static void
test_raw_reads(void **state)
{
	struct fits_spec up = plain;
	unsigned char buf[NROWS * NSBLK * NCHAN];
	struct sps_reader r;
	size_t got, t;
	int c;

	(void)state;
	up.ascending = 1;
	assert_int_equal(sps_reader_open(&r, make_fits("up.fits", &up)),
	    SPS_OK);
	assert_true(r.hdr.fch1 == 1007 && r.hdr.foff == -1);
	assert_int_equal(sps_reader_read_raw(&r, buf, 3, &got), SPS_OK);
	assert_int_equal(got, 3);
	assert_int_equal(sps_reader_read_raw(&r, buf + 3 * NCHAN, 10, &got),
	    SPS_OK);
	assert_int_equal(got, NROWS * NSBLK - 3);
	for (t = 0; t < NROWS * NSBLK; t++)
		for (c = 0; c < NCHAN; c++)
			assert_int_equal(buf[t * NCHAN + c],
			    raw((long)t, 0, NCHAN - 1 - c));
	assert_int_equal(sps_reader_read_raw(&r, buf, 1, &got), SPS_EEOF);
	sps_reader_close(&r);
}

/* ((raw - ZERO_OFF) * SCL + OFFS), AA and BB summed, as floats only. */
static void
test_scaled_sum(void **state)
{
	struct fits_spec s = { 4, "AABBCRCI", 0, 2, 1, 3, 1, NULL, NULL, 0,
	    NULL, 0 };
	float buf[NROWS * NSBLK * NCHAN];
	const struct sps_psrfits_info *info;
	unsigned char bytes[NCHAN];
	struct sps_reader r;
	size_t got, t;
	int c;

	(void)state;
	assert_int_equal(sps_reader_open(&r, make_fits("s.fits", &s)),
	    SPS_OK);
	info = sps_psrfits_info(&r);
	assert_int_equal(info->applied, SPS_STEP_ZERO_OFF | SPS_STEP_SCALES |
	    SPS_STEP_OFFSETS);
	assert_int_equal(info->value_nbits, 32);
	assert_non_null(strstr(info->pol_used, "0 and 1 summed"));
	assert_int_equal(sps_reader_read_raw(&r, bytes, 1, &got), SPS_EUSAGE);
	assert_int_equal(sps_reader_read(&r, buf, NROWS * NSBLK, &got),
	    SPS_OK);
	for (t = 0; t < got; t++)
		for (c = 0; c < NCHAN; c++)
			assert_true(buf[t * NCHAN + c] ==
			    (raw((long)t, 0, c) - 3) * 2 + 1 +
			    (raw((long)t, 1, c) - 3) * 2 + 1);
	sps_reader_close(&r);
}

static void
test_options(void **state)
{
	struct fits_spec s = { 4, "AABBCRCI", 1, 2, 1, 3, 1, NULL, NULL, 0,
	    NULL, 0 };
	struct sps_psrfits_options o;
	float buf[NSBLK * NCHAN];
	struct sps_reader r;
	size_t got;
	int c;

	(void)state;
	sps_psrfits_defaults(&o);
	o.scales = o.offsets = o.zero_off = 0;
	o.pol = 3;
	o.keep_order = 1;
	sps_psrfits_set_options(&o);
	assert_int_equal(sps_reader_open(&r, make_fits("o.fits", &s)),
	    SPS_OK);
	assert_true(r.hdr.fch1 == 1000 && r.hdr.foff == 1);
	assert_int_equal(sps_reader_value_nbits(&r), 8);
	assert_int_equal(sps_reader_read(&r, buf, NSBLK, &got), SPS_OK);
	for (c = 0; c < NCHAN; c++)
		assert_true(buf[NCHAN + c] == raw(1, 3, c));
	sps_reader_close(&r);
	o.pol = 4;
	sps_psrfits_set_options(&o);
	assert_int_equal(sps_reader_open(&r, path_of("o.fits")), SPS_EUSAGE);
	assert_non_null(strstr(sps_errmsg(), "NPOL is 4"));
	sps_psrfits_defaults(&o);
	sps_psrfits_set_options(&o);
}

static void
test_not_search_mode(void **state)
{
	struct fits_spec s = plain;
	struct sps_reader r;

	(void)state;
	s.subint = 0;
	assert_int_equal(sps_reader_open(&r, make_fits("n.fits", &s)),
	    SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "no SUBINT table"));
}

static void
test_info_of_other_readers(void **state)
{
	struct sps_reader r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.hdr.nbits = 2;
	assert_null(sps_psrfits_info(&r));
	assert_int_equal(sps_reader_value_nbits(&r), 2);
}

/* A gap of up to ten times the data is filled; more is refused. */
static void
test_gaps(void **state)
{
	struct fits_spec gappy = plain;
	struct sps_reader r;

	(void)state;
	gappy.gap_rows = 5 * NROWS * 2;
	assert_int_equal(sps_reader_open(&r, make_fits("gap.fits", &gappy)),
	    SPS_OK);
	assert_int_equal(r.gap_spectra, 10 * NROWS * NSBLK);
	assert_int_equal(r.nsamples, 11 * NROWS * NSBLK);
	sps_reader_close(&r);
	gappy.gap_rows++;
	assert_int_equal(sps_reader_open(&r, make_fits("gap2.fits", &gappy)),
	    SPS_EVALUE);
	assert_non_null(strstr(sps_errmsg(), "OFFS_SUB leaves 84 spectra of "
	    "gaps between 8 spectra of data (more than 10 times): absurd "
	    "gaps"));
}

/* Numeric keywords are converted by sps, not cfitsio: a real that is a
 * whole number serves where an integer is asked; a string is one line. */
static void
test_keyword_values(void **state)
{
	struct fits_spec odd = plain;
	struct sps_reader r;

	(void)state;
	odd.nsblk_double = 1;
	assert_int_equal(sps_reader_open(&r, make_fits("real.fits", &odd)),
	    SPS_OK);
	assert_int_equal(r.nsamples, NROWS * NSBLK);
	sps_reader_close(&r);
	odd.nsblk_double = 0;
	odd.nsblk_text = "AstronomyCOMMENT   and Astrophysics, volume 376";
	assert_int_equal(sps_reader_open(&r, make_fits("text.fits", &odd)),
	    SPS_EFORMAT);
	assert_non_null(strstr(sps_errmsg(), "SUBINT keyword NSBLK = "
	    "'AstronomyCOMMENT   and Astrophysics, volume 376' is not an "
	    "integer"));
}

/* The summary names the steps that changed values, or none. */
static void
test_describe(void **state)
{
	struct sps_psrfits_info fi;
	char *text = NULL;
	size_t len;
	FILE *f;

	(void)state;
	memset(&fi, 0, sizeof(fi));
	fi.nfiles = 1;
	fi.nrows = 2;
	fi.nsblk = 2048;
	fi.file_nbits = 4;
	fi.npol = 4;
	strcpy(fi.pol_type, "AABBCRCI");
	strcpy(fi.pol_used, "polarisations 0 and 1 summed (AABBCRCI)");
	strcpy(fi.telescope, "Parkes");
	strcpy(fi.frontend, "UWL");
	strcpy(fi.backend, "Medusa");
	fi.zero_off = 7.5;
	fi.applied = SPS_STEP_ZERO_OFF | SPS_STEP_OFFSETS;
	fi.flipped = 1;
	assert_non_null(f = open_memstream(&text, &len));
	sps_psrfits_describe(f, &fi);
	fi.applied = 0;
	fi.flipped = 0;
	sps_psrfits_describe(f, &fi);
	fclose(f);
	assert_string_equal(text,
	    "  PSRFITS: 1 file(s), 2 rows of 2048 spectra, NBITS 4, NPOL 4 "
	    "(AABBCRCI)\n"
	    "  telescope Parkes, frontend UWL, backend Medusa, CHAN_DM 0\n"
	    "  taken: polarisations 0 and 1 summed (AABBCRCI); ZERO_OFF 7.5; "
	    "steps changing values: ZERO_OFF DAT_OFFS; band flipped to foff "
	    "< 0\n"
	    "  PSRFITS: 1 file(s), 2 rows of 2048 spectra, NBITS 4, NPOL 4 "
	    "(AABBCRCI)\n"
	    "  telescope Parkes, frontend UWL, backend Medusa, CHAN_DM 0\n"
	    "  taken: polarisations 0 and 1 summed (AABBCRCI); ZERO_OFF 7.5; "
	    "steps changing values: none\n");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_telescope_codes),
		cmocka_unit_test(test_raw_reads),
		cmocka_unit_test(test_scaled_sum),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_not_search_mode),
		cmocka_unit_test(test_info_of_other_readers),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_keyword_values),
		cmocka_unit_test(test_describe),
	};
	int failed;

	if (mkdtemp(dir) == NULL)
		return 1;
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	return failed;
}
