/* presto.c: writing PRESTO .inf files (presto.h), labels padded so that
 * '=' falls in column 40 as PRESTO's writer places it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "presto.h"
#include "writer.h"

double
sps_presto_band_top(const struct sps_presto_band *b)
{
	return b->low + (b->nchans > 1 ? (b->nchans - 1) * b->width : 0);
}

static void
line(FILE *f, const char *label, const char *value)
{
	fprintf(f, " %-39s=  %s\n", label, value);
}

/* hhmmss.s packed (SIGPROC) to hh:mm:ss.ssss, rounded in units of
 * 0.0001 s before splitting so that 59.99996 s carries into the minute */
static void
sexagesimal(double packed, char *buf, size_t len, int is_dec)
{
	double a = fabs(packed);
	long d = (long)(a / 10000), m = (long)((a - d * 10000.0) / 100);
	long long units = llround((d * 3600.0 + m * 60.0 + (a - d * 10000.0 -
	    m * 100.0)) * 1e4);

	snprintf(buf, len, "%s%02lld:%02lld:%02lld.%04lld", is_dec ?
	    (packed < 0 ? "-" : "+") : "", units / 36000000,
	    units / 600000 % 60, units / 10000 % 60, units % 10000);
}

/* The MJD with 15 decimals, as PRESTO prints it: the day, then the
 * fraction rounded (a fraction that rounds to 1 carries into the day). */
static void
epoch(double mjd, char *buf, size_t len)
{
	double day = floor(mjd);
	long long frac = llround((mjd - day) * 1e15);

	if (frac >= 1000000000000000LL) {
		day += 1;
		frac = 0;
	}
	snprintf(buf, len, "%.0f.%015lld", day, frac);
}

static const char *
name_or_unknown(const struct sps_header *h, const char *key,
    const char *name)
{
	return sps_header_has(h, key) && name != NULL ? name : "Unknown";
}

/* The lines up to the number of bins: who, what, where and when. */
static void
write_identity(FILE *f, const char *root, const struct sps_header *h)
{
	char v[128];

	line(f, "Data file name without suffix", root);
	line(f, "Telescope used", h->telescope_id == 0 ? "Unknown" :
	    name_or_unknown(h, "telescope_id",
	    sps_telescope_name(h->telescope_id)));
	line(f, "Instrument used", name_or_unknown(h, "machine_id",
	    sps_machine_name(h->machine_id)));
	line(f, "Object being observed", h->source_name[0] != '\0' ?
	    h->source_name : "Unknown");
	sexagesimal(h->src_raj, v, sizeof(v), 0);
	line(f, "J2000 Right Ascension (hh:mm:ss.ssss)", v);
	sexagesimal(h->src_dej, v, sizeof(v), 1);
	line(f, "J2000 Declination     (dd:mm:ss.ssss)", v);
	line(f, "Data observed by", "Unknown");
	epoch(h->tstart, v, sizeof(v));
	line(f, "Epoch of observation (MJD)", v);
	line(f, "Barycentered?           (1 yes, 0 no)",
	    h->barycentric ? "1" : "0");
}

enum sps_err
sps_presto_write_inf(FILE *f, const struct sps_header *h,
    const struct sps_presto_inf *inf)
{
	const struct sps_presto_band *band = &inf->band;
	char v[128];

	write_identity(f, inf->root, h);
	snprintf(v, sizeof(v), "%-11.0f", (double)inf->n);
	line(f, "Number of bins in the time series", v);
	snprintf(v, sizeof(v), "%.15g", h->tsamp);
	line(f, "Width of each time series bin (sec)", v);
	line(f, "Any breaks in the data? (1 yes, 0 no)", "0");
	line(f, "Type of observation (EM band)", "Radio");
	line(f, "Beam diameter (arcsec)", "0");
	snprintf(v, sizeof(v), "%.12g", h->refdm);
	line(f, "Dispersion measure (cm-3 pc)", v);
	snprintf(v, sizeof(v), "%.12g", band->low);
	line(f, "Central freq of low channel (MHz)", v);
	snprintf(v, sizeof(v), "%.12g", band->width * band->nchans);
	line(f, "Total bandwidth (MHz)", v);
	snprintf(v, sizeof(v), "%d", band->nchans);
	line(f, "Number of channels", v);
	snprintf(v, sizeof(v), "%.12g", band->width);
	line(f, "Channel bandwidth (MHz)", v);
	line(f, "Data analyzed by", inf->analyzer);
	fprintf(f, " Any additional notes:\n    %s\n\n", inf->note);
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s.inf: %s", inf->root,
		    strerror(errno));
	return SPS_OK;
}

enum sps_err
sps_presto_save_inf(const struct sps_header *h,
    const struct sps_presto_inf *inf)
{
	struct sps_writer w;
	enum sps_err e;
	char *path;

	if (asprintf(&path, "%s.inf", inf->root) < 0)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = sps_writer_open(&w, path);
	free(path);
	if (e != SPS_OK)
		return e;
	if ((e = sps_presto_write_inf(w.f, h, inf)) != SPS_OK) {
		sps_writer_abort(&w);
		return e;
	}
	return sps_writer_close(&w);
}
