/* presto.c: PRESTO .inf files (presto.h), labels padded so that '='
 * falls in column 40 as PRESTO's writer places it. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "presto.h"

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

enum sps_err
sps_presto_write_inf(FILE *f, const char *root, const struct sps_header *h,
    uint64_t n, int nchans, double foff, double flow)
{
	const char *scope = sps_telescope_name(h->telescope_id);
	char v[128];
	double imjd = floor(h->tstart);

	line(f, "Data file name without suffix", root);
	line(f, "Telescope used", scope != NULL && h->telescope_id != 0 ?
	    scope : "Unknown");
	line(f, "Instrument used", sps_machine_name(h->machine_id) != NULL ?
	    sps_machine_name(h->machine_id) : "Unknown");
	line(f, "Object being observed", h->source_name[0] != '\0' ?
	    h->source_name : "Unknown");
	sexagesimal(h->src_raj, v, sizeof(v), 0);
	line(f, "J2000 Right Ascension (hh:mm:ss.ssss)", v);
	sexagesimal(h->src_dej, v, sizeof(v), 1);
	line(f, "J2000 Declination     (dd:mm:ss.ssss)", v);
	line(f, "Data observed by", "Unknown");
	snprintf(v, sizeof(v), "%.0f.%015.0f", imjd,
	    (h->tstart - imjd) * 1e15);
	line(f, "Epoch of observation (MJD)", v);
	line(f, "Barycentered?           (1 yes, 0 no)",
	    h->barycentric ? "1" : "0");
	snprintf(v, sizeof(v), "%-11.0f", (double)n);
	line(f, "Number of bins in the time series", v);
	snprintf(v, sizeof(v), "%.15g", h->tsamp);
	line(f, "Width of each time series bin (sec)", v);
	line(f, "Any breaks in the data? (1 yes, 0 no)", "0");
	line(f, "Type of observation (EM band)", "Radio");
	line(f, "Beam diameter (arcsec)", "0");
	snprintf(v, sizeof(v), "%.12g", h->refdm);
	line(f, "Dispersion measure (cm-3 pc)", v);
	snprintf(v, sizeof(v), "%.12g", flow);
	line(f, "Central freq of low channel (MHz)", v);
	snprintf(v, sizeof(v), "%.12g", fabs(foff) * nchans);
	line(f, "Total bandwidth (MHz)", v);
	snprintf(v, sizeof(v), "%d", nchans);
	line(f, "Number of channels", v);
	snprintf(v, sizeof(v), "%.12g", fabs(foff));
	line(f, "Channel bandwidth (MHz)", v);
	line(f, "Data analyzed by", "sps-dedisperse");
	fprintf(f, " Any additional notes:\n    Dedispersed by sps to the top "
	    "of the band\n\n");
	if (ferror(f))
		return sps_fail(SPS_EIO, "%s.inf: %s", root, strerror(errno));
	return SPS_OK;
}
