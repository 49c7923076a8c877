/* unit-rfi_spec: parsing sps-fake's --rfi specs (lib/rfi_spec.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rfi_spec.h"

#define TSAMP	64e-6
#define NCH	128

static void
test_impulse(void **state)
{
	struct sps_rfi r;

	(void)state;
	assert_int_equal(sps_rfi_parse("impulse,t=1.5", TSAMP, NCH, &r),
	    SPS_OK);
	assert_int_equal(r.kind, SPS_RFI_IMPULSE);
	assert_true(r.t == 1.5 && r.rate == 0 && r.width == 1e-3 &&
	    r.snr == 50 && r.lo == -1 && r.hi == -1);
	assert_int_equal(sps_rfi_parse("impulse rate=2 width=4samp amp=3 "
	    "chan=7", TSAMP, NCH, &r), SPS_OK);
	assert_true(r.rate == 2 && r.width == 4 * TSAMP && r.snr == 0 &&
	    r.amp == 3 && r.lo == 7 && r.hi == 7);
}

static void
test_switched_kinds(void **state)
{
	struct sps_rfi r;

	(void)state;
	assert_int_equal(sps_rfi_parse("carrier,chan=100:110,period=0.5s,"
	    "duty=0.25,phase=0.1,amp=7", TSAMP, NCH, &r), SPS_OK);
	assert_int_equal(r.kind, SPS_RFI_CARRIER);
	assert_true(r.lo == 100 && r.hi == 110 && r.period == 0.5 &&
	    r.duty == 0.25 && r.phase == 0.1 && r.amp == 7);
	assert_int_equal(sps_rfi_parse("carrier,chan=3", TSAMP, NCH, &r),
	    SPS_OK);
	assert_true(r.amp == 5 && r.period == 0 && r.duty == 0.5);
	assert_int_equal(sps_rfi_parse("zero,chan=0:127", TSAMP, NCH, &r),
	    SPS_OK);
	assert_int_equal(r.kind, SPS_RFI_ZERO);
	assert_int_equal(sps_rfi_parse("drift,period=30s", TSAMP, NCH, &r),
	    SPS_OK);
	assert_int_equal(r.kind, SPS_RFI_DRIFT);
	assert_true(r.amp == 0.1 && r.period == 30 && r.lo == -1);
}

static void
fails(const char *spec, const char *message)
{
	struct sps_rfi r;

	assert_int_equal(sps_rfi_parse(spec, TSAMP, NCH, &r), SPS_EVALUE);
	assert_string_equal(sps_errmsg(), message);
}

static void
test_errors(void **state)
{
	(void)state;
	fails("", "no kind of RFI (impulse, carrier, zero or drift)");
	fails("spike,t=1", "'spike' is not a kind of RFI (impulse, carrier, "
	    "zero or drift)");
	fails("impulse", "impulse needs t= or rate=");
	fails("impulse,t=1,rate=2", "impulse takes t= or rate=, not both");
	fails("impulse,t=1,snr=5,amp=2", "impulse takes snr= or amp=, not "
	    "both");
	fails("impulse,t=1,colour=red", "unknown key 'colour'");
	fails("impulse,t=1,t=2", "t given twice");
	fails("impulse,t", "'t' is not key=value");
	fails("impulse,t=1,period=2", "impulse takes no period=");
	fails("impulse,t=1,width=0", "width 0 s is not > 0");
	fails("impulse,t=1,snr=-1", "snr -1 is not > 0");
	fails("impulse,rate=20000", "rate 20000 is not in (0, 15625] (one a "
	    "sample)");
	fails("impulse,t=1x", "t: '1x' is not a time (a number, then s, ms, "
	    "us or samp)");
	fails("carrier,amp=3", "carrier needs chan=");
	fails("carrier,chan=1,amp=0", "amp 0 is not > 0");
	fails("carrier,chan=1,duty=0.5", "duty= and phase= need period=");
	fails("zero,chan=1,period=1,duty=1.5", "duty 1.5 is not in (0, 1]");
	fails("zero,chan=5:2", "chan: '5:2' is not a channel or A:B");
	fails("zero,chan=a", "chan: 'a' is not a channel or A:B");
	fails("zero,chan=120:128", "chan: channel 128: the data have channels "
	    "0 to 127");
	fails("zero,chan=1,amp=2", "zero takes no amp=");
	fails("drift,amp=0.1", "drift needs period=");
	fails("drift,period=10,amp=1", "amp 1 is not in [0, 1)");
	fails("drift,period=-1", "period -1 s is not > 0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_impulse),
		cmocka_unit_test(test_switched_kinds),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
