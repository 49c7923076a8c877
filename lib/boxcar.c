/* boxcar.c: boxcar searches (BoxDIT, IGRID, DIT, exhaustive), their
 * predicted losses, and the streaming search of one trial (boxcar.h).
 *
 * The fast searches work on blocks of V starts held in local arrays,
 * which the compiler keeps in vector registers: for each width the block
 * adds one sample to its running sums, scales them and keeps the maximum. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxcar.h"

/* Starts per vector block: the sums and best values of a block stay in
 * vector registers, 2 x V floats: 8 of the 32 AVX-512 registers, 8 of the
 * 16 AVX2 ones. */
#ifndef SPS_BOXCAR_V
#if defined(__AVX512F__)
#define SPS_BOXCAR_V	64
#else
#define SPS_BOXCAR_V	32
#endif
#endif
#define V	SPS_BOXCAR_V

/* The loops below want the widest vectors the processor has, whatever the
 * compiler's preference for its tuning (256 bits on some AVX-512 parts). */
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
#define WIDE_BEGIN	_Pragma("GCC push_options") \
			_Pragma("GCC target(\"prefer-vector-width=512\")")
#define WIDE_END	_Pragma("GCC pop_options")
#else
#define WIDE_BEGIN
#define WIDE_END
#endif

/* ---- plans ---- */

static void
add_level(struct sps_boxcar_plan *p, int sep, int first, int step, int n)
{
	struct sps_boxcar_level *l = &p->level[p->nlevels++];

	l->sep = sep;
	l->first = first;
	l->step = step;
	l->nwidths = n;
	if (sep > p->period)
		p->period = sep;
	p->max_width = first + (n - 1) * step;
}

/* Widths first + k step, k < n, cut at the first one >= max. */
static int
cut(int first, int step, int n, int max, int *last)
{
	int k;

	if (first + (long long)(n - 1) * step < max) {
		*last = 0;
		return n;
	}
	*last = 1;
	k = first >= max ? 0 : (max - first + step - 1) / step;
	return k + 1;
}

static enum sps_err
plan_boxdit(struct sps_boxcar_plan *p, int max)
{
	long long cum = 0;
	int i, last = 0;

	for (i = 0; !last; i++) {
		int l = p->l[i < p->nl ? i : p->nl - 1];
		int sep = 1 << i;
		int n;

		if (i >= SPS_BOXCAR_MAXLEVELS || cum + sep > SPS_BOXCAR_MAXWIDTH)
			return sps_fail(SPS_EVALUE, "BoxDIT: too many iterations");
		n = cut((int)cum + sep, sep, l, max, &last);
		add_level(p, sep, (int)cum + sep, sep, n);
		cum += (long long)l * sep;
	}
	return SPS_OK;
}

static void
plan_igrid(struct sps_boxcar_plan *p, int max)
{
	int d = p->depth, P = 2 << d, i, last = 0;

	add_level(p, 1, 1, 1, cut(1, 1, P - 1, max, &last));
	if (!last)
		add_level(p, 1, P, 2, cut(P, 2, 1 << d, max, &last));
	for (i = d + 2; !last; i++)
		add_level(p, 1 << (i - d - 1), 1 << i, 1 << (i - d),
		    cut(1 << i, 1 << (i - d), 1 << d, max, &last));
}

static void
plan_dit(struct sps_boxcar_plan *p, int max)
{
	int i;

	for (i = 0; (1 << i) < max; i++)
		add_level(p, 1 << i, 1 << i, 1, 1);
	add_level(p, 1 << i, 1 << i, 1, 1);
}

/* "BD-16" or "BD-32,16,8": the widths per iteration. */
static enum sps_err
parse_boxdit(struct sps_boxcar_plan *p, const char *list)
{
	const char *s = list;
	char *end;
	long v;

	p->nl = 0;
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return SPS_EUSAGE;
		v = strtol(s, &end, 10);
		if (v < 1 || v > 1024 || p->nl == SPS_BOXCAR_MAXLEVELS)
			return SPS_EUSAGE;
		p->l[p->nl++] = (int)v;
		if (*end == '\0')
			return SPS_OK;
		if (*end != ',')
			return SPS_EUSAGE;
		s = end + 1;
	}
}

static enum sps_err
parse_name(struct sps_boxcar_plan *p, const char *name)
{
	char low[64];
	size_t i;

	if (strlen(name) >= sizeof(low))
		return SPS_EUSAGE;
	for (i = 0; name[i] != '\0'; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	if (strcmp(low, "exhaustive") == 0) {
		p->algo = SPS_BOXCAR_EXHAUSTIVE;
		snprintf(p->name, sizeof(p->name), "exhaustive");
	} else if (strcmp(low, "dit") == 0) {
		p->algo = SPS_BOXCAR_DIT;
		snprintf(p->name, sizeof(p->name), "DIT");
	} else if (strncmp(low, "bd-", 3) == 0) {
		p->algo = SPS_BOXCAR_BOXDIT;
		if (parse_boxdit(p, low + 3) != SPS_OK)
			return SPS_EUSAGE;
		snprintf(p->name, sizeof(p->name), "BD-%s", low + 3);
	} else if ((strlen(low) == 3 && strncmp(low, "ig", 2) == 0) ||
	    (strlen(low) == 5 && strncmp(low, "ig(", 3) == 0 &&
	    low[4] == ')')) {
		p->algo = SPS_BOXCAR_IGRID;
		p->depth = low[2] == '(' ? low[3] - '0' : low[2] - '0';
		if (p->depth < 1 || p->depth > 3)
			return SPS_EUSAGE;
		snprintf(p->name, sizeof(p->name), "IG(%d)", p->depth);
	} else {
		return SPS_EUSAGE;
	}
	return SPS_OK;
}

static size_t tail_of(const struct sps_boxcar_plan *p);

static enum sps_err
plan_levels(struct sps_boxcar_plan *p, int max)
{
	enum sps_err e = SPS_OK;

	p->nlevels = 0;
	p->period = 1;
	switch (p->algo) {
	case SPS_BOXCAR_EXHAUSTIVE:
		add_level(p, 1, 1, 1, max);
		break;
	case SPS_BOXCAR_BOXDIT:
		e = plan_boxdit(p, max);
		break;
	case SPS_BOXCAR_IGRID:
		plan_igrid(p, max);
		break;
	case SPS_BOXCAR_DIT:
		plan_dit(p, max);
		break;
	}
	p->tail = e == SPS_OK ? tail_of(p) : 0;
	return e;
}

enum sps_err
sps_boxcar_plan_make(struct sps_boxcar_plan *p, const char *algorithm,
    int max_width)
{
	memset(p, 0, sizeof(*p));
	if (parse_name(p, algorithm) != SPS_OK)
		return sps_fail(SPS_EUSAGE, "unknown algorithm '%s' (BD-8, "
		    "BD-16, BD-32, BD-N[,N...], IG1, IG2, IG3, DIT, exhaustive)",
		    algorithm);
	if (max_width < 1 || max_width > SPS_BOXCAR_MAXWIDTH)
		return sps_fail(SPS_EVALUE, "maximum width %d not in [1, %d]",
		    max_width, SPS_BOXCAR_MAXWIDTH);
	return plan_levels(p, max_width);
}

enum sps_err
sps_boxcar_plan_scrunched(struct sps_boxcar_plan *dst,
    const struct sps_boxcar_plan *src, int max_width, int f)
{
	if (f < 1)
		return sps_fail(SPS_EVALUE, "scrunch factor %d", f);
	*dst = *src;
	return plan_levels(dst, (max_width + f - 1) / f);
}

int
sps_boxcar_widths_at(const struct sps_boxcar_plan *p, size_t s, int *widths)
{
	int i, k, n = 0;

	for (i = 0; i < p->nlevels; i++) {
		const struct sps_boxcar_level *l = &p->level[i];

		if (s % (size_t)l->sep != 0)
			continue;
		for (k = 0; k < l->nwidths; k++)
			widths[n++] = l->first + k * l->step;
	}
	return n;
}

double
sps_boxcar_evals_per_sample(const struct sps_boxcar_plan *p)
{
	double e = 0;
	int i;

	for (i = 0; i < p->nlevels; i++)
		e += (double)p->level[i].nwidths / p->level[i].sep;
	return e;
}

/* Room to grow a stream's or a scratch's buffer to for need elements:
 * an eighth more (a stream's buffers reach a steady size, which
 * thousands of trials hold at once, so they are not doubled past it). */
static size_t
room(size_t need)
{
	return need < 64 ? 64 : need + need / 8;
}

/* ---- scratch ---- */

struct sps_boxcar_work {
	float	*buf[4];	/* decimated series and partial sums */
	float	*best;		/* one level's S/N per start */
	int32_t	*bw;		/* and width */
	float	*sc;		/* one level's scales */
	int32_t	*wd;		/* and widths */
	size_t	 cap, ncap;
	float	*wsnr;		/* a stream's window: best S/N per start */
	int32_t	*wwidth;	/* and width */
	size_t	 wscap, wwcap;
	float	*series;	/* a window searched at once, and its tail */
	size_t	 secap;
};

enum sps_err
sps_boxcar_work_create(struct sps_boxcar_work **w)
{
	if ((*w = calloc(1, sizeof(**w))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

void
sps_boxcar_work_free(struct sps_boxcar_work *w)
{
	int i;

	if (w == NULL)
		return;
	for (i = 0; i < 4; i++)
		free(w->buf[i]);
	free(w->best);
	free(w->bw);
	free(w->sc);
	free(w->wd);
	free(w->wsnr);
	free(w->wwidth);
	free(w->series);
	free(w);
}

/* Room for: cap samples of each series, the results of every level
 * but the first for n starts, ncap widths. */
static enum sps_err
work_reserve(struct sps_boxcar_work *w, const struct sps_boxcar_plan *p,
    size_t cap, size_t n, size_t ncap)
{
	size_t bcap = n + (size_t)(p->nlevels + 1) * (V + 1);
	int i;

	if (bcap > cap)
		cap = bcap;
	if (cap > w->cap) {
		for (i = 0; i < 4; i++) {
			free(w->buf[i]);
			w->buf[i] = malloc((cap + V) * sizeof(float));
		}
		free(w->best);
		free(w->bw);
		w->best = malloc((cap + V) * sizeof(float));
		w->bw = malloc((cap + V) * sizeof(int32_t));
		w->cap = cap;
		for (i = 0; i < 4; i++)
			if (w->buf[i] == NULL)
				w->cap = 0;
		if (w->best == NULL || w->bw == NULL)
			w->cap = 0;
		if (w->cap == 0)
			return sps_fail(SPS_ENOMEM, "out of memory for boxcar "
			    "scratch");
	}
	if (ncap > w->ncap) {
		free(w->sc);
		free(w->wd);
		w->sc = malloc(ncap * sizeof(float));
		w->wd = malloc(ncap * sizeof(int32_t));
		w->ncap = ncap;
		if (w->sc == NULL || w->wd == NULL) {
			w->ncap = 0;
			return sps_fail(SPS_ENOMEM, "out of memory");
		}
	}
	return SPS_OK;
}

WIDE_BEGIN

/* ---- the vector block ----
 *
 * V starts at once: acc = partial sums (from prev, or 0); K steps each
 * add one sample, then K2 steps each add a pair of samples (two series);
 * after every step acc * sc[k] is compared with the best so far.  The
 * step loops have no branches, so that acc and the best stay in vector
 * registers. */
struct block_args {
	const float	*x;	/* sample added at step k: x[m + k] */
	int		 K;
	const float	*x2, *y2;	/* pair step k: x2[m + 2k] + y2[m + 2k] */
	int		 K2;
	const float	*prev;	/* starting sums or NULL (zero) */
	size_t		 ps;	/* stride of prev (1, or 2 for every other) */
	float		*out;	/* acc after the K single steps, or NULL */
	const float	*sc;	/* scale per step (K + K2) */
	const int32_t	*wd;	/* width per step */
	int		 first_eval;	/* evaluate the starting sums with sc0 */
	float		 sc0;
	int32_t		 wd0;
};

#define STEP(sample)							\
	do {								\
		for (v = 0; v < V; v++) {				\
			float t;					\
									\
			acc[v] += (sample);				\
			t = acc[v] * s;					\
			if (track)					\
				w[v] = t > b[v] ? wk : w[v];		\
			b[v] = t > b[v] ? t : b[v];			\
		}							\
	} while (0)

static inline __attribute__((always_inline)) void
block(const struct block_args *a, size_t m, float *restrict best,
    int32_t *restrict bw, const int track)
{
	const float *restrict x = a->x + m;
	const float *restrict sc = a->sc;
	const int32_t *restrict wd = a->wd;
	float acc[V], b[V];
	int32_t w[V];
	int k, v;

	if (a->prev != NULL && a->ps <= 1)
		for (v = 0; v < V; v++)
			acc[v] = a->prev[m + v];
	else if (a->prev != NULL)
		for (v = 0; v < V; v++)
			acc[v] = a->prev[(m + v) * a->ps];
	else
		for (v = 0; v < V; v++)
			acc[v] = 0;
	for (v = 0; v < V; v++) {
		b[v] = a->first_eval ? acc[v] * a->sc0 : -INFINITY;
		w[v] = a->first_eval ? a->wd0 : 0;
	}
	for (k = 0; k < a->K; k++) {
		const float s = sc[k];
		const int32_t wk = wd[k];
		const float *restrict xk = x + k;

		STEP(xk[v]);
	}
	if (a->out != NULL)
		for (v = 0; v < V; v++)
			a->out[m + v] = acc[v];
	for (k = 0; k < a->K2; k++) {
		const float s = sc[a->K + k];
		const int32_t wk = wd[a->K + k];
		const float *restrict xk = a->x2 + m + 2 * (size_t)k;
		const float *restrict yk = a->y2 + m + 2 * (size_t)k;

		STEP(xk[v] + yk[v]);
	}
	for (v = 0; v < V; v++)
		best[m + v] = b[v];
	if (track)
		for (v = 0; v < V; v++)
			bw[m + v] = w[v];
}

/* The same for one start (the last partial block). */
static void
one(const struct block_args *a, size_t m, float *best, int32_t *bw)
{
	size_t ps = a->ps > 1 ? a->ps : 1;
	float acc = a->prev != NULL ? a->prev[m * ps] : 0, b = -INFINITY, t;
	int32_t w = 0;
	int k;

	if (a->first_eval) {
		b = acc * a->sc0;
		w = a->wd0;
	}
	for (k = 0; k < a->K + a->K2; k++) {
		if (k < a->K)
			acc += a->x[m + (size_t)k];
		else
			acc += a->x2[m + 2 * (size_t)(k - a->K)] +
			    a->y2[m + 2 * (size_t)(k - a->K)];
		if (k == a->K - 1 && a->out != NULL)
			a->out[m] = acc;
		t = acc * a->sc[k];
		if (t > b) {
			b = t;
			w = a->wd[k];
		}
	}
	if (a->K == 0 && a->out != NULL)
		a->out[m] = acc;
	best[m] = b;
	bw[m] = w;
}

static void
run_fast(const struct block_args *a, size_t ns, float *best, int32_t *bw)
{
	size_t m;

	for (m = 0; m + V <= ns; m += V)
		block(a, m, best, bw, 0);
	for (; m < ns; m++)
		one(a, m, best, bw);
}

static void
run_track(const struct block_args *a, size_t ns, float *best, int32_t *bw)
{
	size_t m;

	for (m = 0; m + V <= ns; m += V)
		block(a, m, best, bw, 1);
	for (; m < ns; m++)
		one(a, m, best, bw);
}

/* Search ns starts into snr (and width, or the scratch bw). */
static void
run_blocks(const struct block_args *a, size_t ns, float *snr,
    int32_t *width, int32_t *scratch)
{
	if (width != NULL)
		run_track(a, ns, snr, width);
	else
		run_fast(a, ns, snr, scratch);
}

/* Merge a level's results (start m at 2m of the level below, whose
 * separation is half) into the level below; the narrower level wins
 * ties. */
static void
merge_up(float *lo, int32_t *lw, const float *hi, const int32_t *hw,
    size_t ns, int track)
{
	size_t m;

	if (!track) {
		for (m = 0; m < ns; m++) {
			float a = lo[2 * m], b = hi[m];

			lo[2 * m] = b > a ? b : a;
		}
		return;
	}
	for (m = 0; m < ns; m++) {
		float a = lo[2 * m], b = hi[m];
		int32_t wa = lw[2 * m], wb = hw[m];

		lo[2 * m] = b > a ? b : a;
		lw[2 * m] = b > a ? wb : wa;
	}
}

/* Level i's results: at 0 for the first level, packed after. */
static size_t
level_offset(size_t n, const struct sps_boxcar_plan *p, int first, int i)
{
	size_t off = 0;
	int j;

	for (j = first + 1; j < i; j++)
		off += (n + (size_t)p->level[j].sep - 1) /
		    (size_t)p->level[j].sep + V;
	return off;
}

/* Merge levels first+1 .. nlevels-1 (each of twice the separation of the
 * one before) down into the first level's results, snr and width. */
static void
merge_levels(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    size_t n, int first, float *snr, int32_t *width)
{
	int i, track = width != NULL;

	for (i = p->nlevels - 1; i > first; i--) {
		size_t hi = level_offset(n, p, first, i);
		size_t ns = (n + (size_t)p->level[i].sep - 1) /
		    (size_t)p->level[i].sep;

		if (i - 1 > first) {
			size_t lo = level_offset(n, p, first, i - 1);

			merge_up(w->best + lo, w->bw + lo, w->best + hi,
			    w->bw + hi, ns, track);
		} else {
			merge_up(snr, track ? width : w->bw, w->best + hi,
			    w->bw + hi, ns, track);
		}
	}
}

static size_t
ceil_div(size_t a, size_t b)
{
	return (a + b - 1) / b;
}

static size_t
max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* ---- BoxDIT (and the exhaustive search, one iteration) ----
 *
 * Iteration i works on x_i, the series decimated i times (x_0 = x) and
 * shifted so that x_i[q] sums base samples C(i-1) + q 2^i .. + 2^i - 1,
 * and on X_i[m], the boxcar of width C(i-1) at start m 2^i.  Its widths
 * at start m are X_i[m] + x_i[m] + ... + x_i[m + k - 1]; then
 * x_{i+1}[q] = x_i[2q + L_i] + x_i[2q + L_i + 1] and
 * X_{i+1}[m] = (X_i + L_i samples of x_i)[2m] (the paper's eq. 13-15). */
static int
full_l(const struct sps_boxcar_plan *p, int i)
{
	if (p->algo == SPS_BOXCAR_EXHAUSTIVE)
		return p->level[0].nwidths;
	return p->l[i < p->nl ? i : p->nl - 1];
}

/* Samples of x_i needed for n starts, i = 0 .. nlevels-1. */
static void
boxdit_need(const struct sps_boxcar_plan *p, size_t n, size_t *need)
{
	int i = p->nlevels - 1;

	need[i] = ceil_div(n, (size_t)p->level[i].sep) + p->level[i].nwidths;
	for (i--; i >= 0; i--)
		need[i] = max_size(ceil_div(n, (size_t)p->level[i].sep) +
		    p->level[i].nwidths, 2 * need[i + 1] + full_l(p, i) + 1);
}

static enum sps_err
boxdit(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, size_t n, const float *scale, float *snr,
    int32_t *width)
{
	size_t need[SPS_BOXCAR_MAXLEVELS], q;
	const float *xi = x, *Xi = NULL;
	float *xn, *Xn;
	int i, k, in = 0;
	enum sps_err e;

	boxdit_need(p, n, need);
	if ((e = work_reserve(w, p, need[0] / 2 + n + V, n,
	    (size_t)p->max_width + 1)) != SPS_OK)
		return e;
	for (i = 0; i < p->nlevels; i++) {
		const struct sps_boxcar_level *l = &p->level[i];
		size_t ns = ceil_div(n, (size_t)l->sep);
		int last = i == p->nlevels - 1, L = full_l(p, i);
		struct block_args a;

		for (k = 0; k < l->nwidths; k++) {
			w->wd[k] = l->first + k * l->step;
			w->sc[k] = scale[w->wd[k]];
		}
		memset(&a, 0, sizeof(a));
		a.x = xi;
		a.prev = Xi;
		a.ps = 2;	/* X of the last iteration at every other start */
		a.K = l->nwidths;
		a.sc = w->sc;
		a.wd = w->wd;
		/* X_i + L_i samples: the next iteration's starting sums */
		Xn = last ? NULL : w->buf[2 + in];
		a.out = Xn;
		if (i == 0) {
			run_blocks(&a, ns, snr, width, w->bw);
		} else {
			size_t off = level_offset(n, p, 0, i);

			run_blocks(&a, ns, w->best + off, width != NULL ?
			    w->bw + off : NULL, w->bw + off);
		}
		if (last)
			break;
		xn = w->buf[in];
		for (q = 0; q < need[i + 1]; q++)
			xn[q] = xi[2 * q + L] + xi[2 * q + L + 1];
		xi = xn;
		Xi = Xn;
		in = 1 - in;
	}
	merge_levels(p, w, n, 0, snr, width);
	return SPS_OK;
}

/* ---- IGRID ----
 *
 * At full resolution (separation 1): widths 1 .. P-1 and P, P+2, ..,
 * 2P-2 (P = 2^(d+1)), one running sum per start; it also keeps S[s], the
 * sum of P samples.  Step i > d+1 works on c, the series decimated by
 * sep = 2^(i-d-1), where 2^i is P samples: S_i[m] = S_{i-1}[2m] +
 * S_{i-1}[2m + P] (a node of the paper's binary tree), and the widths
 * 2^i + j 2^(i-d) add pairs of c samples after it. */
struct igrid_need {
	size_t	c[SPS_BOXCAR_MAXLEVELS];	/* samples of c per level */
	size_t	S[SPS_BOXCAR_MAXLEVELS];	/* sums S per level */
	size_t	x;				/* samples of x */
	size_t	Sfull;				/* sums S at full resolution */
};

static int
igrid_full_levels(const struct sps_boxcar_plan *p)
{
	return p->nlevels > 1 && p->level[1].sep == 1 ? 2 : 1;
}

/* The widest width at full resolution. */
static int
igrid_full_width(const struct sps_boxcar_plan *p)
{
	const struct sps_boxcar_level *l = &p->level[igrid_full_levels(p) - 1];

	return l->first + (l->nwidths - 1) * l->step;
}

static void
igrid_need(const struct sps_boxcar_plan *p, size_t n, struct igrid_need *nd)
{
	int P = 2 << p->depth, a = igrid_full_levels(p), i;
	size_t ns;

	nd->x = n + (size_t)igrid_full_width(p);
	nd->Sfull = n;
	for (i = p->nlevels - 1; i >= a; i--) {
		const struct sps_boxcar_level *l = &p->level[i];

		ns = ceil_div(n, (size_t)l->sep);
		nd->c[i] = ns + (size_t)P + 2 * (size_t)l->nwidths;
		nd->S[i] = ns;
		if (i + 1 < p->nlevels) {
			nd->c[i] = max_size(nd->c[i], 2 * nd->c[i + 1]);
			nd->S[i] = max_size(nd->S[i], 2 * nd->S[i + 1] +
			    (size_t)P);
		}
	}
	if (a < p->nlevels) {
		nd->x = max_size(nd->x, 2 * nd->c[a]);
		nd->Sfull = max_size(n, 2 * nd->S[a] + (size_t)P);
		nd->x = max_size(nd->x, nd->Sfull + (size_t)P);
	}
}

static enum sps_err
igrid(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, size_t n, const float *scale, float *snr,
    int32_t *width)
{
	int P = 2 << p->depth, a = igrid_full_levels(p), i, k, K, in = 0;
	const float *c = x, *S;
	float *cn, *Sn;
	struct igrid_need nd;
	struct block_args ba;
	enum sps_err e;
	size_t m, ns, off;

	igrid_need(p, n, &nd);
	if ((e = work_reserve(w, p, max_size(nd.x, nd.Sfull) + V, n,
	    (size_t)p->max_width + 1)) != SPS_OK)
		return e;
	/* full resolution: widths 1 .. P one sample at a time (then acc
	 * is S, the sum of P), then pairs up to the widest */
	K = igrid_full_width(p);
	memset(&ba, 0, sizeof(ba));
	ba.x = x;
	ba.K = K < P ? K : P;
	ba.x2 = x + P;
	ba.y2 = x + P + 1;
	ba.K2 = K > P ? (K - P) / 2 : 0;
	for (k = 0; k < ba.K + ba.K2; k++) {
		w->wd[k] = k < ba.K ? k + 1 : P + 2 * (k - ba.K + 1);
		w->sc[k] = scale[w->wd[k]];
	}
	ba.sc = w->sc;
	ba.wd = w->wd;
	Sn = w->buf[2];
	ba.out = a < p->nlevels ? Sn : NULL;
	run_blocks(&ba, n, snr, width, w->bw);
	if (a == p->nlevels)
		return SPS_OK;
	for (m = n; m < nd.Sfull; m++)
		Sn[m] = 0;
	for (k = 0; k < P; k++)
		for (m = n; m < nd.Sfull; m++)
			Sn[m] += x[m + (size_t)k];
	S = Sn;
	for (i = a; i < p->nlevels; i++) {
		const struct sps_boxcar_level *l = &p->level[i];

		ns = ceil_div(n, (size_t)l->sep);
		cn = w->buf[in];
		for (m = 0; m < nd.c[i]; m++)
			cn[m] = c[2 * m] + c[2 * m + 1];
		Sn = w->buf[2 + (1 - in)];
		if (Sn == S)
			Sn = w->buf[2 + in];
		for (m = 0; m < nd.S[i]; m++)
			Sn[m] = S[2 * m] + S[2 * m + P];
		for (k = 0; k + 1 < l->nwidths; k++) {
			w->wd[k] = l->first + (k + 1) * l->step;
			w->sc[k] = scale[w->wd[k]];
		}
		memset(&ba, 0, sizeof(ba));
		ba.x = cn;
		ba.x2 = cn + P;
		ba.y2 = cn + P + 1;
		ba.K2 = l->nwidths - 1;
		ba.prev = Sn;
		ba.ps = 1;
		ba.sc = w->sc;
		ba.wd = w->wd;
		ba.first_eval = 1;
		ba.sc0 = scale[l->first];
		ba.wd0 = l->first;
		off = level_offset(n, p, a - 1, i);
		run_blocks(&ba, ns, w->best + off, width != NULL ? w->bw + off :
		    NULL, w->bw + off);
		c = cn;
		S = Sn;
		in = 1 - in;
	}
	merge_levels(p, w, n, a - 1, snr, width);
	return SPS_OK;
}

/* ---- DIT ---- */

/* Samples of level i's series needed for n starts. */
static void
dit_need(const struct sps_boxcar_plan *p, size_t n, size_t *need)
{
	int i = p->nlevels - 1;

	need[i] = ceil_div(n, (size_t)p->level[i].sep);
	for (i--; i >= 0; i--)
		need[i] = max_size(ceil_div(n, (size_t)p->level[i].sep),
		    2 * need[i + 1]);
}

static enum sps_err
dit(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, size_t n, const float *scale, float *snr,
    int32_t *width)
{
	size_t need[SPS_BOXCAR_MAXLEVELS], m, ns, off;
	const float *c = x;
	float *cn, *best;
	int32_t *bw;
	int i, in = 0;
	enum sps_err e;

	dit_need(p, n, need);
	if ((e = work_reserve(w, p, need[0] + V, n, 1)) != SPS_OK)
		return e;
	for (i = 0; i < p->nlevels; i++) {
		float s = scale[p->level[i].first];

		ns = ceil_div(n, (size_t)p->level[i].sep);
		if (i > 0) {
			cn = w->buf[in];
			for (m = 0; m < need[i]; m++)
				cn[m] = c[2 * m] + c[2 * m + 1];
			c = cn;
			in = 1 - in;
		}
		off = i == 0 ? 0 : level_offset(n, p, 0, i);
		best = i == 0 ? snr : w->best + off;
		bw = i == 0 ? (width != NULL ? width : w->bw) : w->bw + off;
		for (m = 0; m < ns; m++)
			best[m] = c[m] * s;
		if (width != NULL)
			for (m = 0; m < ns; m++)
				bw[m] = p->level[i].first;
	}
	merge_levels(p, w, n, 0, snr, width);
	return SPS_OK;
}

enum sps_err
sps_boxcar_search(const struct sps_boxcar_plan *p, struct sps_boxcar_work *w,
    const float *x, size_t n, const float *scale, float *snr, int32_t *width)
{
	if (n == 0)
		return SPS_OK;
	switch (p->algo) {
	case SPS_BOXCAR_EXHAUSTIVE:
	case SPS_BOXCAR_BOXDIT:
		return boxdit(p, w, x, n, scale, snr, width);
	case SPS_BOXCAR_IGRID:
		return igrid(p, w, x, n, scale, snr, width);
	case SPS_BOXCAR_DIT:
		return dit(p, w, x, n, scale, snr, width);
	}
	return sps_fail(SPS_EUSAGE, "unknown algorithm");
}

/* The scratch series' length a search of n starts asks of work_reserve
 * (the cap each algorithm passes, and work_reserve's least). */
static size_t
work_cap(const struct sps_boxcar_plan *p, size_t n)
{
	size_t need[SPS_BOXCAR_MAXLEVELS], cap, least = n +
	    (size_t)(p->nlevels + 1) * (V + 1);
	struct igrid_need nd;

	switch (p->algo) {
	case SPS_BOXCAR_IGRID:
		igrid_need(p, n, &nd);
		cap = max_size(nd.x, nd.Sfull) + V;
		break;
	case SPS_BOXCAR_DIT:
		dit_need(p, n, need);
		cap = need[0] + V;
		break;
	default:
		boxdit_need(p, n, need);
		cap = need[0] / 2 + n + V;
	}
	return max_size(cap, least);
}

WIDE_END

/* The samples of x a search of n starts reads: the largest need over a
 * range of n covering every phase of the lattice. */
static size_t
reads(const struct sps_boxcar_plan *p, size_t n)
{
	size_t need[SPS_BOXCAR_MAXLEVELS];
	struct igrid_need nd;

	switch (p->algo) {
	case SPS_BOXCAR_IGRID:
		igrid_need(p, n, &nd);
		return nd.x;
	case SPS_BOXCAR_DIT:
		return n + (size_t)p->period;
	default:
		boxdit_need(p, n, need);
		return need[0];
	}
}

void
sps_boxcar_dit_layout(const struct sps_boxcar_plan *p, size_t n, size_t *need,
    int *L)
{
	int i;

	boxdit_need(p, n, need);
	for (i = 0; i < p->nlevels; i++)
		L[i] = full_l(p, i);
}

size_t
sps_boxcar_tail(const struct sps_boxcar_plan *p)
{
	return p->tail;
}

/* Thousands of trials ask for it: it is worked out once, with the plan. */
static size_t
tail_of(const struct sps_boxcar_plan *p)
{
	size_t n0 = 8 * (size_t)p->period, n, t = 0;

	for (n = n0; n < n0 + 2 * (size_t)p->period; n++)
		t = max_size(t, reads(p, n) - n);
	return max_size(t, (size_t)p->max_width) + 1;
}

/* ---- the reference ---- */
void
sps_boxcar_search_ref(const struct sps_boxcar_plan *p, const float *x,
    size_t first, size_t n, size_t nvalid, const float *scale, float *snr,
    int32_t *width)
{
	size_t end = first + n + (size_t)p->max_width, j, s;
	double *sum;
	int *widths, nw, k;

	if (end > nvalid)
		end = nvalid;
	sum = malloc((end - first + 1) * sizeof(double));
	widths = malloc((size_t)(p->max_width + 1) * sizeof(int));
	if (sum == NULL || widths == NULL) {
		for (j = 0; j < n; j++) {
			snr[j] = NAN;
			width[j] = 0;
		}
		free(sum);
		free(widths);
		return;
	}
	sum[0] = 0;
	for (j = first; j < end; j++)
		sum[j - first + 1] = sum[j - first] + x[j];
	for (s = first; s < first + n; s++) {
		float best = -INFINITY;
		int32_t bw = 0;

		nw = sps_boxcar_widths_at(p, s, widths);
		for (k = 0; k < nw && s + (size_t)widths[k] <= end; k++) {
			float v = (float)((sum[s + (size_t)widths[k] - first] -
			    sum[s - first]) * scale[widths[k]]);

			if (v > best) {
				best = v;
				bw = widths[k];
			}
		}
		snr[s - first] = best;
		width[s - first] = bw;
	}
	free(sum);
	free(widths);
}

/* ---- predicted losses (Appendix) ---- */

/* A2: the best response of width l to a pulse of width s. */
static double
rsn_best(int s, int l)
{
	return s <= l ? sqrt((double)s / l) : sqrt((double)l / s);
}

/* A9 with A6 and A8: the worst response over the pulse's position, for
 * boxcars of width l every ls samples. */
static double
rsn_worst(int s, int l, int ls)
{
	long long d;

	if (s <= l - ls)
		return sqrt((double)s / l);
	if (s < l) {
		d = s - (s - l + ls) / 2;
		return d / sqrt((double)l * s);
	}
	if (s < l + ls) {
		d = l - (l + ls - s) / 2;
		return d / sqrt((double)l * s);
	}
	return sqrt((double)l / s);
}

static double
rsn(const struct sps_boxcar_plan *p, int s, int worst)
{
	double best = 0, r;
	int i, k;

	for (i = 0; i < p->nlevels; i++) {
		const struct sps_boxcar_level *l = &p->level[i];

		for (k = 0; k < l->nwidths; k++) {
			int w = l->first + k * l->step;

			r = worst ? rsn_worst(s, w, l->sep) : rsn_best(s, w);
			if (r > best)
				best = r;
		}
	}
	return best;
}

double
sps_boxcar_rsn_max(const struct sps_boxcar_plan *p, int s)
{
	return rsn(p, s, 0);
}

double
sps_boxcar_rsn_min(const struct sps_boxcar_plan *p, int s)
{
	return rsn(p, s, 1);
}

double
sps_boxcar_mean_loss(const struct sps_boxcar_plan *p, int s0, int worst)
{
	double sum = 0;
	int s;

	for (s = 1; s <= s0; s++)
		sum += 1 - rsn(p, s, worst);
	return s0 > 0 ? sum / s0 : 0;
}

/* ---- the streaming search of one trial ---- */

struct window {
	uint64_t start;
	size_t	 n;
	float	*scale;		/* NULL: not searched */
};

struct cand {
	uint64_t start;
	int32_t	 width;
	float	 snr;
	int	 decided;
};

struct sps_boxcar_stream {
	struct sps_boxcar_plan p;
	double	 threshold;
	int	 want_plane, lag;
	size_t	 tail;
	float	*buf;		/* series from sample bstart */
	size_t	 blen, bcap;
	uint64_t bstart;
	struct window *win;	/* windows not yet searched */
	int	 nwin, wcap;
	uint64_t searched;
	struct cand *cand;	/* candidates that still matter */
	size_t	 ncand, ccap;
	struct sps_boxcar_event *ev;	/* decided, not yet taken */
	size_t	 nev, evcap;
	float	*snr;		/* one window's search, in the thread's */
	int32_t	*width;		/* scratch for the time of search_first */
	float	*psnr;		/* plane of the windows searched, not taken */
	int32_t	*pwidth;
	size_t	 pn, pcap, pwcapn;
	uint64_t pfirst;
	size_t	*pwlen;
	int	 pnwin, pwcap, taken;
};

enum sps_err
sps_boxcar_stream_create(struct sps_boxcar_stream **st,
    const struct sps_boxcar_plan *p, double threshold, int want_plane,
    int lag)
{
	struct sps_boxcar_stream *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->p = *p;
	s->threshold = threshold;
	s->want_plane = want_plane;
	s->lag = lag < 1 ? 1 : lag;
	s->tail = sps_boxcar_tail(p);
	*st = s;
	return SPS_OK;
}

void
sps_boxcar_stream_free(struct sps_boxcar_stream *st)
{
	int i;

	if (st == NULL)
		return;
	for (i = 0; i < st->nwin; i++)
		free(st->win[i].scale);
	free(st->win);
	free(st->buf);
	free(st->cand);
	free(st->ev);
	free(st->psnr);
	free(st->pwidth);
	free(st->pwlen);
	free(st);
}

int
sps_boxcar_stream_lag(const struct sps_boxcar_plan *p, size_t window)
{
	return window == 0 ? 1 : (int)ceil_div(sps_boxcar_tail(p), window);
}

size_t
sps_boxcar_work_bytes(const struct sps_boxcar_plan *p, size_t n)
{
	return sizeof(struct sps_boxcar_work) + 6 * (work_cap(p, n) + V) *
	    sizeof(float) + ((size_t)p->max_width + 1) * (sizeof(float) +
	    sizeof(int32_t)) + room(n + 1) * (sizeof(float) + sizeof(int32_t)) +
	    room(n + sps_boxcar_tail(p) + 1) * sizeof(float);
}

/* The series is trimmed once what has been searched is half of it, so
 * it holds up to 2 lag windows, and the zeros past the end of the data
 * (search_first); each window waiting to be searched keeps its scale. */
size_t
sps_boxcar_stream_bytes(const struct sps_boxcar_plan *p, size_t window,
    int lag, size_t total)
{
	size_t held = (size_t)(lag < 1 ? 1 : lag), series = 2 * held * window;
	size_t windows = held + 1;

	if (window == 0)
		return sizeof(struct sps_boxcar_stream);
	if (total > 0 && total < series)
		series = total;
	if (total > 0 && (total + window - 1) / window < windows)
		windows = (total + window - 1) / window;
	return sizeof(struct sps_boxcar_stream) + room(series +
	    sps_boxcar_tail(p) + 1) * sizeof(float) + windows *
	    ((size_t)p->max_width + 1) * sizeof(float) + room(held + 2) *
	    sizeof(struct window);
}

/* Grow *ptr (of *cap elements of size) to hold need (room()). */
static enum sps_err
grow(void *ptr, size_t *cap, size_t need, size_t size)
{
	void **pp = ptr, *q;
	size_t c;

	if (need <= *cap)
		return SPS_OK;
	c = room(need);
	if ((q = realloc(*pp, c * size)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	*pp = q;
	*cap = c;
	return SPS_OK;
}

static enum sps_err
grow_int(void *ptr, int *cap, int need, size_t size)
{
	size_t c = (size_t)*cap;
	enum sps_err e = grow(ptr, &c, (size_t)need, size);

	*cap = (int)c;
	return e;
}

static int
better(const struct cand *a, const struct cand *b)
{
	return a->snr > b->snr || (a->snr == b->snr && a->start < b->start);
}

/* Is candidate i the best of the boxcars it overlaps? */
static int
is_peak(const struct sps_boxcar_stream *st, size_t i)
{
	const struct cand *c = &st->cand[i];
	size_t j;

	for (j = i + 1; j < st->ncand && st->cand[j].start < c->start +
	    (uint64_t)c->width; j++)
		if (better(&st->cand[j], c))
			return 0;
	for (j = i; j-- > 0;) {
		const struct cand *o = &st->cand[j];

		if (o->start + (uint64_t)st->p.max_width <= c->start)
			break;
		if (o->start + (uint64_t)o->width > c->start && better(o, c))
			return 0;
	}
	return 1;
}

/* Decide candidates in order while their boxcars end by sample upto
 * (all of them at the end), then forget those that can no longer overlap
 * an undecided one. */
static enum sps_err
decide(struct sps_boxcar_stream *st, uint64_t upto, int end)
{
	uint64_t horizon = upto;
	size_t i, keep = 0;
	enum sps_err e;

	for (i = 0; i < st->ncand; i++) {
		struct cand *c = &st->cand[i];

		if (c->decided)
			continue;
		if (!end && c->start + (uint64_t)c->width > upto) {
			horizon = c->start;
			break;
		}
		c->decided = 1;
		if (!is_peak(st, i))
			continue;
		if ((e = grow(&st->ev, &st->evcap, st->nev + 1,
		    sizeof(*st->ev))) != SPS_OK)
			return e;
		st->ev[st->nev].start = c->start;
		st->ev[st->nev].width = c->width;
		st->ev[st->nev].snr = c->snr;
		st->nev++;
	}
	for (i = 0; i < st->ncand; i++) {
		struct cand *c = &st->cand[i];

		if (!c->decided || c->start + (uint64_t)c->width > horizon)
			st->cand[keep++] = *c;
	}
	st->ncand = keep;
	return SPS_OK;
}

static enum sps_err
add_plane(struct sps_boxcar_stream *st, uint64_t start, size_t n)
{
	enum sps_err e;

	if (st->taken) {
		st->pn = 0;
		st->pnwin = 0;
		st->taken = 0;
	}
	if (st->pn == 0)
		st->pfirst = start;
	if ((e = grow(&st->psnr, &st->pcap, st->pn + n, sizeof(float))) !=
	    SPS_OK || (e = grow(&st->pwidth, &st->pwcapn, st->pn + n,
	    sizeof(int32_t))) != SPS_OK)
		return e;
	if ((e = grow_int(&st->pwlen, &st->pwcap, st->pnwin + 1,
	    sizeof(size_t))) != SPS_OK)
		return e;
	memcpy(st->psnr + st->pn, st->snr, n * sizeof(float));
	memcpy(st->pwidth + st->pn, st->width, n * sizeof(int32_t));
	st->pn += n;
	st->pwlen[st->pnwin++] = n;
	return SPS_OK;
}

/* The first of snr[j..n) at or above thr, or n; blocks of V below it are
 * passed over with a vectorised test. */
static size_t
next_above(const float *snr, size_t j, size_t n, float thr)
{
	size_t v;

	while (j + V <= n) {
		int hit = 0;

		for (v = 0; v < V; v++)
			hit |= snr[j + v] >= thr;
		if (hit)
			break;
		j += V;
	}
	for (; j < n; j++)
		if (snr[j] >= thr)
			return j;
	return n;
}

static enum sps_err
collect(struct sps_boxcar_stream *st, uint64_t start, size_t n)
{
	float thr = (float)st->threshold;
	enum sps_err e;
	size_t j;

	for (j = 0; (j = next_above(st->snr, j, n, thr)) < n; j++) {
		struct cand *c;

		if ((e = grow(&st->cand, &st->ccap, st->ncand + 1,
		    sizeof(*st->cand))) != SPS_OK)
			return e;
		c = &st->cand[st->ncand++];
		c->start = start + j;
		c->width = st->width[j];
		c->snr = st->snr[j];
		c->decided = 0;
	}
	return SPS_OK;
}

/* Widths (and S/N, the reference's) of the starts before `from` whose
 * S/N is at or above the threshold, run by run. */
static void
widths_above(struct sps_boxcar_stream *st, const float *x, size_t from,
    size_t have, const float *scale)
{
	float thr = (float)st->threshold;
	size_t j = 0, k;

	while ((j = next_above(st->snr, j, from, thr)) < from) {
		for (k = j + 1; k < from && st->snr[k] >= thr; k++)
			;
		sps_boxcar_search_ref(&st->p, x, j, k - j, have, scale,
		    st->snr + j, st->width + j);
		j = k;
	}
}

/* Search the window of n samples from sample `start` at x, the series
 * going on to x[have - 1] and zero beyond (x has room for n + tail);
 * starts whose boxcars might cross the end are redone with the
 * reference, which drops such boxcars. */
static enum sps_err
search_window(struct sps_boxcar_stream *st, struct sps_boxcar_work *w,
    float *x, size_t n, size_t have, uint64_t start, const float *scale)
{
	enum sps_err e;
	size_t j, from;

	if ((e = grow(&w->wsnr, &w->wscap, n + 1, sizeof(float))) != SPS_OK ||
	    (e = grow(&w->wwidth, &w->wwcap, n + 1, sizeof(int32_t))) !=
	    SPS_OK)
		return e;
	st->snr = w->wsnr;
	st->width = w->wwidth;
	if (scale == NULL) {
		for (j = 0; j < n; j++) {
			st->snr[j] = 0;
			st->width[j] = 0;
		}
	} else {
		if (have < n + st->tail)
			memset(x + have, 0, (n + st->tail - have) *
			    sizeof(float));
		if ((e = sps_boxcar_search(&st->p, w, x, n, scale, st->snr,
		    st->want_plane ? st->width : NULL)) != SPS_OK)
			return e;
		from = n;
		if (have < n + (size_t)st->p.max_width) {
			from = have > (size_t)st->p.max_width ? have -
			    (size_t)st->p.max_width : 0;
			sps_boxcar_search_ref(&st->p, x, from, n - from, have,
			    scale, st->snr + from, st->width + from);
		}
		if (!st->want_plane)
			widths_above(st, x, from, have, scale);
		if ((e = collect(st, start, n)) != SPS_OK)
			return e;
	}
	if (st->want_plane && (e = add_plane(st, start, n)) != SPS_OK)
		return e;
	st->searched = start + n;
	return SPS_OK;
}

/* Search the first pending window. */
static enum sps_err
search_first(struct sps_boxcar_stream *st, struct sps_boxcar_work *w)
{
	struct window *win = &st->win[0];
	size_t off = (size_t)(win->start - st->bstart), n = win->n;
	enum sps_err e;

	if (win->scale != NULL && st->blen - off < n + st->tail &&
	    (e = grow(&st->buf, &st->bcap, off + n + st->tail,
	    sizeof(float))) != SPS_OK)
		return e;
	if ((e = search_window(st, w, st->buf + off, n, st->blen - off,
	    win->start, win->scale)) != SPS_OK)
		return e;
	free(win->scale);
	memmove(st->win, st->win + 1, (size_t)(st->nwin - 1) *
	    sizeof(*st->win));
	st->nwin--;
	return SPS_OK;
}

/* Drop the series before the first pending window. */
static void
trim(struct sps_boxcar_stream *st)
{
	size_t drop;

	drop = (size_t)((st->nwin > 0 ? st->win[0].start : st->bstart +
	    st->blen) - st->bstart);
	if (drop == 0 || drop < st->blen / 2)
		return;
	memmove(st->buf, st->buf + drop, (st->blen - drop) * sizeof(float));
	st->blen -= drop;
	st->bstart += drop;
}

enum sps_err
sps_boxcar_stream_push(struct sps_boxcar_stream *st,
    struct sps_boxcar_work *w, const float *x, size_t n, const float *scale)
{
	struct window *win;
	enum sps_err e;

	if ((e = grow(&st->buf, &st->bcap, st->blen + n + 1,
	    sizeof(float))) != SPS_OK ||
	    (e = grow_int(&st->win, &st->wcap, st->nwin + 1,
	    sizeof(*st->win))) != SPS_OK)
		return e;
	win = &st->win[st->nwin];
	win->start = st->bstart + st->blen;
	win->n = n;
	win->scale = NULL;
	if (scale != NULL) {
		size_t len = (size_t)(st->p.max_width + 1) * sizeof(float);

		if ((win->scale = malloc(len)) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		memcpy(win->scale, scale, len);
	}
	st->nwin++;
	memcpy(st->buf + st->blen, x, n * sizeof(float));
	st->blen += n;
	while (st->nwin > st->lag && st->bstart + st->blen - st->win[0].start -
	    st->win[0].n >= st->tail) {
		if ((e = search_first(st, w)) != SPS_OK)
			return e;
	}
	trim(st);
	return decide(st, st->searched, 0);
}

enum sps_err
sps_boxcar_stream_search(struct sps_boxcar_stream *st,
    struct sps_boxcar_work *w, const float *x, size_t n, const float *ahead,
    size_t nahead, const float *scale)
{
	uint64_t start = st->searched;
	enum sps_err e;

	if (nahead > st->tail)
		nahead = st->tail;
	if (scale != NULL) {
		if ((e = grow(&w->series, &w->secap, n + st->tail + 1,
		    sizeof(float))) != SPS_OK)
			return e;
		memcpy(w->series, x, n * sizeof(float));
		memcpy(w->series + n, ahead, nahead * sizeof(float));
	}
	if ((e = search_window(st, w, w->series, n, n + nahead, start,
	    scale)) != SPS_OK)
		return e;
	/* as far as a window pushed would have been searched by now (the
	 * window before), so that events come out when they did */
	return decide(st, start, 0);
}

enum sps_err
sps_boxcar_stream_found(struct sps_boxcar_stream *st,
    const struct sps_boxcar_event *found, size_t n, uint64_t searched)
{
	enum sps_err e;
	size_t i;

	if ((e = grow(&st->cand, &st->ccap, st->ncand + n,
	    sizeof(*st->cand))) != SPS_OK)
		return e;
	for (i = 0; i < n; i++) {
		struct cand *c = &st->cand[st->ncand++];

		c->start = found[i].start;
		c->width = found[i].width;
		c->snr = found[i].snr;
		c->decided = 0;
	}
	st->searched = searched;
	return decide(st, st->searched, 0);
}

enum sps_err
sps_boxcar_stream_finish(struct sps_boxcar_stream *st,
    struct sps_boxcar_work *w)
{
	enum sps_err e;

	while (st->nwin > 0)
		if ((e = search_first(st, w)) != SPS_OK)
			return e;
	return decide(st, st->searched, 1);
}

const struct sps_boxcar_event *
sps_boxcar_stream_events(struct sps_boxcar_stream *st, size_t *n)
{
	*n = st->nev;
	st->nev = 0;
	return st->ev;
}

void
sps_boxcar_stream_plane(struct sps_boxcar_stream *st, const float **snr,
    const int32_t **width, size_t *n, uint64_t *first, const size_t **wlen,
    int *nwin)
{
	*snr = st->psnr;
	*width = st->pwidth;
	*n = st->taken ? 0 : st->pn;
	*first = st->pfirst;
	*wlen = st->pwlen;
	*nwin = st->taken ? 0 : st->pnwin;
	st->taken = 1;
}

uint64_t
sps_boxcar_stream_searched(const struct sps_boxcar_stream *st)
{
	return st->searched;
}
