/* unit-devices: the device query answers whether or not there is a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "devices.h"

/* With devices: sane descriptions.  Without: a reason, nothing filled. */
static void
test_list_or_reason(void **state)
{
	struct sps_device dev[4];
	enum sps_err e;
	int i, n = -1;

	(void)state;
	memset(dev, 0, sizeof(dev));
	e = sps_device_list(dev, 4, &n);
	if (e != SPS_OK) {
		assert_int_equal(n, 0);
#ifdef SPS_HAVE_CUDA
		assert_int_equal(e, SPS_EIO);
		assert_true(strstr(sps_errmsg(), "CUDA device") != NULL ||
		    strstr(sps_errmsg(), "no NVIDIA driver") != NULL ||
		    strstr(sps_errmsg(), "no NVIDIA GPU") != NULL);
#else
		assert_int_equal(e, SPS_EUSAGE);
		assert_string_equal(sps_errmsg(), "built without CUDA");
#endif
		return;
	}
	assert_true(n >= 1);
	for (i = 0; i < n && i < 4; i++) {
		assert_int_equal(dev[i].index, i);
		assert_true(strlen(dev[i].name) > 0);
		assert_true(dev[i].major >= 1);
		assert_true(dev[i].memory > 0);
		assert_true(dev[i].multiprocessors > 0);
	}
}

/* max 0 still counts the devices and writes none. */
static void
test_count_only(void **state)
{
	struct sps_device none;
	int n = -1;

	(void)state;
	memset(&none, 0x5a, sizeof(none));
	if (sps_device_list(&none, 0, &n) == SPS_OK)
		assert_true(n >= 1);
	else
		assert_int_equal(n, 0);
	assert_int_equal(none.index, 0x5a5a5a5a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_or_reason),
		cmocka_unit_test(test_count_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
