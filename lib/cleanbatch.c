/* cleanbatch.c: a run's decisions, the independent ones in parallel
 * (cleanbatch.h). */
#include <stdlib.h>
#include <string.h>

#include "cleanbatch.h"
#include "clip.h"

/* Each block's static mask (into mask) and flags, on every core. */
static enum sps_err
all_flags(const struct sps_cleanstream *cs, struct sps_clean_batch *b)
{
	const struct sps_clean *eng = sps_cleanstream_engine_of(cs);
	size_t nc = sps_cleanstream_nchans(cs);
	int failed = 0;

#pragma omp parallel reduction(|:failed)
	{
		float *work = malloc(3 * nc * sizeof(float));
		unsigned char *scratch = malloc(nc);
		int k;

#pragma omp for schedule(dynamic)
		for (k = 0; k < b->nb; k++) {
			size_t row = (size_t)k * nc;

			memset(&b->blk[k], 0, sizeof(b->blk[k]));
			if (work == NULL || scratch == NULL) {
				failed = 1;
				continue;
			}
			sps_cleanstream_static(cs, b->at + (uint64_t)
			    b->first[k], b->mask + row, scratch);
			failed |= sps_clean_flags(eng, b->s1 + row, b->s2 +
			    row, (size_t)b->len[k], b->mask + row, b->flags +
			    row, work, &b->blk[k]) != SPS_OK;
		}
		free(work);
		free(scratch);
	}
	return failed ? sps_fail(SPS_ENOMEM, "out of memory") : SPS_OK;
}

enum sps_err
sps_clean_batch_masks(struct sps_cleanstream *cs, struct sps_clean_batch *b,
    int *any_clip)
{
	struct sps_clean *eng = sps_cleanstream_engine(cs);
	size_t nc = sps_cleanstream_nchans(cs), row;
	enum sps_err e;
	int k;

	if ((e = all_flags(cs, b)) != SPS_OK)
		return e;
	*any_clip = 0;
	for (k = 0; k < b->nb; k++) {
		row = (size_t)k * nc;
		sps_cleanstream_begin(cs, b->at + (uint64_t)b->first[k]);
		if ((e = sps_clean_mask_flagged(eng, b->flags + row,
		    (size_t)b->len[k], &b->blk[k])) != SPS_OK)
			return e;
		memcpy(b->mask + row, b->blk[k].masked, nc);
		b->blk[k].masked = b->mask + row;
		b->kept[k] = (int)nc - b->blk[k].nmasked;
		*any_clip |= sps_clean_clips(eng, (size_t)b->len[k]);
	}
	return SPS_OK;
}

size_t
sps_clean_batch_clips(struct sps_cleanstream *cs, struct sps_clean_batch *b)
{
	const struct sps_clean *eng = sps_cleanstream_engine_of(cs);
	const struct sps_clean_options *o = sps_clean_opts(eng);
	size_t nbad = 0, maxlen = sps_cleanstream_block_max(cs);

#pragma omp parallel reduction(+:nbad)
	{
		float *work = malloc(3 * maxlen * sizeof(float));
		int k;

#pragma omp for schedule(dynamic)
		for (k = 0; k < b->nb; k++) {
			size_t n = (size_t)b->len[k];
			unsigned char *bad = b->bad + b->first[k];

			memset(bad, 0, n);
			if (!sps_clean_clips(eng, n) || work == NULL)
				continue;
			b->blk[k].clipped = sps_clip_find(b->z + b->first[k],
			    n, o->clip_width, o->clip_sigma, bad, work);
			nbad += b->blk[k].clipped;
		}
		free(work);
	}
	return nbad;
}

enum sps_err
sps_clean_batch_bandpass(struct sps_cleanstream *cs,
    struct sps_clean_batch *b)
{
	struct sps_clean *eng = sps_cleanstream_engine(cs);
	size_t nc = sps_cleanstream_nchans(cs), row;
	const float *bp;
	enum sps_err e;
	int k;

	for (k = 0; k < b->nb; k++) {
		row = (size_t)k * nc;
		bp = sps_clean_bandpass(eng, b->s1 + row, b->badsum + row,
		    (size_t)b->len[k], &b->blk[k]);
		memcpy(b->bp + row, bp, nc * sizeof(float));
		sps_clean_zero_dm_shares(eng, &b->blk[k], b->share + row);
		if ((e = sps_cleanstream_done(cs, b->at + (uint64_t)
		    b->first[k], &b->blk[k])) != SPS_OK)
			return e;
	}
	return SPS_OK;
}
