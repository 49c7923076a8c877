/* unit-boxcar_check: a fast search of noise agrees with the reference,
 * with and without widths; a changed S/N or width is the first difference,
 * with both values; a width that ties the reference's agrees, one not
 * evaluated at its start does not. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "boxcar.h"
#include "boxcar_check.h"
#include "gauss.h"

#define N	2000

struct search {
	struct sps_boxcar_plan	 p;
	size_t			 len;
	float			*x, *scale, *snr;
	int32_t			*width;
};

/* The fast search of N starts of Gaussian noise (zeros when zero). */
static void
search(struct search *s, const char *algorithm, int max, int zero)
{
	struct sps_boxcar_work *w;
	size_t j;
	int k;

	assert_int_equal(sps_boxcar_plan_make(&s->p, algorithm, max), SPS_OK);
	s->len = N + sps_boxcar_tail(&s->p);
	s->x = malloc(s->len * sizeof(float));
	s->scale = malloc(((size_t)s->p.max_width + 1) * sizeof(float));
	s->snr = malloc(N * sizeof(float));
	s->width = malloc(N * sizeof(int32_t));
	assert_true(s->x && s->scale && s->snr && s->width);
	for (j = 0; j < s->len; j++)
		s->x[j] = zero ? 0 : gauss();
	s->scale[0] = 0;
	for (k = 1; k <= s->p.max_width; k++)
		s->scale[k] = (float)(1 / sqrt((double)k));
	assert_int_equal(sps_boxcar_work_create(&w), SPS_OK);
	assert_int_equal(sps_boxcar_search(&s->p, w, s->x, N, s->scale,
	    s->snr, s->width), SPS_OK);
	sps_boxcar_work_free(w);
}

static void
done(struct search *s)
{
	free(s->x);
	free(s->scale);
	free(s->snr);
	free(s->width);
}

/* Whether s agrees with the reference; *m the first difference. */
static int
agrees(const struct search *s, int widths, struct sps_boxcar_mismatch *m)
{
	int ok = -1;

	assert_int_equal(sps_boxcar_check(&s->p, s->x, N, s->len, s->scale,
	    s->snr, widths ? s->width : NULL, &ok, m), SPS_OK);
	assert_true(ok == 0 || ok == 1);
	return ok;
}

static void
test_fast_searches_agree(void **state)
{
	static const char *const algorithms[] = {
		"BD-16", "BD-8", "IG1", "IG3", "DIT", "exhaustive"
	};
	struct sps_boxcar_mismatch m;
	struct search s;
	size_t a;

	(void)state;
	for (a = 0; a < sizeof(algorithms) / sizeof(algorithms[0]); a++) {
		search(&s, algorithms[a], 300, 0);
		assert_true(agrees(&s, 1, &m));
		assert_true(agrees(&s, 0, &m));
		done(&s);
	}
}

static void
test_changed_snr_is_the_first_difference(void **state)
{
	struct sps_boxcar_mismatch m;
	struct search s;
	float was;

	(void)state;
	search(&s, "BD-16", 64, 0);
	was = s.snr[77];
	s.snr[1500] += 1;
	s.snr[77] += 1e-3f * (1 + fabsf(was));
	assert_false(agrees(&s, 1, &m));
	assert_int_equal(m.start, 77);
	assert_true(m.snr == s.snr[77]);
	assert_float_equal(m.ref_snr, was, 1e-4 * (1 + fabsf(was)));
	assert_int_equal(m.width, s.width[77]);
	assert_int_equal(m.ref_width, s.width[77]);
	assert_false(agrees(&s, 0, &m));
	assert_int_equal(m.start, 77);
	assert_int_equal(m.width, 0);
	assert_int_equal(m.ref_width, 0);
	s.snr[77] = was + 0.5e-4f * (1 + fabsf(was));
	assert_false(agrees(&s, 1, &m));
	assert_int_equal(m.start, 1500);
	done(&s);
}

static void
test_changed_width(void **state)
{
	struct sps_boxcar_mismatch m;
	struct search s;
	int32_t was;

	(void)state;
	search(&s, "exhaustive", 40, 0);
	was = s.width[300];
	s.width[300] = was == 40 ? 39 : was + 1;
	assert_false(agrees(&s, 1, &m));
	assert_int_equal(m.start, 300);
	assert_int_equal(m.width, s.width[300]);
	assert_int_equal(m.ref_width, was);
	assert_float_equal(m.snr, m.ref_snr, 1e-4 * (1 + fabsf(m.ref_snr)));
	assert_true(agrees(&s, 0, &m));
	done(&s);
}

/* On zeros every width ties; only those evaluated at a start count. */
static void
test_ties(void **state)
{
	struct sps_boxcar_mismatch m;
	struct search s;

	(void)state;
	search(&s, "BD-16", 64, 1);
	assert_int_equal(s.width[10], 1);
	s.width[10] = 16;
	assert_true(agrees(&s, 1, &m));
	s.width[11] = 18;	/* BD-16: widths 18.. only at even starts */
	assert_false(agrees(&s, 1, &m));
	assert_int_equal(m.start, 11);
	assert_int_equal(m.width, 18);
	assert_int_equal(m.ref_width, 1);
	done(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_searches_agree),
		cmocka_unit_test(test_changed_snr_is_the_first_difference),
		cmocka_unit_test(test_changed_width),
		cmocka_unit_test(test_ties),
	};

	test_rng = 1181783497276652981ULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
