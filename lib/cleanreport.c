/* cleanreport.c: sps-clean's report. */
#include <limits.h>
#include <string.h>

#include "cleanreport.h"

static const char *
zerodm_name(enum sps_zerodm_mode m)
{
	return m == SPS_ZERODM_MEAN ? "zerodm" : m == SPS_ZERODM_ZDOT ?
	    "zdot" : "none";
}

enum sps_err
sps_clean_report_open(struct sps_clean_report *rep, const char *path,
    const struct sps_header *h, const struct sps_clean_options *o)
{
	enum sps_err e;
	FILE *f;

	memset(rep, 0, sizeof(*rep));
	rep->nchans = h->nchans;
	rep->descending = h->foff < 0;
	rep->masked_min = INT_MAX;
	if (path == NULL)
		return SPS_OK;
	if ((e = sps_writer_open(&rep->w, path)) != SPS_OK)
		return e;
	rep->have_file = 1;
	f = rep->w.f;
	fprintf(f, "# sps-clean report: %d channels; clip %g up to %d "
	    "spectra, SK %g (N d %g), IQRM %g radius %d, hold %d, "
	    "zero-DM %s (0: off)\n", h->nchans, o->clip_sigma,
	    o->clip_width, o->sk_sigma, o->sk_nd, o->iqrm_sigma,
	    o->iqrm_radius > 0 ? o->iqrm_radius : sps_clean_iqrm_radius(h),
	    o->hold, zerodm_name(o->zerodm));
	fprintf(f, "# block first nspectra clipped masked static sk iqrm "
	    "replaced channels\n");
	return SPS_OK;
}

/* The masked channels in PRESTO's numbers (from the lowest frequency),
 * as a list --zapchan reads: "3,7:9", "-" for none. */
static void
write_channels(const struct sps_clean_report *rep,
    const unsigned char *masked, FILE *f)
{
	int n = rep->nchans, p, first = -1, any = 0;

	for (p = 0; p <= n; p++) {
		int on = p < n && masked[rep->descending ? n - 1 - p : p];

		if (on && first < 0)
			first = p;
		if (on || first < 0)
			continue;
		fprintf(f, any ? ",%d" : "%d", first);
		if (p - 1 > first)
			fprintf(f, ":%d", p - 1);
		any = 1;
		first = -1;
	}
	fputs(any ? "\n" : "-\n", f);
}

enum sps_err
sps_clean_report_block(struct sps_clean_report *rep, uint64_t at,
    const struct sps_clean_block *b)
{
	double samples = (double)b->nspectra * rep->nchans;

	rep->spectra += b->nspectra;
	rep->clipped += b->clipped;
	rep->replaced += b->replaced;
	rep->masked_sum += (uint64_t)b->nmasked;
	if (b->nmasked < rep->masked_min)
		rep->masked_min = b->nmasked;
	if (b->nmasked > rep->masked_max)
		rep->masked_max = b->nmasked;
	if (rep->have_file) {
		fprintf(rep->w.f, "%llu %llu %zu %zu %d %d %d %d %.6f ",
		    (unsigned long long)rep->blocks, (unsigned long long)at,
		    b->nspectra, b->clipped, b->nmasked, b->nstatic, b->nsk,
		    b->niqrm, samples > 0 ? (double)b->replaced / samples : 0);
		write_channels(rep, b->masked, rep->w.f);
	}
	rep->blocks++;
	return SPS_OK;
}

enum sps_err
sps_clean_report_close(struct sps_clean_report *rep)
{
	if (!rep->have_file)
		return SPS_OK;
	rep->have_file = 0;
	return sps_writer_close(&rep->w);
}

void
sps_clean_report_summary(const struct sps_clean_report *rep, FILE *f,
    const char *prefix, unsigned long long quantised, int nbits)
{
	double samples = (double)rep->spectra * rep->nchans;

	fprintf(f, "%s: %llu spectra in %llu blocks: %.3f%% of "
	    "samples replaced, %llu spectra clipped\n", prefix,
	    (unsigned long long)rep->spectra, (unsigned long long)rep->blocks,
	    samples > 0 ? 100.0 * (double)rep->replaced / samples : 0.0,
	    (unsigned long long)rep->clipped);
	if (rep->blocks > 0)
		fprintf(f, "%s: channels masked per block: mean %.1f, "
		    "min %d, max %d of %d\n", prefix, (double)rep->masked_sum /
		    (double)rep->blocks, rep->masked_min, rep->masked_max,
		    rep->nchans);
	if (quantised > 0)
		fprintf(f, "%s: %llu values clipped to the range of %d "
		    "bits\n", prefix, quantised, nbits);
}
