/* clean.c: the block engine (clean.h): statistics, masks, clipping,
 * replacement, zero-DM, in that order. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clean.h"
#include "clip.h"
#include "iqrm.h"
#include "sk.h"
#include "zerodm.h"

struct sps_clean {
	struct sps_clean_options o;
	int		 nchans;
	size_t		 maxblock;
	unsigned char	*fixed;		/* the static mask */
	unsigned char	*masked;	/* this block's mask, every kind */
	unsigned char	*flag;		/* SK or IQRM flags of a block */
	int		*quiet;		/* blocks since a channel's last flag */
	double		*s1, *s2;	/* per channel sums over the block */
	float		*bp;		/* the local bandpass */
	float		*good;		/* each channel's last bandpass
					 * before it was masked */
	unsigned char	*has_good;
	unsigned char	*bad;		/* clipped spectra */
	float		*z;		/* zero-DM series */
	float		*work;		/* 3 max(maxblock, nchans) floats */
	double		*k;		/* zdot's per channel factors */
};

void
sps_clean_defaults(struct sps_clean_options *o)
{
	memset(o, 0, sizeof(*o));
	o->zerodm = SPS_ZERODM_NONE;
	o->clip_sigma = 6;
	o->clip_width = 32;
	o->sk_nd = 1;
	o->iqrm_sigma = 5;
	o->hold = 2;
}

int
sps_clean_iqrm_radius(const struct sps_header *h)
{
	return h->nchans / 10 > 1 ? h->nchans / 10 : 1;
}

enum sps_err
sps_clean_create(struct sps_clean **cp, const struct sps_header *h,
    size_t maxblock, const struct sps_clean_options *o)
{
	size_t nc = (size_t)h->nchans, nw = maxblock > nc ? maxblock : nc;
	struct sps_clean *c;
	int i;

	if (h->nifs != 1)
		return sps_fail(SPS_EVALUE, "%d IFs: cleaning takes one "
		    "(total intensity)", h->nifs);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	c->o = *o;
	c->nchans = h->nchans;
	c->maxblock = maxblock;
	c->fixed = calloc(nc, 1);
	c->masked = calloc(nc, 1);
	c->flag = calloc(nc, 1);
	c->quiet = malloc(nc * sizeof(int));
	c->s1 = malloc(nc * sizeof(double));
	c->s2 = malloc(nc * sizeof(double));
	c->bp = calloc(nc, sizeof(float));
	c->good = calloc(nc, sizeof(float));
	c->has_good = calloc(nc, 1);
	c->bad = calloc(maxblock, 1);
	c->z = malloc(maxblock * sizeof(float));
	c->work = malloc(3 * nw * sizeof(float));
	c->k = malloc(nc * sizeof(double));
	if (c->fixed == NULL || c->masked == NULL || c->flag == NULL ||
	    c->quiet == NULL || c->s1 == NULL || c->s2 == NULL ||
	    c->bp == NULL || c->good == NULL || c->has_good == NULL ||
	    c->bad == NULL || c->z == NULL ||
	    c->work == NULL || c->k == NULL) {
		sps_clean_free(c);
		return sps_fail(SPS_ENOMEM, "out of memory for %zu spectra of "
		    "%d channels", maxblock, h->nchans);
	}
	for (i = 0; i < h->nchans; i++)
		c->quiet[i] = INT_MAX;	/* never flagged */
	if (c->o.iqrm_radius <= 0)
		c->o.iqrm_radius = sps_clean_iqrm_radius(h);
	*cp = c;
	return SPS_OK;
}

void
sps_clean_free(struct sps_clean *c)
{
	if (c == NULL)
		return;
	free(c->fixed), free(c->masked), free(c->flag), free(c->quiet);
	free(c->s1), free(c->s2), free(c->bp), free(c->good), free(c->has_good), free(c->bad), free(c->z);
	free(c->work), free(c->k);
	free(c);
}

const struct sps_clean_options *
sps_clean_opts(const struct sps_clean *c)
{
	return &c->o;
}

void
sps_clean_set_static(struct sps_clean *c, const unsigned char *masked)
{
	int i;

	for (i = 0; i < c->nchans; i++)
		c->fixed[i] = masked != NULL && masked[i];
}

static void
channel_sums(struct sps_clean *c, const float *x, size_t n)
{
	size_t t;
	int i;

	for (i = 0; i < c->nchans; i++)
		c->s1[i] = c->s2[i] = 0;
	for (t = 0; t < n; t++) {
		const float *s = x + t * (size_t)c->nchans;

		for (i = 0; i < c->nchans; i++) {
			c->s1[i] += s[i];
			c->s2[i] += (double)s[i] * s[i];
		}
	}
}

/* IQRM of the kept channels' standard deviations: more flags in flag. */
static enum sps_err
iqrm_flags(const struct sps_clean *c, const double *s1, const double *s2,
    size_t n, const unsigned char *fixed, unsigned char *flag, float *work,
    int *nflagged)
{
	float *sd = work;
	unsigned char *f = (unsigned char *)(work + c->nchans);
	enum sps_err e;
	int i, kept = 0;

	for (i = 0; i < c->nchans; i++) {
		double mean = s1[i] / (double)n;
		double var = s2[i] / (double)n - mean * mean;

		if (!fixed[i])
			sd[kept++] = (float)sqrt(var > 0 ? var : 0);
	}
	if ((e = sps_iqrm(sd, kept, c->o.iqrm_radius, c->o.iqrm_sigma, f)) !=
	    SPS_OK)
		return e;
	for (i = 0, kept = 0; i < c->nchans; i++) {
		if (fixed[i])
			continue;
		if (f[kept++] && !flag[i]) {
			flag[i] = 1;
			(*nflagged)++;
		}
	}
	return SPS_OK;
}

enum sps_err
sps_clean_flags(const struct sps_clean *c, const double *s1,
    const double *s2, size_t n, const unsigned char *fixed,
    unsigned char *flag, float *work, struct sps_clean_block *b)
{
	memset(flag, 0, (size_t)c->nchans);
	if (n < SPS_CLEAN_MIN_BLOCK)
		return SPS_OK;
	if (c->o.sk_sigma > 0)
		b->nsk = sps_sk_flag(s1, s2, c->nchans, (double)n, c->o.sk_nd,
		    c->o.sk_sigma, fixed, flag, work);
	if (c->o.iqrm_sigma > 0)
		return iqrm_flags(c, s1, s2, n, fixed, flag, work, &b->niqrm);
	return SPS_OK;
}

/* The hold: a channel stays masked until it has been clear for o.hold
 * blocks. */
static void
hold(struct sps_clean *c, const unsigned char *flag)
{
	int i;

	for (i = 0; i < c->nchans; i++) {
		if (flag[i])
			c->quiet[i] = 0;
		else if (c->quiet[i] < INT_MAX)
			c->quiet[i]++;
	}
}

static void
make_mask(struct sps_clean *c, struct sps_clean_block *b)
{
	int i;

	b->nmasked = b->nstatic = 0;
	for (i = 0; i < c->nchans; i++) {
		c->masked[i] = c->fixed[i] || c->quiet[i] <= c->o.hold;
		b->nstatic += c->fixed[i];
		b->nmasked += c->masked[i];
	}
}

/* The zero-DM sum of the kept channels, spectrum by spectrum, into z. */
static void
zero_dm_sums(const struct sps_clean *c, const float *x, size_t n, float *z)
{
	size_t t;
	int i;

	for (t = 0; t < n; t++) {
		const float *s = x + t * (size_t)c->nchans;
		double sum = 0;

		for (i = 0; i < c->nchans; i++)
			if (!c->masked[i])
				sum += s[i];
		z[t] = (float)sum;
	}
}

/* Each channel's sum over the spectra flagged in bad, into sum. */
static void
bad_sums(const struct sps_clean *c, const float *x, size_t n, double *sum)
{
	size_t t;
	int i;

	for (i = 0; i < c->nchans; i++)
		sum[i] = 0;
	for (t = 0; t < n; t++) {
		const float *s = x + t * (size_t)c->nchans;

		if (c->bad[t])
			for (i = 0; i < c->nchans; i++)
				sum[i] += s[i];
	}
}

static void
replace(struct sps_clean *c, float *x, size_t n)
{
	size_t t;
	int i;

	for (t = 0; t < n; t++) {
		float *s = x + t * (size_t)c->nchans;

		for (i = 0; i < c->nchans; i++)
			if (c->bad[t] || c->masked[i])
				s[i] = c->bp[i];
	}
}

enum sps_err
sps_clean_mask_flagged(struct sps_clean *c, const unsigned char *flag,
    size_t n, struct sps_clean_block *b)
{
	b->nspectra = n;
	if (n > c->maxblock)
		return sps_fail(SPS_EUSAGE, "a block of %zu spectra, more "
		    "than the plan's %zu", n, c->maxblock);
	if (n >= SPS_CLEAN_MIN_BLOCK)
		hold(c, flag);
	make_mask(c, b);
	memset(c->bad, 0, n);
	b->masked = c->masked;
	return SPS_OK;
}

enum sps_err
sps_clean_mask(struct sps_clean *c, const double *s1, const double *s2,
    size_t n, struct sps_clean_block *b)
{
	enum sps_err e;

	memset(b, 0, sizeof(*b));
	if (n <= c->maxblock && (e = sps_clean_flags(c, s1, s2, n, c->fixed,
	    c->flag, c->work, b)) != SPS_OK)
		return e;
	return sps_clean_mask_flagged(c, c->flag, n, b);
}

int
sps_clean_clips(const struct sps_clean *c, size_t n)
{
	return n >= SPS_CLEAN_MIN_BLOCK && c->o.clip_sigma > 0;
}

const unsigned char *
sps_clean_clip(struct sps_clean *c, const float *z, size_t n,
    struct sps_clean_block *b)
{
	memset(c->bad, 0, n);
	if (sps_clean_clips(c, n))
		b->clipped = sps_clip_find(z, n, c->o.clip_width,
		    c->o.clip_sigma, c->bad, c->work);
	return c->bad;
}

/* The nearest kept channel's bandpass below and above channel i, their
 * mean when both exist; bp[i] itself when no channel is kept. */
static float
neighbours(const struct sps_clean *c, const unsigned char *masked, int i)
{
	int lo = i - 1, hi = i + 1;

	while (lo >= 0 && masked[lo])
		lo--;
	while (hi < c->nchans && masked[hi])
		hi++;
	if (lo >= 0 && hi < c->nchans)
		return (float)(((double)c->bp[lo] + c->bp[hi]) / 2);
	return lo >= 0 ? c->bp[lo] : hi < c->nchans ? c->bp[hi] : c->bp[i];
}

/* A masked channel's own mean holds what masked it (a carrier switching
 * on and off moves it from block to block, a step that every DM trial
 * would sum), so it keeps the mean it had when last clean, or, never
 * clean, takes its kept neighbours'. */
static void
masked_bandpass(struct sps_clean *c, const unsigned char *masked)
{
	int i;

	for (i = 0; i < c->nchans; i++)
		if (!masked[i]) {
			c->good[i] = c->bp[i];
			c->has_good[i] = 1;
		}
	for (i = 0; i < c->nchans; i++)
		if (masked[i])
			c->bp[i] = c->has_good[i] ? c->good[i] :
			    neighbours(c, masked, i);
}

/* Each kept channel's mean over the spectra not clipped, masked_bandpass
 * for the others; when every spectrum is clipped, the last block's (0
 * before any). */
const float *
sps_clean_bandpass(struct sps_clean *c, const double *s1,
    const double *badsum, size_t n, struct sps_clean_block *b)
{
	size_t nbad = b->clipped;
	int i;

	b->replaced = (uint64_t)nbad * (uint64_t)c->nchans +
	    (uint64_t)b->nmasked * (uint64_t)(n - nbad);
	if (nbad == n)
		return c->bp;
	for (i = 0; i < c->nchans; i++)
		c->bp[i] = (float)((nbad > 0 ? s1[i] - badsum[i] : s1[i]) /
		    (double)(n - nbad));
	masked_bandpass(c, b->masked);
	return c->bp;
}

int
sps_clean_zero_dm_shares(const struct sps_clean *c,
    const struct sps_clean_block *b, float *share)
{
	if (c->o.zerodm != SPS_ZERODM_MEAN)
		return 0;
	sps_zerodm_shares(c->nchans, b->masked, c->bp, share);
	return 1;
}

enum sps_err
sps_clean_execute(struct sps_clean *c, float *x, size_t n,
    struct sps_clean_block *b)
{
	enum sps_err e;

	if (n == 0) {
		memset(b, 0, sizeof(*b));
		return SPS_OK;
	}
	if (n <= c->maxblock)
		channel_sums(c, x, n);
	if ((e = sps_clean_mask(c, c->s1, c->s2, n, b)) != SPS_OK)
		return e;
	if (sps_clean_clips(c, n)) {
		zero_dm_sums(c, x, n, c->z);
		sps_clean_clip(c, c->z, n, b);
	}
	if (b->clipped > 0)
		bad_sums(c, x, n, c->k);
	sps_clean_bandpass(c, c->s1, c->k, n, b);
	replace(c, x, n);
	if (c->o.zerodm == SPS_ZERODM_MEAN)
		sps_zerodm(x, n, c->nchans, c->masked, c->bp, c->work);
	else if (c->o.zerodm == SPS_ZERODM_ZDOT)
		sps_zdot(x, n, c->nchans, c->masked, c->z, c->k);
	return SPS_OK;
}
