/* rfi_inject.h: interference (rfi_spec.h) added to filterbank data a
 * block at a time.
 *
 * Sample i spans [i tsamp, (i + 1) tsamp) s.  Per channel c in range:
 *  - impulse: a rectangle of full width w centred at t, height A rms_c,
 *    integrated over each sample (A times the covered fraction).  snr
 *    sets A so that the rectangle's band sum over W = max(1, round(w /
 *    tsamp)) samples is snr times the rms of that sum, sqrt(W sum over
 *    all channels of rms_c^2): A = snr tsamp sqrt(W sum rms^2) / (w sum
 *    over the range of rms_c).  With rate=, times form a Poisson process
 *    of that rate from 0 on, drawn in cells of 16 / rate s, each from the
 *    seed, the spec's number and the cell's alone.
 *  - carrier: adds amp rms_c while on; zero: sets the value to 0 while on.
 *    Without period= always on; else on when the sample's centre time
 *    tc satisfies frac(tc / period + phase) < duty.
 *  - drift: multiplies by 1 + amp sin(2 pi (tc / period + phase)).
 * Additive kinds come first (in the order given), then drifts, then
 * zeros, so a zeroed channel is 0 whatever else hits it.  A value
 * depends only on its sample's number, never on how the data are cut
 * into blocks. */
#ifndef SPS_RFI_INJECT_H
#define SPS_RFI_INJECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "header.h"
#include "rfi_spec.h"

struct sps_rfi_plan;

/* Plan n items for data of header h (nifs 1) with channel noise rms[]
 * (output units, file order), the random times from seed.  Items are
 * copied.  SPS_EVALUE for an impulse snr over channels without noise;
 * SPS_ENOMEM. */
enum sps_err sps_rfi_plan_create(struct sps_rfi_plan **plan,
    const struct sps_header *h, const double *rms,
    const struct sps_rfi *items, int n, uint64_t seed);

/* Apply the items to spectra first .. first + n - 1 held in buf
 * (time-major, nchans floats a spectrum). */
void sps_rfi_plan_apply(const struct sps_rfi_plan *plan, float *buf,
    uint64_t first, size_t n);

/* Impulses whose centre lies in the first nsamples samples. */
uint64_t sps_rfi_plan_impulses(const struct sps_rfi_plan *plan,
    uint64_t nsamples);

/* "sps-fake: RFI: ..." on f: the impulses in nsamples samples, the
 * carriers, zeroed channels and drifts.  Nothing when there are no
 * items. */
void sps_rfi_plan_report(FILE *f, const struct sps_rfi_plan *plan,
    uint64_t nsamples);

void sps_rfi_plan_free(struct sps_rfi_plan *plan);

#endif
