/* boxcar.h: boxcar searches of a normalised time series (Adamek & Armour
 * 2020, ApJS 247, 56), their predicted signal loss, and the streaming
 * search of one DM trial that sps-boxcar runs.
 *
 * A boxcar of width w at start s is the sum x[s] + ... + x[s + w - 1]; its
 * S/N is that sum times scale[w] = 1 / sigma_w, the standard deviation of
 * such sums in noise (the series has had its mean removed).  An algorithm
 * is a set of levels; a level evaluates widths first, first + step, ...
 * at every sep-th start counted from the first sample searched (the
 * boxcar separation L_s of the paper):
 *
 *	exhaustive	every width 1..W at every start (the reference)
 *	BD-L0,L1,...	BoxDIT, decimation 2: iteration i has sep 2^i and the
 *			widths C(i-1) + k 2^i, k = 1..L_i, C(i) the widest of
 *			iteration i (C(-1) = 0); the last L repeats; BD-16
 *			is L_i = 16 for every i
 *	IG1, IG2, IG3	IGRID of depth d with 2^(d+1) layers: widths 1 ..
 *			2^(d+1) - 1 and 2^(d+1) + 2j (j < 2^d) at every
 *			start, then step i > d + 1 has sep 2^(i-d-1) and the
 *			widths 2^i + j 2^(i-d), j < 2^d
 *	DIT		decimation in time: width 2^i at every 2^i-th start
 *
 * The last level stops at the first width at or above the maximum asked
 * for.  Each search reports, per start, the best S/N over the widths
 * evaluated there and that width (the narrowest on a tie). */
#ifndef SPS_BOXCAR_H
#define SPS_BOXCAR_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define SPS_BOXCAR_MAXLEVELS	64
#define SPS_BOXCAR_MAXWIDTH	(1 << 24)	/* samples */

enum sps_boxcar_algo {
	SPS_BOXCAR_EXHAUSTIVE,
	SPS_BOXCAR_BOXDIT,
	SPS_BOXCAR_IGRID,
	SPS_BOXCAR_DIT
};

struct sps_boxcar_level {
	int	sep;		/* boxcar separation, samples */
	int	first;		/* first width, samples */
	int	step;		/* width increment, samples */
	int	nwidths;
};

struct sps_boxcar_plan {
	enum sps_boxcar_algo algo;
	int	 depth;			/* IGRID depth */
	int	 nl;			/* BoxDIT widths per iteration, as asked */
	int	 l[SPS_BOXCAR_MAXLEVELS];
	int	 max_width;		/* widest boxcar searched */
	int	 period;		/* largest separation */
	int	 nlevels;
	struct sps_boxcar_level level[SPS_BOXCAR_MAXLEVELS];
	size_t	 tail;			/* sps_boxcar_tail() */
	char	 name[64];		/* canonical name, e.g. "BD-16", "IG(1)" */
};

/* Make a plan from an algorithm name (case ignored): "exhaustive",
 * "DIT", "BD-N" or "BD-N1,N2,..." (N in 1..1024), "IG1".."IG3" or
 * "IG(1)".."IG(3)", searching widths up to at least max_width samples.
 * SPS_EUSAGE for an unknown name. */
enum sps_err sps_boxcar_plan_make(struct sps_boxcar_plan *p,
    const char *algorithm, int max_width);

/* The same algorithm for data scrunched by f: widths up to
 * ceil(max_width / f) samples of the scrunched series. */
enum sps_err sps_boxcar_plan_scrunched(struct sps_boxcar_plan *dst,
    const struct sps_boxcar_plan *src, int max_width, int f);

/* Samples a search needs after its last start (x is read up to
 * x[n - 1 + sps_boxcar_tail(p)]). */
size_t sps_boxcar_tail(const struct sps_boxcar_plan *p);

/* A BoxDIT or exhaustive plan's iterations (see boxcar.c): need[i], the
 * samples of x_i (the series decimated i times) that a search of n
 * starts reads, and L[i], the samples of x_i in the starting sums of
 * iteration i + 1; i < p->nlevels.  For a GPU kernel that does the same
 * additions. */
void sps_boxcar_dit_layout(const struct sps_boxcar_plan *p, size_t n,
    size_t *need, int *L);

/* The widths evaluated at start s (counted from the first start of a
 * search), ascending, into widths (room for max_width); returns how many. */
int sps_boxcar_widths_at(const struct sps_boxcar_plan *p, size_t s,
    int *widths);

/* Boxcar evaluations per sample of a long series (a cost measure). */
double sps_boxcar_evals_per_sample(const struct sps_boxcar_plan *p);

/* Scratch for searches (one per thread); it grows as searches need. */
struct sps_boxcar_work;
enum sps_err sps_boxcar_work_create(struct sps_boxcar_work **w);
void sps_boxcar_work_free(struct sps_boxcar_work *w);

/* Search starts 0 .. n-1 of x with the plan's fast algorithm: snr[s] is
 * the best S/N at start s and, when width is not NULL, width[s] its
 * width.  scale[w] for w = 1 .. p->max_width.  SPS_ENOMEM if the scratch
 * cannot grow. */
enum sps_err sps_boxcar_search(const struct sps_boxcar_plan *p,
    struct sps_boxcar_work *w, const float *x, size_t n, const float *scale,
    float *snr, int32_t *width);

/* The same result the slow, obvious way (double-precision prefix sums
 * over the widths of sps_boxcar_widths_at), considering only boxcars that
 * end at or before sample nvalid; for tests and the end of the data.
 * Starts with no such boxcar get snr -INFINITY and width 0. */
void sps_boxcar_search_ref(const struct sps_boxcar_plan *p,
    const float *x, size_t first, size_t n, size_t nvalid,
    const float *scale, float *snr, int32_t *width);

/* Predicted response to a rectangular pulse of width s samples, as a
 * fraction of its true S/N, in the idealised model (white noise, sigma_w
 * = sqrt(w)): the best case RS/N_max (Appendix eqs. A2, A3) and the worst
 * case RS/N_min (A9, A10) over the pulse's position.  The systematic loss
 * is 1 - max, the worst-case loss 1 - min. */
double sps_boxcar_rsn_max(const struct sps_boxcar_plan *p, int s);
double sps_boxcar_rsn_min(const struct sps_boxcar_plan *p, int s);
/* Mean loss over pulse widths 1..s0 (eq. 19); worst 0 systematic, 1 worst
 * case. */
double sps_boxcar_mean_loss(const struct sps_boxcar_plan *p, int s0,
    int worst);

/* The streaming search of one DM trial.  Windows of the normalised series
 * (consecutive, any lengths, each with its own scale table) go in; every
 * window is searched once the `lag` windows after it are in (or at the
 * end), its boxcars reading on into them, so that boxcars straddling
 * windows are found once and exactly.  A boxcar must end within the data.
 *
 * Events: a boxcar (the best width at its start) is an event when its S/N
 * is at or above the threshold and no overlapping boxcar (at another
 * start, its best width) has a higher S/N, or the same S/N and an earlier
 * start.  Plane: the best S/N and width at every start, window by window
 * (a window not searched, below, gives S/N 0 and width 0). */
struct sps_boxcar_event {
	uint64_t start;		/* sample of the trial series */
	int32_t	 width;		/* samples of the trial series */
	float	 snr;
};

struct sps_boxcar_stream;

enum sps_err sps_boxcar_stream_create(struct sps_boxcar_stream **st,
    const struct sps_boxcar_plan *p, double threshold, int want_plane,
    int lag);
void sps_boxcar_stream_free(struct sps_boxcar_stream *st);

/* Windows needed after a window before it is searched, for windows of
 * `window` samples (the same for every trial of a stream). */
int sps_boxcar_stream_lag(const struct sps_boxcar_plan *p, size_t window);

/* Bytes a scratch holds for searches of n starts with plan p (a window
 * searched at once, its series copied there, included), and a stream of
 * windows of `window` samples uses at most (0: a stream given the boxcars
 * found, sps_boxcar_stream_found, or searching windows at once,
 * sps_boxcar_stream_search) for total samples in all
 * (0: unknown, many windows), without the S/N plane and the events and
 * candidates, which the data decide. */
size_t sps_boxcar_work_bytes(const struct sps_boxcar_plan *p, size_t n);
size_t sps_boxcar_stream_bytes(const struct sps_boxcar_plan *p,
    size_t window, int lag, size_t total);

/* Add the next window: n samples, scale[0..max_width] (NULL: do not
 * search this window; its starts give no events).  Searches what it can
 * with the scratch w. */
enum sps_err sps_boxcar_stream_push(struct sps_boxcar_stream *st,
    struct sps_boxcar_work *w, const float *x, size_t n, const float *scale);

/* Instead of pushing: search the next window at once, the series going
 * on with ahead[0..nahead) (the next window's first samples, as it will
 * be pushed: at least the tail, sps_boxcar_tail, or all there are, the
 * data ending there), the windows' samples counted on from those searched
 * before.  x and ahead may be anything when scale is NULL.  Events are
 * decided as far as a pushed window would have been searched (up to this
 * window), so that they come out when they would have. */
enum sps_err sps_boxcar_stream_search(struct sps_boxcar_stream *st,
    struct sps_boxcar_work *w, const float *x, size_t n, const float *ahead,
    size_t nahead, const float *scale);

/* Instead of windows: the starts at or above the threshold of a search
 * made elsewhere (the GPU's, gpu_search.h), ascending and each after
 * those given before, with the best S/N and width at each; the trial is
 * searched up to sample `searched`.  Finish as after windows. */
enum sps_err sps_boxcar_stream_found(struct sps_boxcar_stream *st,
    const struct sps_boxcar_event *found, size_t n, uint64_t searched);

/* No more windows: search the rest. */
enum sps_err sps_boxcar_stream_finish(struct sps_boxcar_stream *st,
    struct sps_boxcar_work *w);

/* Events decided since the last call (ascending start); the array stays
 * valid until the next push or finish. */
const struct sps_boxcar_event *sps_boxcar_stream_events(
    struct sps_boxcar_stream *st, size_t *n);

/* Plane of the windows searched since the last call: *n starts from
 * sample *first, in *nwin windows of lengths wlen[] (valid until the next
 * push or finish). */
void sps_boxcar_stream_plane(struct sps_boxcar_stream *st,
    const float **snr, const int32_t **width, size_t *n, uint64_t *first,
    const size_t **wlen, int *nwin);

/* Samples searched so far. */
uint64_t sps_boxcar_stream_searched(const struct sps_boxcar_stream *st);

#endif
