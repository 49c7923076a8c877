/* streampack.cu: a gulp's blocks packed on the GPU into an 8- or 16-bit
 * DM-time stream (dmtime.h), so that a quarter or a half of the floats'
 * bytes cross to the host and the host does not pack them.  The CPU
 * reference is lib/dmtime.c (pack_trial and codec.c's quantise): the
 * same arithmetic, in double, each step rounded, to the same bytes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "gpu_plan.h"
#include "gpu_util.h"

#define PACK_NT		256
#define PACK_CHUNK	4096	/* samples of a trial a block packs */

/* One trial's packing: (v - offset) / scale, then rounded and clipped
 * to the unsigned range (dmtime.c's pack_trial). */
struct pack_trial {
	double	scale, offset;
	int	f;
};

/* v as codec.c's quantise packs it; *clip counts what it clips (NaN
 * too) as codec.c's clips does. */
__device__ static unsigned
quantise(double v, double scale, double offset, float hi, unsigned *clip)
{
	float t = (float)__ddiv_rn(__dsub_rn(v, offset), scale);
	float q = rintf(t);

	*clip += !(t >= -0.5f) | (t >= hi + 0.5f);
	q = q < 0.0f ? 0.0f : q;
	q = q > hi ? hi : q;
	return t != t ? 0u : (unsigned)q;
}

/* Sub-block blockIdx.z of the gulp, trial blockIdx.y, samples from
 * blockIdx.x * PACK_CHUNK: floats at lay's offsets, bytes at the
 * stream's (its 8 opening bytes first; trial offsets in values). */
__global__ static void
pack_kernel(const float *out, struct out_layout lay, size_t nout,
    const struct pack_trial *tr, int nbits, unsigned char *packed,
    size_t block_bytes, unsigned long long *clipped)
{
	int d = blockIdx.y, full = blockIdx.z < lay.nfull;
	size_t q = blockIdx.z, n = full ? lay.block : nout - q * lay.block;
	size_t per = n / (size_t)tr[d].f, nb = (size_t)nbits / 8, i;
	size_t first = blockIdx.x * (size_t)PACK_CHUNK;
	const float *src = out + q * lay.block_floats + (full ? lay.full[d] :
	    lay.last[d]);
	unsigned char *base = packed + q * (8 + block_bytes);
	unsigned char *dst = base + 8 + (full ? lay.full[d] : lay.last[d]) *
	    nb;
	float hi = nbits == 8 ? 255.0f : 65535.0f;
	unsigned clip = 0;

	if (d == 0 && blockIdx.x == 0 && threadIdx.x < 8) {
		int32_t n32 = (int32_t)n;

		base[threadIdx.x] = threadIdx.x < 4 ? "SPSB"[threadIdx.x] :
		    (unsigned char)(n32 >> (8 * (threadIdx.x - 4)));
	}
	for (i = first + threadIdx.x; i < per && i < first + PACK_CHUNK;
	    i += PACK_NT) {
		unsigned v = quantise(src[i], tr[d].scale, tr[d].offset, hi,
		    &clip);

		if (nbits == 8)
			dst[i] = (unsigned char)v;
		else {
			dst[2 * i] = (unsigned char)(v & 0xff);
			dst[2 * i + 1] = (unsigned char)(v >> 8);
		}
	}
	for (int o = 16; o > 0; o >>= 1)
		clip += __shfl_down_sync(0xffffffffu, clip, o);
	if ((threadIdx.x & 31) == 0 && clip > 0)
		atomicAdd(clipped, (unsigned long long)clip);
}

/* Bytes of the packed gulp of slot s at nbits: its sub-blocks, each with
 * its 8 opening bytes. */
static size_t
packed_size(const struct gpu_slot *s, int nbits, size_t *block_bytes)
{
	size_t nb = (size_t)nbits / 8, nsub = s->layout.nfull +
	    (s->nout % s->layout.block != 0);

	*block_bytes = s->layout.block_floats * nb;
	return s->out_floats * nb + 8 * nsub;
}

static enum sps_err
upload_trials(struct sps_gpu_dedisp *p, const struct pack_trial *t)
{
	CHECK(cudaSetDevice(p->dev));
	CHECK(cudaMemcpy(p->d_pack, t, (size_t)p->ndms * sizeof(*t),
	    cudaMemcpyHostToDevice));
	return SPS_OK;
}

enum sps_err
gpu_pack_load(void)
{
	const void *k = (const void *)pack_kernel;

	return gpu_load_kernels(&k, 1);
}

extern "C" enum sps_err
sps_gpu_dedisp_pack(struct sps_gpu_dedisp *p, int nbits, double scale,
    double offset)
{
	double mid = nbits == 8 ? 128 : 32768;
	struct pack_trial *t;
	enum sps_err e;
	int d;

	if (nbits != 8 && nbits != 16)
		return sps_fail(SPS_EUSAGE, "GPU packing to %d bits", nbits);
	if (p->d_pack == NULL && (e = gpu_alloc(p, (void **)&p->d_pack,
	    (size_t)p->ndms * sizeof(*t), "the packing")) != SPS_OK)
		return e;
	if ((t = (struct pack_trial *)malloc((size_t)p->ndms * sizeof(*t))) ==
	    NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (d = 0; d < p->ndms; d++) {	/* as pack_trial's */
		t[d].scale = scale * sqrt((double)p->scrunch[d]);
		t[d].offset = offset * p->scrunch[d] - mid * t[d].scale;
		t[d].f = p->scrunch[d];
	}
	e = upload_trials(p, t);
	free(t);
	if (e == SPS_OK)
		p->pack_bits = nbits;
	return e;
}

/* Queue the packing of slot s's gulp on stream st, when asked and when
 * the packed gulp fits where the floats would go on the host;
 * s->packed_bytes 0 leaves it floats. */
enum sps_err
gpu_pack_gulp(struct sps_gpu_dedisp *p, struct gpu_slot *s, cudaStream_t st)
{
	size_t block_bytes, bytes;
	enum sps_err e;
	dim3 grid;

	s->packed_bytes = 0;
	if (p->pack_bits == 0 || s->out == NULL)
		return SPS_OK;
	bytes = packed_size(s, p->pack_bits, &block_bytes);
	if (bytes > s->out_floats * sizeof(float))
		return SPS_OK;
	if (bytes > s->packed_cap) {
		cudaFree(s->d_packed);
		p->bytes -= s->packed_cap;
		s->packed_cap = 0;
		if ((e = gpu_alloc(p, (void **)&s->d_packed, bytes, "the "
		    "packed output")) != SPS_OK)
			return e;
		s->packed_cap = bytes;
	}
	if (s->d_clipped == NULL && (e = gpu_alloc(p, (void **)&s->d_clipped,
	    sizeof(*s->d_clipped), "the clipped count")) != SPS_OK)
		return e;
	CHECK(cudaMemsetAsync(s->d_clipped, 0, sizeof(*s->d_clipped), st));
	grid = dim3((unsigned)((s->layout.block + PACK_CHUNK - 1) /
	    PACK_CHUNK), (unsigned)p->ndms, (unsigned)(s->layout.nfull +
	    (s->nout % s->layout.block != 0)));
	pack_kernel<<<grid, PACK_NT, 0, st>>>(s->d_out, s->layout,
	    s->nout, p->d_pack, p->pack_bits, s->d_packed, block_bytes,
	    s->d_clipped);
	CHECK_LAUNCH("pack_kernel");
	s->packed_bytes = bytes;
	return SPS_OK;
}
