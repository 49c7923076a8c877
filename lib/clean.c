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
	int		 have_bp;
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
	c->bad = calloc(maxblock, 1);
	c->z = malloc(maxblock * sizeof(float));
	c->work = malloc(3 * nw * sizeof(float));
	c->k = malloc(nc * sizeof(double));
	if (c->fixed == NULL || c->masked == NULL || c->flag == NULL ||
	    c->quiet == NULL || c->s1 == NULL || c->s2 == NULL ||
	    c->bp == NULL || c->bad == NULL || c->z == NULL ||
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
	free(c->s1), free(c->s2), free(c->bp), free(c->bad), free(c->z);
	free(c->work), free(c->k);
	free(c);
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

/* IQRM of the kept channels' standard deviations; flags into c->flag. */
static enum sps_err
iqrm_flags(struct sps_clean *c, size_t n, int *nflagged)
{
	float *sd = c->work;
	unsigned char *f = (unsigned char *)(c->work + c->nchans);
	enum sps_err e;
	int i, kept = 0;

	for (i = 0; i < c->nchans; i++) {
		double mean = c->s1[i] / (double)n;
		double var = c->s2[i] / (double)n - mean * mean;

		if (!c->fixed[i])
			sd[kept++] = (float)sqrt(var > 0 ? var : 0);
	}
	if ((e = sps_iqrm(sd, kept, c->o.iqrm_radius, c->o.iqrm_sigma, f)) !=
	    SPS_OK)
		return e;
	for (i = 0, kept = 0; i < c->nchans; i++) {
		if (c->fixed[i])
			continue;
		if (f[kept++] && !c->flag[i]) {
			c->flag[i] = 1;
			(*nflagged)++;
		}
	}
	return SPS_OK;
}

/* The channels flagged in this block, and the hold: a channel stays
 * masked until it has been clear for o.hold blocks. */
static enum sps_err
channel_flags(struct sps_clean *c, size_t n, struct sps_clean_block *b)
{
	unsigned char *skk = c->masked;	/* scratch: SK's flags */
	enum sps_err e;
	int i;

	memset(c->flag, 0, (size_t)c->nchans);
	if (c->o.sk_sigma > 0) {
		b->nsk = sps_sk_flag(c->s1, c->s2, c->nchans, (double)n,
		    c->o.sk_nd, c->o.sk_sigma, c->fixed, skk, c->work);
		memcpy(c->flag, skk, (size_t)c->nchans);
	}
	if (c->o.iqrm_sigma > 0 &&
	    (e = iqrm_flags(c, n, &b->niqrm)) != SPS_OK)
		return e;
	for (i = 0; i < c->nchans; i++) {
		if (c->flag[i])
			c->quiet[i] = 0;
		else if (c->quiet[i] < INT_MAX)
			c->quiet[i]++;
	}
	return SPS_OK;
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

/* The zero-DM sum of the kept channels; the spectra clipped. */
static size_t
clip(struct sps_clean *c, const float *x, size_t n)
{
	size_t t;
	int i;

	memset(c->bad, 0, n);
	for (t = 0; t < n; t++) {
		const float *s = x + t * (size_t)c->nchans;
		double sum = 0;

		for (i = 0; i < c->nchans; i++)
			if (!c->masked[i])
				sum += s[i];
		c->z[t] = (float)sum;
	}
	return sps_clip_find(c->z, n, c->o.clip_width, c->o.clip_sigma,
	    c->bad, c->work);
}

/* Each channel's mean over the spectra not clipped. */
static void
bandpass(struct sps_clean *c, const float *x, size_t n, size_t nbad)
{
	size_t t;
	int i;

	if (nbad == n) {
		if (!c->have_bp)
			for (i = 0; i < c->nchans; i++)
				c->bp[i] = 0;
		return;
	}
	for (t = 0; t < n && nbad > 0; t++) {
		const float *s = x + t * (size_t)c->nchans;

		if (c->bad[t])
			for (i = 0; i < c->nchans; i++)
				c->s1[i] -= s[i];
	}
	for (i = 0; i < c->nchans; i++)
		c->bp[i] = (float)(c->s1[i] / (double)(n - nbad));
	c->have_bp = 1;
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
sps_clean_execute(struct sps_clean *c, float *x, size_t n,
    struct sps_clean_block *b)
{
	int full = n >= SPS_CLEAN_MIN_BLOCK;
	enum sps_err e;

	memset(b, 0, sizeof(*b));
	b->nspectra = n;
	if (n == 0 || n > c->maxblock)
		return n == 0 ? SPS_OK : sps_fail(SPS_EUSAGE, "a block of %zu "
		    "spectra, more than the plan's %zu", n, c->maxblock);
	channel_sums(c, x, n);
	if (full && (e = channel_flags(c, n, b)) != SPS_OK)
		return e;
	make_mask(c, b);
	memset(c->bad, 0, n);
	if (full && c->o.clip_sigma > 0)
		b->clipped = clip(c, x, n);
	bandpass(c, x, n, b->clipped);
	replace(c, x, n);
	b->replaced = (uint64_t)b->clipped * (uint64_t)c->nchans +
	    (uint64_t)b->nmasked * (uint64_t)(n - b->clipped);
	if (c->o.zerodm == SPS_ZERODM_MEAN)
		sps_zerodm(x, n, c->nchans, c->masked, c->bp, c->work);
	else if (c->o.zerodm == SPS_ZERODM_ZDOT)
		sps_zdot(x, n, c->nchans, c->masked, c->z, c->k);
	b->masked = c->masked;
	return SPS_OK;
}
