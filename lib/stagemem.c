/* stagemem.c: the memory of each stage of a search, predicted
 * (stagemem.h). */
#include <omp.h>
#include <string.h>

#include "dedisp_out.h"
#include "dmtime.h"
#include "searchrun.h"
#include "stagemem.h"

static const char *const names[SPS_NSTAGES] = {
	"sps-dedisperse", "sps-boxcar", "sps-peaks", "sps-search"
};

const char *
sps_stage_name(enum sps_stage s)
{
	return names[s];
}

void
sps_stagemem_defaults(struct sps_stagemem_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dedisp.engine = SPS_ENGINE_CPU;
	o->dedisp.block = SPS_DEDISP_BLOCK;
	o->search.algorithm = "BD-16";
	o->search.max_width = SPS_SEARCH_WIDTH;
	o->search.threshold = SPS_SEARCH_THRESHOLD;
	o->search.outlier = SPS_SEARCH_OUTLIER;
	sps_clean_setup_defaults(&o->clean);
}

/* The dedispersion engine of plan cpu on the CPU (gpu 0) or a GPU, its
 * blocks handed on in host memory or (on_device) left on the device. */
static void
dedisp_memory(const struct sps_dedisp_plan *cpu, const struct sps_header *h,
    uint64_t nsamples, const struct sps_stagemem_opts *o, int gpu,
    int on_device, struct sps_dedisp_memory *m)
{
	struct sps_dedisp_engine_opts eo = o->dedisp;

	eo.engine = gpu ? SPS_ENGINE_GPU : SPS_ENGINE_CPU;
	eo.on_device = on_device;
	sps_dedisp_engine_memory(cpu, h, nsamples, &eo, m);
}

/* The search engine of the DM-time stream dmt, on the CPU or a GPU;
 * the stream's samples are sums of integers, held in 16 bits, when
 * those of the data (h) have no more than 8 bits. */
static enum sps_err
search_memory(const struct sps_header *h, const struct sps_header *dmt,
    uint64_t nsamples, const struct sps_stagemem_opts *o, size_t block,
    int gpu, int on_device, struct sps_search_memory *m)
{
	struct sps_search_opts so = o->search;

	so.gpu = gpu ? SPS_ENGINE_GPU : SPS_ENGINE_CPU;
	so.nthreads = o->dedisp.plan.nthreads;
	return sps_search_memory(dmt, &so, block, nsamples ==
	    SPS_NSAMPLES_UNKNOWN ? 0 : nsamples, on_device, h->nbits <= 8, m);
}

/* sps-dedisperse, sps-boxcar (which reads blocks of the stream) and the
 * fused search, whose blocks stay on the GPU, on engine `gpu`. */
static enum sps_err
add_engines(const struct sps_dedisp_plan *cpu, const struct sps_header *h,
    uint64_t nsamples, const struct sps_header *dmt,
    const struct sps_stagemem_opts *o, int gpu, struct sps_stagemem *m)
{
	struct sps_stagemem_opts fo = *o;
	struct sps_dedisp_memory dd, fused;
	struct sps_search_memory bx, fs;
	size_t block = nsamples < m->block ? (size_t)nsamples : m->block;
	double in = (double)sps_dmtime_block_values(dmt, block) *
	    sizeof(float);
	enum sps_err e;
	int i;

	dedisp_memory(cpu, h, nsamples, o, gpu, 0, &dd);
	fo.dedisp.block = sps_searchrun_block(o->dedisp.block, gpu);
	fo.dedisp.clean = &o->clean;
	dedisp_memory(cpu, h, nsamples, &fo, gpu, gpu, &fused);
	if ((e = search_memory(h, dmt, nsamples, o, m->block, gpu, 0, &bx)) !=
	    SPS_OK ||
	    (e = search_memory(h, dmt, nsamples, o, m->block, gpu, gpu, &fs)) !=
	    SPS_OK)
		return e;
	m->window = bx.window;
	if (gpu)
		m->gulp = dd.gulp;
	for (i = 0; i < SPS_NSTAGES; i++) {
		double host = SPS_PROCESS_BYTES, dev = 0;

		if (!gpu && i != SPS_STAGE_PEAKS)
			host += m->nthreads * SPS_THREAD_BYTES;

		if (i == SPS_STAGE_DEDISPERSE) {
			host += dd.host;
			dev = dd.device;
		} else if (i == SPS_STAGE_BOXCAR) {
			/* read one block ahead, of a file of more */
			host += (nsamples > 0 && nsamples <= m->block ? 1 :
			    2) * in + bx.host;
			dev = bx.device;
		} else if (i == SPS_STAGE_SEARCH) {
			host += fused.host + fs.host;
			dev = fused.device + fs.device;
		}
		*(gpu ? &m->stage[i].gpu_host : &m->stage[i].cpu) = host;
		if (gpu)
			m->stage[i].gpu_device = dev;
	}
	return SPS_OK;
}

enum sps_err
sps_stagemem_predict(const struct sps_header *obs, uint64_t nsamples,
    const struct sps_plan *p, const struct sps_stagemem_opts *o,
    struct sps_stagemem *m)
{
	struct sps_header data = *obs, *h = &data;	/* its arrays shared */
	struct sps_dedisp_plan *cpu;
	struct sps_dedisp_memory dd;
	struct sps_header dmt;
	enum sps_err e;

	memset(m, 0, sizeof(*m));
	if (h->nbits < 1)
		h->nbits = m->nbits_assumed = 8;
	if (h->nifs < 1)
		h->nifs = 1;
	m->nthreads = o->dedisp.plan.nthreads > 0 ? o->dedisp.plan.nthreads :
	    omp_get_max_threads();
	if ((e = sps_dedisp_create(&cpu, h, p->dm, p->scrunch, (int)p->ntrials,
	    NULL, &o->dedisp.plan)) != SPS_OK)
		return e;
	dedisp_memory(cpu, h, nsamples, o, 0, 0, &dd);
	m->block = dd.block;
	m->max_delay = dd.max_delay;
	sps_header_init(&dmt);
	e = sps_dedisp_stream_header(&dmt, h, p->dm, p->scrunch,
	    (int)p->ntrials, 32, m->block, m->max_delay, nsamples);
	if (e == SPS_OK)
		e = add_engines(cpu, h, nsamples, &dmt, o, 0, m);
	if (e == SPS_OK)
		e = add_engines(cpu, h, nsamples, &dmt, o, 1, m);
	sps_header_free(&dmt);
	sps_dedisp_free(cpu);
	return e;
}
