/* plotscale.c: formats by suffix, axis ticks, colour maps (plotscale.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "plotscale.h"

enum sps_err
sps_plot_format_of(const char *path, enum sps_plot_format *f)
{
	static const struct {
		const char		*suffix;
		enum sps_plot_format	 format;
	} known[] = {
		{ ".png", SPS_PLOT_PNG },
		{ ".pdf", SPS_PLOT_PDF },
		{ ".svg", SPS_PLOT_SVG }
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot != NULL && i < sizeof(known) / sizeof(known[0]); i++)
		if (strcasecmp(dot, known[i].suffix) == 0) {
			*f = known[i].format;
			return SPS_OK;
		}
	return sps_fail(SPS_EUSAGE, "%s: unknown suffix (.png, .pdf or .svg)",
	    path);
}

/* The step of 1, 2 or 5 times a power of ten that puts at most `most`
 * ticks in a span. */
static double
tick_step(double span, int most)
{
	static const double mantissa[] = { 1, 2, 5, 10 };
	double decade = pow(10, floor(log10(span / most)));
	size_t i;

	for (i = 0; i < sizeof(mantissa) / sizeof(mantissa[0]); i++)
		if (span / (mantissa[i] * decade) < most)
			return mantissa[i] * decade;
	return 10 * decade;
}

/* The next step below a 1-2-5 step. */
static double
finer(double step)
{
	double decade = pow(10, floor(log10(step) + 1e-9));
	double m = step / decade;

	return m > 4.5 ? 2 * decade : m > 1.5 ? decade : decade / 2;
}

static int
ticks_at(double lo, double hi, double step, int most, double *ticks)
{
	double t;
	int n = 0;

	for (t = ceil(lo / step - 1e-9); n < most; t++) {
		double v = t * step;

		if (v > hi + step * 1e-9)
			break;
		/* -0 and rounding noise such as 0.30000000000000004 */
		ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

int
sps_plot_ticks(double lo, double hi, int most, double *ticks, double *step)
{
	int n;

	if (!isfinite(lo) || !isfinite(hi) || lo >= hi)
		return 0;
	if (most < 2)
		most = 2;
	if (most > SPS_PLOT_MAXTICKS)
		most = SPS_PLOT_MAXTICKS;
	*step = tick_step(hi - lo, most);
	while ((n = ticks_at(lo, hi, *step, most, ticks)) < 2 &&
	    (hi - lo) / finer(*step) < SPS_PLOT_MAXTICKS)
		*step = finer(*step);
	return ticks_at(lo, hi, *step, SPS_PLOT_MAXTICKS, ticks);
}

void
sps_plot_tick_label(char *buf, size_t len, double value, double step)
{
	int decimals = 0;

	if (value != 0 && (fabs(value) >= 1e6 || fabs(value) < 1e-4)) {
		snprintf(buf, len, "%.3g", value);
		return;
	}
	while (decimals < 6 && fabs(step * pow(10, decimals) -
	    round(step * pow(10, decimals))) > 1e-6 * step * pow(10, decimals))
		decimals++;
	snprintf(buf, len, "%.*f", decimals, value);
}

enum sps_err
sps_plot_cmap_parse(const char *name, enum sps_plot_cmap *m)
{
	if (strcmp(name, "viridis") == 0)
		*m = SPS_CMAP_VIRIDIS;
	else if (strcmp(name, "grey") == 0 || strcmp(name, "gray") == 0)
		*m = SPS_CMAP_GREY;
	else
		return sps_fail(SPS_EUSAGE, "unknown colour map '%s' (viridis "
		    "or grey)", name);
	return SPS_OK;
}

/* viridis (van der Walt and Smith, matplotlib) at nine equal steps,
 * linearly joined: a perceptually even map of rising luminance. */
static const unsigned char viridis[9][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x47, 0x2d, 0x7b }, { 0x3b, 0x52, 0x8b },
	{ 0x2c, 0x72, 0x8e }, { 0x21, 0x91, 0x8c }, { 0x28, 0xae, 0x80 },
	{ 0x5e, 0xc9, 0x62 }, { 0xad, 0xdc, 0x30 }, { 0xfd, 0xe7, 0x25 }
};

void
sps_plot_cmap_rgb(enum sps_plot_cmap m, double t, double rgb[3])
{
	double x;
	int i, k;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	if (m == SPS_CMAP_GREY) {
		rgb[0] = rgb[1] = rgb[2] = t;
		return;
	}
	x = t * 8;
	i = x >= 8 ? 7 : (int)x;
	x -= i;
	for (k = 0; k < 3; k++)
		rgb[k] = ((1 - x) * viridis[i][k] + x * viridis[i + 1][k]) /
		    255.0;
}

double
sps_plot_luminance(const double rgb[3])
{
	return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}
