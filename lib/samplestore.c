/* samplestore.c: a trial's samples, in 16 bits where exact
 * (samplestore.h).
 *
 * Memory comes in chunks of one size, a packed block's: a block of
 * floats takes two, each half of its samples.  A store keeps the chunks
 * it has made and gives them out again, so that it holds no more than
 * it ever held at once, and thousands of stores leave no holes in the
 * heap between them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "samplestore.h"

#define MIN_SHIFT	6	/* blocks of 64 .. 2048 samples */
#define MAX_SHIFT	11
#define MALLOC_HEAD	16	/* the allocator's bytes beside a chunk */

struct block {
	unsigned char	*chunk[2];	/* packed: chunk[0]; wide: the
					 * two halves */
	float		 base;		/* a packed block's sample 0 */
	int		 wide;		/* floats, not packed */
};

/* The first `skip` samples of the first block are dropped; the last
 * block has `last` samples. */
struct sps_samplestore {
	int		 shift;		/* 1 << shift samples a block */
	struct block	*blk;
	size_t		 nblk, blkcap;
	unsigned char	**pool;		/* chunks not in use */
	size_t		 npool, poolcap;
	size_t		 nchunks;	/* made */
	size_t		 skip, last, len;
};

/* Blocks of a 32nd of the samples held, a power of two: a block
 * partly dropped costs little, and the blocks are long. */
static int
block_shift(size_t hold)
{
	int k = MIN_SHIFT;

	while (k < MAX_SHIFT && ((size_t)2 << k) <= hold / 32)
		k++;
	return k;
}

static size_t
chunk_bytes(int shift)
{
	return ((size_t)1 << shift) * sizeof(int16_t);
}

size_t
sps_samplestore_bytes(size_t hold, size_t most, int packed)
{
	int shift = block_shift(hold);
	size_t per = (size_t)1 << shift;
	size_t blocks = (most + per - 1) / per + (most >= hold);
	/* widening a block takes its two chunks before it gives one back */
	size_t chunks = packed ? blocks : 2 * blocks + 1;

	return sizeof(struct sps_samplestore) + chunks * (chunk_bytes(shift) +
	    MALLOC_HEAD) + (chunks + chunks / 8 + 4) * sizeof(unsigned char *) +
	    (blocks + blocks / 8 + 4) * sizeof(struct block) + 3 * MALLOC_HEAD;
}

enum sps_err
sps_samplestore_create(struct sps_samplestore **sp, size_t hold)
{
	struct sps_samplestore *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->shift = block_shift(hold);
	*sp = s;
	return SPS_OK;
}

/* Chunks in use go back to the pool, so the pool frees them all. */
static void
release(struct sps_samplestore *s, unsigned char *chunk)
{
	s->pool[s->npool++] = chunk;
}

static void
release_block(struct sps_samplestore *s, const struct block *b)
{
	release(s, b->chunk[0]);
	if (b->wide)
		release(s, b->chunk[1]);
}

void
sps_samplestore_free(struct sps_samplestore *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nblk; i++)
		release_block(s, &s->blk[i]);
	for (i = 0; i < s->npool; i++)
		free(s->pool[i]);
	free(s->pool);
	free(s->blk);
	free(s);
}

size_t
sps_samplestore_len(const struct sps_samplestore *s)
{
	return s->len;
}

/* A chunk from the pool, or a new one (the pool then has room for every
 * chunk made). */
static enum sps_err
take(struct sps_samplestore *s, unsigned char **chunk)
{
	size_t cap;
	void *p;

	if (s->npool > 0) {
		*chunk = s->pool[--s->npool];
		return SPS_OK;
	}
	if (s->nchunks == s->poolcap) {
		cap = s->poolcap + s->poolcap / 8 + 4;
		if ((p = realloc(s->pool, cap * sizeof(*s->pool))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		s->pool = p;
		s->poolcap = cap;
	}
	if ((*chunk = malloc(chunk_bytes(s->shift))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->nchunks++;
	return SPS_OK;
}

/* A new packed block at the end, its base the first sample it will
 * get. */
static enum sps_err
open_block(struct sps_samplestore *s, float first)
{
	struct block *b;
	enum sps_err e;
	size_t cap;
	void *p;

	if (s->nblk == s->blkcap) {
		cap = s->blkcap + s->blkcap / 8 + 4;
		if ((p = realloc(s->blk, cap * sizeof(*s->blk))) == NULL)
			return sps_fail(SPS_ENOMEM, "out of memory");
		s->blk = p;
		s->blkcap = cap;
	}
	b = &s->blk[s->nblk];
	memset(b, 0, sizeof(*b));
	if ((e = take(s, &b->chunk[0])) != SPS_OK)
		return e;
	b->base = first;
	s->nblk++;
	s->last = 0;
	return SPS_OK;
}

/* d = x - base in 16 bits; whether base + d gives every x back, bit for
 * bit, as unpack computes it (a value out of range, not whole, not
 * finite or a negative zero does not). */
static int
pack(const float *restrict x, size_t n, float base, int16_t *restrict d)
{
	uint32_t differ = 0, a, b, u;
	size_t i;

	for (i = 0; i < n; i++) {
		float q = x[i] - base, r, back;
		float keep = (q >= -32768.0f) & (q <= 32767.0f) ? 1.0f : 0.0f;
		int16_t v;

		/* q rounded, in the low bits of 1.5 2^23 + q (a step of 1
		 * there), with no conversion that might trap, so that the
		 * loop runs in vectors; a q out of range gives a v that
		 * the test refuses */
		r = q * keep + 12582912.0f;
		memcpy(&u, &r, sizeof(u));
		v = (int16_t)(u - 0x4b400000u);
		back = base + (float)v;
		memcpy(&a, &back, sizeof(a));
		memcpy(&b, &x[i], sizeof(b));
		differ |= a ^ b;
		d[i] = v;
	}
	return differ == 0;
}

static void
unpack(const int16_t *restrict d, size_t n, float base, float *restrict x)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = base + (float)d[i];
}

/* Where sample i of wide block b lies, and how many samples from it
 * on lie in the same chunk. */
static float *
wide_at(const struct block *b, int shift, size_t i, size_t *run)
{
	size_t half = (size_t)1 << (shift - 1), j = i & (half - 1);

	*run = half - j;
	return (float *)(void *)b->chunk[i >= half] + j;
}

static void
wide_put(const struct block *b, int shift, size_t i, size_t n,
    const float *x)
{
	size_t k;
	float *at;

	for (; n > 0; n -= k, i += k, x += k) {
		at = wide_at(b, shift, i, &k);
		k = k < n ? k : n;
		memcpy(at, x, k * sizeof(float));
	}
}

static void
wide_get(const struct block *b, int shift, size_t i, size_t n, float *x)
{
	size_t k;
	float *at;

	for (; n > 0; n -= k, i += k, x += k) {
		at = wide_at(b, shift, i, &k);
		k = k < n ? k : n;
		memcpy(x, at, k * sizeof(float));
	}
}

/* The last block in floats, in two chunks. */
static enum sps_err
widen_last(struct sps_samplestore *s)
{
	struct block *b = &s->blk[s->nblk - 1], w = *b;
	float x[256];
	size_t i, k;
	enum sps_err e;

	if ((e = take(s, &w.chunk[0])) != SPS_OK)
		return e;
	if ((e = take(s, &w.chunk[1])) != SPS_OK) {
		release(s, w.chunk[0]);
		return e;
	}
	w.wide = 1;
	for (i = 0; i < s->last; i += k) {
		k = s->last - i < 256 ? s->last - i : 256;
		unpack((const int16_t *)(const void *)b->chunk[0] + i, k,
		    b->base, x);
		wide_put(&w, s->shift, i, k, x);
	}
	release(s, b->chunk[0]);
	*b = w;
	return SPS_OK;
}

/* x[0..n) into the last block, which has room for them. */
static enum sps_err
append(struct sps_samplestore *s, const float *x, size_t n)
{
	struct block *b = &s->blk[s->nblk - 1];
	enum sps_err e;

	if (!b->wide && !pack(x, n, b->base, (int16_t *)(void *)b->chunk[0] +
	    s->last) && (e = widen_last(s)) != SPS_OK)
		return e;
	if (b->wide)
		wide_put(b, s->shift, s->last, n, x);
	s->last += n;
	s->len += n;
	return SPS_OK;
}

enum sps_err
sps_samplestore_push(struct sps_samplestore *s, const float *x, size_t n)
{
	size_t per = (size_t)1 << s->shift, k;
	enum sps_err e;

	while (n > 0) {
		if ((s->nblk == 0 || s->last == per) &&
		    (e = open_block(s, x[0])) != SPS_OK)
			return e;
		k = per - s->last < n ? per - s->last : n;
		if ((e = append(s, x, k)) != SPS_OK)
			return e;
		x += k;
		n -= k;
	}
	return SPS_OK;
}

void
sps_samplestore_read(const struct sps_samplestore *s, size_t from,
    size_t n, float *out)
{
	size_t at = s->skip + from, per = (size_t)1 << s->shift, i, k;
	const struct block *b;

	for (; n > 0; n -= k, at += k, out += k) {
		b = &s->blk[at >> s->shift];
		i = at & (per - 1);
		k = per - i < n ? per - i : n;
		if (b->wide)
			wide_get(b, s->shift, i, k, out);
		else
			unpack((const int16_t *)(const void *)b->chunk[0] + i,
			    k, b->base, out);
	}
}

void
sps_samplestore_drop(struct sps_samplestore *s, size_t n)
{
	size_t gone, i;

	s->len -= n;
	s->skip += n;
	/* emptied, the block filling goes too */
	gone = s->len == 0 ? s->nblk : s->skip >> s->shift;
	for (i = 0; i < gone; i++)
		release_block(s, &s->blk[i]);
	memmove(s->blk, s->blk + gone, (s->nblk - gone) * sizeof(*s->blk));
	s->nblk -= gone;
	s->skip = s->len == 0 ? 0 : s->skip - (gone << s->shift);
}
