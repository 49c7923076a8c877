/* candorder.h: the order candidates are written in, and the N brightest.
 *
 * Time order is that of sps_peaks_next (peaks.h): the best member's first
 * sample, then DM trial, then width.  S/N order is highest first, DM
 * order lowest first; both break ties by time order, so every order is a
 * total one and the output does not depend on the order of arrival. */
#ifndef SPS_CANDORDER_H
#define SPS_CANDORDER_H

#include <stddef.h>

#include "error.h"
#include "peaks.h"

enum sps_cand_order {
	SPS_CAND_BY_TIME,
	SPS_CAND_BY_SNR,
	SPS_CAND_BY_DM
};

/* Parse an order name: time, snr, dm.  SPS_EUSAGE for another. */
enum sps_err sps_cand_order_parse(const char *name,
    enum sps_cand_order *order);

/* Sort c[0..n) into order. */
void sps_cand_sort(struct sps_cand *c, size_t n, enum sps_cand_order order);

/* qsort's order of candidates in time: by the best member's sample, DM
 * trial, then width. */
int sps_cand_by_time(const void *a, const void *b);

/* Keep the top candidates of highest S/N (all when n <= top or top is
 * 0): they end up in c[0..*kept), in S/N order. */
void sps_cand_keep_top(struct sps_cand *c, size_t n, size_t top,
    size_t *kept);

#endif
