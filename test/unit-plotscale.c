/* unit-plotscale: formats by suffix, axis ticks and their labels, the
 * colour maps' rising luminance. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "plotscale.h"

static void
test_format_of_suffix(void **state)
{
	enum sps_plot_format f;

	(void)state;
	assert_int_equal(sps_plot_format_of("a/b.png", &f), SPS_OK);
	assert_int_equal(f, SPS_PLOT_PNG);
	assert_int_equal(sps_plot_format_of("x.PDF", &f), SPS_OK);
	assert_int_equal(f, SPS_PLOT_PDF);
	assert_int_equal(sps_plot_format_of("x.y.svg", &f), SPS_OK);
	assert_int_equal(f, SPS_PLOT_SVG);
	assert_int_equal(sps_plot_format_of("x.jpg", &f), SPS_EUSAGE);
	assert_string_equal(sps_errmsg(),
	    "x.jpg: unknown suffix (.png, .pdf or .svg)");
	assert_int_equal(sps_plot_format_of("png", &f), SPS_EUSAGE);
}

/* Every tick inside the range, a multiple of a 1-2-5 step, in order. */
static void
check_ticks(double lo, double hi, int most)
{
	double ticks[SPS_PLOT_MAXTICKS], step, m;
	int i, n = sps_plot_ticks(lo, hi, most, ticks, &step);

	assert_true(n >= 2 && n <= most);
	m = step / pow(10, floor(log10(step) + 1e-9));
	assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 ||
	    fabs(m - 5) < 1e-9);
	for (i = 0; i < n; i++) {
		assert_true(ticks[i] >= lo - 1e-9 * step);
		assert_true(ticks[i] <= hi + 1e-9 * step);
		assert_true(fabs(ticks[i] / step - round(ticks[i] / step)) <
		    1e-6);
		if (i > 0)
			assert_true(fabs(ticks[i] - ticks[i - 1] - step) <
			    1e-9 * step);
	}
}

static void
test_ticks(void **state)
{
	double ticks[SPS_PLOT_MAXTICKS], step;

	(void)state;
	assert_int_equal(sps_plot_ticks(0, 10, 6, ticks, &step), 6);
	assert_true(step == 2 && ticks[0] == 0 && ticks[5] == 10);
	assert_int_equal(sps_plot_ticks(-0.3, 0.3, 7, ticks, &step), 7);
	assert_true(fabs(step - 0.1) < 1e-12 && ticks[3] == 0);
	check_ticks(0.013, 0.0171, 5);
	check_ticks(-250, 1200, 6);
	check_ticks(1499.5, 1500.5, 4);
	check_ticks(60000.1, 60000.9, 8);
	/* 4 ticks of 5 would leave only 0 between -4.6 and 4.6 */
	assert_int_equal(sps_plot_ticks(-4.6, 4.6, 4, ticks, &step), 5);
	assert_true(step == 2 && ticks[0] == -4 && ticks[4] == 4);
	assert_int_equal(sps_plot_ticks(1, 1, 5, ticks, &step), 0);
	assert_int_equal(sps_plot_ticks(NAN, 1, 5, ticks, &step), 0);
}

static void
test_tick_labels(void **state)
{
	char buf[32];

	(void)state;
	sps_plot_tick_label(buf, sizeof(buf), 10, 2);
	assert_string_equal(buf, "10");
	sps_plot_tick_label(buf, sizeof(buf), 0.25, 0.05);
	assert_string_equal(buf, "0.25");
	sps_plot_tick_label(buf, sizeof(buf), 1.5, 0.5);
	assert_string_equal(buf, "1.5");
	sps_plot_tick_label(buf, sizeof(buf), 2e6, 1e6);
	assert_string_equal(buf, "2e+06");
}

/* Printed in greyscale, a map keeps its order: luminance rises. */
static void
test_cmap_luminance_rises(void **state)
{
	enum sps_plot_cmap maps[] = { SPS_CMAP_VIRIDIS, SPS_CMAP_GREY };
	double rgb[3], last;
	size_t m;
	int i;

	(void)state;
	for (m = 0; m < sizeof(maps) / sizeof(maps[0]); m++) {
		last = -1;
		for (i = 0; i <= 256; i++) {
			sps_plot_cmap_rgb(maps[m], i / 256.0, rgb);
			assert_true(sps_plot_luminance(rgb) > last);
			last = sps_plot_luminance(rgb);
		}
		sps_plot_cmap_rgb(maps[m], 0, rgb);
		assert_true(sps_plot_luminance(rgb) < 0.1);
		sps_plot_cmap_rgb(maps[m], 1, rgb);
		assert_true(sps_plot_luminance(rgb) > 0.8);
	}
	sps_plot_cmap_rgb(SPS_CMAP_VIRIDIS, NAN, rgb);
	last = sps_plot_luminance(rgb);
	sps_plot_cmap_rgb(SPS_CMAP_VIRIDIS, -5, rgb);
	assert_true(sps_plot_luminance(rgb) == last);
}

static void
test_cmap_names(void **state)
{
	enum sps_plot_cmap m;

	(void)state;
	assert_int_equal(sps_plot_cmap_parse("grey", &m), SPS_OK);
	assert_int_equal(m, SPS_CMAP_GREY);
	assert_int_equal(sps_plot_cmap_parse("viridis", &m), SPS_OK);
	assert_int_equal(m, SPS_CMAP_VIRIDIS);
	assert_int_equal(sps_plot_cmap_parse("jet", &m), SPS_EUSAGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_of_suffix),
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_tick_labels),
		cmocka_unit_test(test_cmap_luminance_rises),
		cmocka_unit_test(test_cmap_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
