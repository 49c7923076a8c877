/* dedisp_engine.c: a whole input dedispersed on the CPU or a GPU
 * (dedisp_engine.h). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanstream.h"
#include "clock.h"
#include "codec.h"
#include "dedisp_engine.h"
#include "devices.h"
#include "gpu.h"
#include "gpu_clean.h"

#define MAX_GULP	((size_t)1 << 22)	/* output samples */
#define MIN_GULP	((size_t)1 << 16)
#define PAD_CYCLE	256	/* spectra of padding, repeated */
#define PAD_SPECTRA	1024	/* the padding is the mean of the last
				 * of these spectra */

struct sps_dedisp_engine {
	struct sps_dedisp_engine_opts o;
	struct sps_reader	*r;
	struct sps_dedisp_plan	*cpu;	/* always: the layout and delays */
	struct sps_gpu_dedisp	*gpu;	/* NULL: the CPU engine */
	struct sps_cleanstream	*clean;	/* NULL: no cleaning */
	struct sps_gpu_clean	*gclean;	/* the GPU's, on the device */
	size_t			 extra;	/* GPU cleaning: spectra a gulp reads
					 * past its end, to end a block */
	uint64_t		 base;	/* the input's spectrum in[cur][0] */
	uint64_t		 cut;	/* GPU cleaning: where the next block
					 * begins */
	size_t			 carried;	/* spectra of in[cur] cleaned
						 * on the device already */
	int			 ntrials;
	unsigned char		*in[2];	/* gulp + max_delay spectra each */
	void			*pre[4];	/* in[] and out[] for the GPU,
						 * reserved
						 * while the device starts */
	size_t			 pre_bytes[4];
	int			 locked[4];	/* pre[i] page-locked */
	pthread_t		 locker;	/* page-locks them */
	int			 locking;	/* locker to be joined */
	int			*shifts;	/* the CPU plan's shift table,
						 * made while the device
						 * starts, for the GPU plan */
	float			*out[2];
	size_t			 unit;	/* bytes of one spectrum in `in` */
	size_t			 block;
	size_t			 gulp;
	size_t			 max_delay;
	double			 in_mb, work_mb, out_mb;	/* CPU */
	/* the run */
	size_t			 have;	/* spectra in in[cur] */
	int			 cur;	/* slot filled next */
	int			 eof;
	int			 done;	/* every sample handed to a step */
	size_t			 real;	/* after eof: spectra in in[cur] that
					 * are data, not padding, and not yet
					 * dedispersed */
	unsigned char		*pad;	/* PAD_CYCLE spectra as `in` holds
					 * them */
	size_t			 npad;	/* spectra of padding given */
	unsigned char		*recent;	/* the last PAD_SPECTRA read,
						 * a ring */
	unsigned char		*recent_in;	/* GPU cleaning: the last
						 * PAD_SPECTRA cleaned */
	size_t			 nrecent, recent_at;
	size_t			 pending;	/* samples queued in !cur */
	const float		*ready;	/* blocks not yet handed out */
	size_t			 ready_left;	/* their samples */
	int			 pack_nb;	/* bytes a value of gulps
						 * packed on the GPU, or 0 */
	const unsigned char	*ready_raw;	/* the ready blocks packed, or
						 * NULL: floats */
	unsigned long long	 ready_clipped;	/* in packing them */
	const unsigned char	*raw;		/* the block last handed out,
						 * packed, or NULL */
	size_t			 raw_bytes;
	unsigned long long	 raw_clipped;
	uint64_t		 nout_total;
	struct sps_dedisp_engine_times times;
	char			 note[512];	/* info's note */
};

static size_t
available_memory(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	char line[256];
	size_t kb = 0;
	FILE *f;

	if ((f = fopen("/proc/meminfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "MemAvailable: %zu kB", &kb) == 1)
				break;
		fclose(f);
	}
	if (kb > 0)
		return kb * 1024;
	return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

/* ---- the CPU plan, made beside the device's start ---- */

/* Creating a CUDA context takes a few tenths of a second: the plan is
 * made in a thread meanwhile, and, for the GPU, its shift table (tens of
 * milliseconds), unless the device has failed to start by then.  The
 * thread only plans; its failure waits for the caller. */
struct plan_job {
	struct sps_dedisp_plan		*cpu;
	const struct sps_header		*hdr;
	const double			*dms;
	const int			*scrunch;
	int				 ntrials;
	const unsigned char		*kill;
	const struct sps_dedisp_opts	*opts;
	struct sps_dedisp_engine	*engine;	/* to reserve for */
	_Atomic int			 no_device;
	enum sps_err			 e;
	char				 msg[512];
};

static void reserve_inputs(struct sps_dedisp_engine *e,
    const struct sps_dedisp_plan *cpu);
static void lock_reserved_start(struct sps_dedisp_engine *e);

static void *
run_plan_job(void *arg)
{
	struct plan_job *j = arg;

	j->e = sps_dedisp_create(&j->cpu, j->hdr, j->dms, j->scrunch,
	    j->ntrials, j->kill, j->opts);
	if (j->e != SPS_OK)
		snprintf(j->msg, sizeof(j->msg), "%s", sps_errmsg());
	else if (j->engine != NULL) {
		reserve_inputs(j->engine, j->cpu);
		if (!j->no_device)
			j->engine->shifts = sps_dedisp_shift_table(j->cpu);
	}
	return NULL;
}

static enum sps_err
make_cpu_plan(struct sps_dedisp_engine *e, const double *dms,
    const int *scrunch, const unsigned char *kill)
{
	struct plan_job job = { NULL, &e->r->hdr, dms, scrunch, e->ntrials,
	    kill, &e->o.plan, e->o.engine == SPS_ENGINE_CPU ? NULL : e,
	    0, SPS_OK, "" };
	size_t free_dev, total;
	pthread_t tid;

	if (e->o.engine == SPS_ENGINE_CPU ||
	    pthread_create(&tid, NULL, run_plan_job, &job) != 0)
		run_plan_job(&job);
	else {
		sps_gpu_dedisp_preload(e->o.device);
		if (e->o.clean != NULL)
			sps_gpu_clean_preload(e->o.device);
		if (sps_device_memory(e->o.device, &free_dev, &total) != SPS_OK)
			job.no_device = 1;
		pthread_join(tid, NULL);
		if (!job.no_device)
			lock_reserved_start(e);
	}
	e->cpu = job.cpu;
	if (job.e != SPS_OK)
		return sps_fail(job.e, "%s", job.msg);
	return SPS_OK;
}

/* ---- the CPU engine's memory ---- */

/* MB of the CPU engine's input block (its overlap too) as floats, its
 * output block and the plan's working memory. */
static void
cpu_parts(const struct sps_dedisp_plan *cpu, const struct sps_header *h,
    size_t block, size_t max_delay, double *in, double *out, double *work)
{
	size_t nin = block + max_delay;

	*in = (double)nin * sps_spectrum_values(h) * sizeof(float) / 1048576;
	*out = (double)sps_dedisp_out_size(cpu, block) * sizeof(float) /
	    1048576;
	*work = (double)sps_dedisp_work_bytes(cpu, nin, block) / 1048576;
}

/* The memory a CPU run needs, had before reading data. */
static enum sps_err
reserve_cpu(struct sps_dedisp_engine *e)
{
	size_t nin = e->block + e->max_delay, avail = available_memory();
	double total;

	cpu_parts(e->cpu, &e->r->hdr, e->block, e->max_delay, &e->in_mb,
	    &e->out_mb, &e->work_mb);
	total = e->in_mb + e->out_mb + e->work_mb;
	if (sps_dedisp_reserve(e->cpu, nin, e->block) != SPS_OK)
		return sps_fail(SPS_ENOMEM, "needs at least %.0f MB of memory "
		    "for blocks of %zu samples and could not have it: %s (try "
		    "a smaller --block)", total, e->block, sps_errmsg());
	e->work_mb = (double)sps_dedisp_held_bytes(e->cpu) / 1048576;
	total = e->in_mb + e->out_mb + e->work_mb;
	if (avail > 0 && total * 1048576 > (double)avail)
		return sps_fail(SPS_ENOMEM, "needs %.0f MB of memory, only "
		    "%.0f MB available (try a smaller --block)", total,
		    (double)avail / 1048576);
	return SPS_OK;
}

/* ---- the GPU engine's plan ---- */

/* Host memory of the GPU engine: two gulps of raw input and, unless
 * the blocks stay on the device, of output. */
static double
gulp_bytes(const struct sps_dedisp_plan *cpu, const struct sps_header *h,
    size_t gulp, size_t max_delay, int on_device)
{
	return 2.0 * ((double)(gulp + max_delay) * sps_spectrum_bytes(h) +
	    (on_device ? 0 : (double)sps_dedisp_out_size(cpu, gulp) *
	    sizeof(float)));
}

/* Spectra a GPU gulp reads past its end when it cleans: to the end of
 * the cleaning block it is in. */
static size_t
clean_extra(const struct sps_dedisp_engine_opts *o)
{
	if (o->clean == NULL)
		return 0;
	return o->clean->block > 0 ? o->clean->block : SPS_CLEAN_BLOCK;
}

static double
pinned_bytes(const struct sps_dedisp_engine *e, size_t gulp)
{
	return gulp_bytes(e->cpu, &e->r->hdr, gulp, e->max_delay +
	    clean_extra(&e->o), e->o.on_device);
}

/* Is the plan of this gulp too big for the device or for the host? */
static int
too_big(const struct sps_dedisp_engine *e, size_t free_dev, size_t host)
{
	double share = e->o.device_share > 0 ? e->o.device_share : 0.75;

	return (double)sps_gpu_dedisp_memory(e->gpu) > share * free_dev ||
	    (host > 0 && pinned_bytes(e, e->gulp) > 0.5 * host);
}

/* The gulp to aim for: several per file, so that the copies and the
 * reading and writing overlap the kernels, yet long beside the largest
 * delay, which each gulp reads again (and the trees compute again), long
 * enough for the kernels' launches to fill the device to the end, and
 * short enough for the packed 8-bit kernels of the algorithm. */
static size_t
aim_gulp(const struct sps_header *h, uint64_t nsamples, size_t max_delay,
    size_t block, int algo)
{
	size_t want = MIN_GULP, data;

	while (want < 4 * max_delay && want < MAX_GULP)
		want *= 2;
	if (nsamples != SPS_NSAMPLES_UNKNOWN) {
		data = (size_t)nsamples - max_delay;
		while (want > block && want / 2 >= data)
			want /= 2;
	}
	while (want > block && want + max_delay >
	    sps_gpu_dedisp_packed_limit(h, (enum sps_dedisp_algo)algo))
		want /= 2;
	return want;
}

/* The longest gulp, a power of 2 times the block, up to aim_gulp's. */
static size_t
longest_gulp(const struct sps_header *h, uint64_t nsamples,
    size_t max_delay, size_t block, int algo)
{
	size_t gulp = block, aim = aim_gulp(h, nsamples, max_delay, block,
	    algo);

	while (gulp * 2 <= aim)
		gulp *= 2;
	return gulp;
}

/* The GPU's input gulps, as long as they can be: their pages are had
 * beside the device's start (the thread of make_cpu_plan), and only
 * page-locked after it.  Nothing is reserved if it fails: alloc_buffers
 * then allocates. */
static void
reserve_inputs(struct sps_dedisp_engine *e, const struct sps_dedisp_plan *cpu)
{
	size_t f = (size_t)sps_dedisp_max_scrunch(cpu), gulp;
	int i;

	if (!sps_reader_raw_exact(e->r))
		return;
	e->max_delay = sps_dedisp_max_delay(cpu);
	e->block = (e->o.block + f - 1) / f * f;
	gulp = e->o.fixed_gulp ? e->block : longest_gulp(&e->r->hdr,
	    e->r->nsamples, e->max_delay, e->block, e->o.plan.algo);
	e->pre_bytes[0] = e->pre_bytes[1] = (gulp + e->max_delay +
	    clean_extra(&e->o)) * sps_spectrum_bytes(&e->r->hdr);
	if (!e->o.on_device)
		e->pre_bytes[2] = e->pre_bytes[3] = sps_dedisp_out_size(cpu,
		    gulp) * sizeof(float) + 1;
	if ((double)e->pre_bytes[0] * 2 + (double)e->pre_bytes[2] * 2 >
	    0.5 * (double)available_memory())
		return;		/* the GPU plan will say what does not fit */
	for (i = 0; i < 4; i++)
		if (e->pre_bytes[i] > 0 && sps_device_host_reserve(&e->pre[i],
		    e->pre_bytes[i], i < 2 ? "input gulps" : "output gulps") !=
		    SPS_OK)
			e->pre[i] = NULL;
}

/* The reserved gulps page-locked by a thread of their own while the
 * GPU plan is made (some 10 ms for case A's two input gulps); a failure
 * leaves one to gpu_buffer. */
static void *
lock_reserved(void *arg)
{
	struct sps_dedisp_engine *e = arg;
	int i;

	for (i = 0; i < 4; i++)
		e->locked[i] = e->pre[i] != NULL && sps_device_host_register(
		    e->pre[i], e->pre_bytes[i], i < 2 ? "input gulps" :
		    "output gulps") == SPS_OK;
	return NULL;
}

static void
lock_reserved_start(struct sps_dedisp_engine *e)
{
	e->locking = pthread_create(&e->locker, NULL, lock_reserved, e) == 0;
}

static void
locked_wait(struct sps_dedisp_engine *e)
{
	if (e->locking)
		pthread_join(e->locker, NULL);
	e->locking = 0;
}

/* Gulp buffer i (in[0], in[1], out[0], out[1]) of bytes, for what: a
 * reserved one, page-locked already or now, or a new one. */
static enum sps_err
gpu_buffer(struct sps_dedisp_engine *e, int i, size_t bytes, void **buf,
    const char *what)
{
	locked_wait(e);
	if (e->pre[i] != NULL && bytes <= e->pre_bytes[i] && (e->locked[i] ||
	    sps_device_host_register(e->pre[i], e->pre_bytes[i], what) ==
	    SPS_OK)) {
		*buf = e->pre[i];
		e->pre[i] = NULL;
		e->locked[i] = 0;
		return SPS_OK;
	}
	return sps_device_host_alloc(buf, bytes, what);
}

/* The CPU plan's tables for the GPU's sub-band and tree algorithms. */
static enum sps_err
share_tables(struct sps_dedisp_engine *e)
{
	enum sps_err err;

	if (e->o.plan.algo == SPS_ALGO_SUBBAND) {
		struct sps_subband_tables t;

		if ((err = sps_subband_tables(e->cpu, &t)) == SPS_OK)
			err = sps_gpu_dedisp_subband(e->gpu, &t);
		sps_subband_tables_free(&t);
		return err;
	}
	if (e->o.plan.algo != SPS_ALGO_DIRECT) {
		struct sps_tree_tables t;

		if ((err = sps_tree_tables(e->cpu, &t)) == SPS_OK)
			err = sps_gpu_dedisp_tree(e->gpu, &t);
		sps_tree_tables_free(&t);
		return err;
	}
	return SPS_OK;
}

/* The GPU plan for gulps of one block (fixed_gulp), or for the largest
 * gulp up to aim_gulp's (a power of 2 times the block) that fits in 3/4
 * of the free device memory and half the available host memory. */
static enum sps_err
make_gpu_plan(struct sps_dedisp_engine *e, const int *scrunch,
    const unsigned char *kill)
{
	size_t free_dev = 0, total = 0, host = available_memory(), first;
	char why[sizeof(e->note) - 64] = "";
	enum sps_err err;

	if ((err = sps_device_memory(e->o.device, &free_dev, &total)) !=
	    SPS_OK)
		return err;
	if (e->shifts == NULL &&	/* not made beside the device's start */
	    (e->shifts = sps_dedisp_shift_table(e->cpu)) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	first = e->gulp = e->o.fixed_gulp ? e->block :
	    longest_gulp(&e->r->hdr, e->r->nsamples, e->max_delay, e->block,
	    e->o.plan.algo);
	for (;;) {
		err = sps_gpu_dedisp_create(&e->gpu, e->o.device, &e->r->hdr,
		    scrunch, e->ntrials, kill, e->shifts, e->gulp +
		    e->max_delay + clean_extra(&e->o), e->gulp);
		if (err == SPS_OK)
			err = share_tables(e);
		if (err != SPS_OK && why[0] == '\0')
			snprintf(why, sizeof(why), "%s", sps_errmsg());
		if (e->o.fixed_gulp || e->gulp == e->block || (err == SPS_OK &&
		    !too_big(e, free_dev, host)))
			break;
		sps_gpu_dedisp_free(e->gpu);
		e->gpu = NULL;
		e->gulp /= 2;
	}
	if (err == SPS_OK && why[0] != '\0')
		snprintf(e->note, sizeof(e->note), "GPU %d: %s: gulps of %zu "
		    "spectra instead of %zu", e->o.device, why, e->gulp, first);
	if (err == SPS_ENOMEM)	/* gulps of one block: the block is the cause */
		return sps_fail(err, "%s: try a smaller --block", sps_errmsg());
	return err;
}

/* ---- choosing ---- */

static void
use_cpu(struct sps_dedisp_engine *e)
{
	sps_gpu_dedisp_free(e->gpu);
	sps_gpu_clean_free(e->gclean);
	e->gpu = NULL;
	e->gclean = NULL;
	e->extra = 0;
	e->gulp = e->block;
	e->unit = sps_spectrum_values(&e->r->hdr) * sizeof(float);
}

/* The GPU when asked for (failure is an error) or by default when one
 * is usable (else the CPU: without a device silently, else the reason
 * in the note). */
static enum sps_err
choose_engine(struct sps_dedisp_engine *e, const int *scrunch,
    const unsigned char *kill)
{
	struct sps_device dev;
	enum sps_err err;
	int n;

	use_cpu(e);
	if (e->o.engine == SPS_ENGINE_CPU || (e->o.engine == SPS_ENGINE_ANY &&
	    (sps_device_list(&dev, 1, &n) != SPS_OK ||
	    !sps_reader_raw_exact(e->r))))
		return SPS_OK;
	if (!sps_reader_raw_exact(e->r))
		return sps_fail(SPS_EUSAGE, "GPU %d: %s: the GPU reads the "
		    "file's samples as they are, and these are scaled (PSRFITS "
		    "DAT_SCL and DAT_OFFS): use the CPU", e->o.device,
		    e->r->name);
	e->unit = sps_spectrum_bytes(&e->r->hdr);	/* raw bytes go over */
	err = make_gpu_plan(e, scrunch, kill);
	free(e->shifts);
	e->shifts = NULL;
	sps_trace("dedispersion: GPU plan made");
	if (err == SPS_OK && (e->clean == NULL ||
	    (err = sps_gpu_clean_create(&e->gclean, e->o.device, &e->r->hdr,
	    e->gulp + e->max_delay + clean_extra(&e->o))) == SPS_OK)) {
		e->extra = clean_extra(&e->o);
		return SPS_OK;
	}
	use_cpu(e);
	if (e->o.engine == SPS_ENGINE_GPU)
		return sps_fail(err, "GPU %d: %s", e->o.device, sps_errmsg());
	snprintf(e->note, sizeof(e->note), "GPU %d: %s: on the CPU instead",
	    e->o.device, sps_errmsg());
	return SPS_OK;
}

/* Reserved inputs the engine did not take (the CPU's, or a smaller
 * gulp's). */
static void
drop_reserved(struct sps_dedisp_engine *e)
{
	int i;

	locked_wait(e);
	for (i = 0; i < 4; i++) {
		if (e->locked[i])
			sps_device_host_free(e->pre[i]);
		else
			free(e->pre[i]);
		e->pre[i] = NULL;
		e->locked[i] = 0;
	}
}

static enum sps_err
alloc_buffers(struct sps_dedisp_engine *e)
{
	size_t nin = e->gulp + e->max_delay + e->extra;
	size_t out_bytes = sps_dedisp_out_size(e->cpu, e->gulp) *
	    sizeof(float) + 1;
	int i;

	if ((e->recent = malloc(PAD_SPECTRA * e->unit)) == NULL ||
	    (e->gclean != NULL && (e->recent_in = malloc(PAD_SPECTRA *
	    e->unit)) == NULL))
		return sps_fail(SPS_ENOMEM, "out of memory");
	for (i = 0; i < (e->gpu != NULL ? 2 : 1); i++) {
		if (e->gpu == NULL) {
			e->in[i] = malloc(nin * e->unit);
			e->out[i] = malloc(out_bytes);
		} else if (gpu_buffer(e, i, nin * e->unit, (void **)&e->in[i],
		    "input gulps") != SPS_OK || (!e->o.on_device &&
		    gpu_buffer(e, 2 + i, out_bytes, (void **)&e->out[i],
		    "output gulps") != SPS_OK))
			return sps_fail(SPS_ENOMEM, "GPU %d: %s", e->o.device,
			    sps_errmsg());
		if (e->in[i] == NULL || (e->out[i] == NULL && (e->gpu == NULL
		    || !e->o.on_device)))
			return sps_fail(SPS_ENOMEM, "out of memory for blocks "
			    "of %zu samples", nin);
	}
	drop_reserved(e);
	return SPS_OK;
}

static void
free_buffers(struct sps_dedisp_engine *e)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (e->gpu != NULL) {
			sps_device_host_free(e->in[i]);
			sps_device_host_free(e->out[i]);
		} else {
			free(e->in[i]);
			free(e->out[i]);
		}
		e->in[i] = NULL;
		e->out[i] = NULL;
	}
}

static enum sps_err
too_short(const struct sps_dedisp_engine *e, uint64_t n)
{
	return sps_fail(SPS_EVALUE, "%s: %llu samples do not reach past the "
	    "largest delay of the plan (%zu samples)", e->r->name,
	    (unsigned long long)n, e->max_delay);
}

static enum sps_err
setup(struct sps_dedisp_engine *e, const double *dms, const int *scrunch,
    const unsigned char *kill)
{
	enum sps_err err;
	size_t f;

	if ((err = make_cpu_plan(e, dms, scrunch, kill)) != SPS_OK)
		return err;
	if (e->o.clean != NULL && (err = sps_cleanstream_create(&e->clean,
	    &e->r->hdr, e->o.clean, kill)) != SPS_OK)
		return err;
	sps_trace("dedispersion: CPU plan made, device started");
	e->max_delay = sps_dedisp_max_delay(e->cpu);
	f = (size_t)sps_dedisp_max_scrunch(e->cpu);
	e->block = (e->o.block + f - 1) / f * f;
	if (e->r->nsamples != SPS_NSAMPLES_UNKNOWN &&
	    e->r->nsamples <= e->max_delay)
		return too_short(e, e->r->nsamples);
	if (e->o.on_device && e->o.engine != SPS_ENGINE_GPU)
		return sps_fail(SPS_EUSAGE, "blocks on the device need the GPU "
		    "engine");
	if ((err = choose_engine(e, scrunch, kill)) != SPS_OK)
		return err;
	sps_trace("dedispersion: %s engine, gulps of %zu", e->gpu != NULL ?
	    "GPU" : "CPU", e->gulp);
	if (e->gpu == NULL && (err = reserve_cpu(e)) != SPS_OK)
		return err;
	if ((err = alloc_buffers(e)) == SPS_OK && e->gpu != NULL &&
	    (err = sps_gpu_dedisp_prepare(e->gpu)) != SPS_OK)
		err = sps_fail(err, "GPU %d: %s", e->o.device, sps_errmsg());
	sps_trace("dedispersion: buffers allocated");
	return err;
}

enum sps_err
sps_dedisp_engine_create(struct sps_dedisp_engine **ep, struct sps_reader *r,
    const double *dms, const int *scrunch, int ntrials,
    const unsigned char *kill, const struct sps_dedisp_engine_opts *o)
{
	struct sps_dedisp_engine *e;
	enum sps_err err;

	*ep = NULL;
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e->o = *o;
	e->r = r;
	e->ntrials = ntrials;
	if ((err = setup(e, dms, scrunch, kill)) != SPS_OK) {
		sps_dedisp_engine_free(e);
		return err;
	}
	*ep = e;
	return SPS_OK;
}

void
sps_dedisp_engine_free(struct sps_dedisp_engine *e)
{
	if (e == NULL)
		return;
	drop_reserved(e);
	free_buffers(e);
	free(e->shifts);
	free(e->pad);
	free(e->recent);
	free(e->recent_in);
	sps_gpu_clean_free(e->gclean);
	sps_cleanstream_free(e->clean);
	sps_gpu_dedisp_free(e->gpu);
	sps_dedisp_free(e->cpu);
	free(e);
}

void
sps_dedisp_engine_info(const struct sps_dedisp_engine *e,
    struct sps_dedisp_engine_info *info)
{
	memset(info, 0, sizeof(*info));
	info->on_gpu = e->gpu != NULL;
	info->device = e->o.device;
	info->ntrials = e->ntrials;
	info->block = e->block;
	info->gulp = e->gulp;
	info->max_delay = e->max_delay;
	info->in_mb = e->in_mb;
	info->work_mb = e->work_mb;
	info->out_mb = e->out_mb;
	info->note = e->note[0] != '\0' ? e->note : NULL;
	if (e->gpu != NULL) {
		info->host_mb = pinned_bytes(e, e->gulp) / 1048576;
		info->device_mb = (double)sps_gpu_dedisp_memory(e->gpu) /
		    1048576;
	} else
		info->host_mb = e->in_mb + e->work_mb + e->out_mb;
}

const struct sps_dedisp_plan *
sps_dedisp_engine_plan(const struct sps_dedisp_engine *e)
{
	return e->cpu;
}

void
sps_dedisp_engine_times(const struct sps_dedisp_engine *e,
    struct sps_dedisp_engine_times *t)
{
	*t = e->times;
}

const struct sps_cleanstream *
sps_dedisp_engine_cleaning(const struct sps_dedisp_engine *e)
{
	return e->clean;
}

uint64_t
sps_dedisp_engine_clean_quantised(const struct sps_dedisp_engine *e)
{
	if (e->gclean != NULL)
		return sps_gpu_clean_quantised(e->gclean);
	return e->clean != NULL ? sps_cleanstream_quantised(e->clean) : 0;
}

double
sps_dedisp_engine_clean_seconds(const struct sps_dedisp_engine *e)
{
	return e->gclean != NULL ? sps_gpu_clean_seconds(e->gclean) : 0;
}

enum sps_err
sps_dedisp_engine_finish(struct sps_dedisp_engine *e)
{
	return e->clean != NULL ? sps_cleanstream_close(e->clean) : SPS_OK;
}

const char *
sps_dedisp_engine_gpu_path(const struct sps_dedisp_engine *e)
{
	return e->gpu != NULL ? sps_gpu_dedisp_direct_path(e->gpu) : NULL;
}

/* ---- memory, predicted ---- */

/* Host bytes beside the blocks: the last PAD_SPECTRA spectra and the
 * padding, of unit bytes each, and the reader's raw block of nin spectra
 * (the CPU engine's, but for floats, which are read in place; the GPU's
 * reads into its own). */
static double
side_bytes(const struct sps_header *h, size_t unit, size_t nin, int on_gpu)
{
	return (double)(PAD_SPECTRA + PAD_CYCLE) * unit + (on_gpu ||
	    h->nbits == 32 ? 0 : (double)nin * sps_spectrum_bytes(h));
}

static double
clean_bytes(const struct sps_header *h, const struct sps_dedisp_engine_opts *o)
{
	return o->clean != NULL ? sps_cleanstream_read_bytes(h,
	    o->clean->block) : 0;
}

void
sps_dedisp_engine_memory(const struct sps_dedisp_plan *cpu,
    const struct sps_header *h, uint64_t nsamples,
    const struct sps_dedisp_engine_opts *o, struct sps_dedisp_memory *m)
{
	size_t f = (size_t)sps_dedisp_max_scrunch(cpu), used;
	double in, out, work;

	memset(m, 0, sizeof(*m));
	m->max_delay = sps_dedisp_max_delay(cpu);
	m->block = (o->block + f - 1) / f * f;
	m->gulp = used = m->block;
	if (o->engine != SPS_ENGINE_GPU) {
		/* a file shorter than a block uses a block of its length */
		if (nsamples != SPS_NSAMPLES_UNKNOWN && nsamples < m->block)
			used = (size_t)nsamples;
		cpu_parts(cpu, h, used, m->max_delay, &in, &out, &work);
		m->host = (in + out + work) * 1048576 + side_bytes(h,
		    sps_spectrum_values(h) * sizeof(float), used + m->max_delay,
		    0) + clean_bytes(h, o);
		return;
	}
	if (!o->fixed_gulp)
		m->gulp = longest_gulp(h, nsamples, m->max_delay, m->block,
		    o->plan.algo);
	m->host = gulp_bytes(cpu, h, m->gulp, m->max_delay + clean_extra(o),
	    o->on_device) + side_bytes(h, sps_spectrum_bytes(h), 0, 1);
	m->device = sps_gpu_dedisp_bytes(cpu, h, m->gulp + m->max_delay +
	    clean_extra(o), m->gulp);
	if (o->pack_bits > 0 && !o->on_device)	/* two gulps packed */
		m->device += 2.0 * (sps_dedisp_out_size(cpu, m->gulp) *
		    (double)o->pack_bits / 8 + 8.0 * (m->gulp / m->block + 1));
	if (o->clean != NULL)
		m->device += sps_gpu_clean_bytes(h, m->gulp + m->max_delay +
		    clean_extra(o));
}

/* ---- the run ---- */

/* The last PAD_SPECTRA spectra read, for the padding. */
static void
keep_recent(struct sps_dedisp_engine *e, const unsigned char *x, size_t n)
{
	size_t k = n > PAD_SPECTRA ? n - PAD_SPECTRA : 0;

	for (; k < n; k++) {
		memcpy(e->recent + e->recent_at * e->unit, x + k * e->unit,
		    e->unit);
		e->recent_at = (e->recent_at + 1) % PAD_SPECTRA;
		if (e->nrecent < PAD_SPECTRA)
			e->nrecent++;
	}
}

/* Up to n spectra: raw bytes for the GPU (cleaned on the device),
 * floats for the CPU, cleaned here when asked. */
static enum sps_err
read_some(struct sps_dedisp_engine *e, unsigned char *at, size_t n,
    size_t *got)
{
	if (e->clean != NULL && e->gpu == NULL)
		return sps_cleanstream_read(e->clean, e->r, (float *)(void *)at,
		    n, got);
	if (e->gpu != NULL)
		return sps_reader_read_raw(e->r, at, n, got);
	return sps_reader_read(e->r, (float *)(void *)at, n, got);
}

/* Fill in[cur] up to nin spectra. */
static enum sps_err
fill(struct sps_dedisp_engine *e, size_t nin)
{
	unsigned char *in = e->in[e->cur];
	double t0 = sps_clock();
	enum sps_err err = SPS_OK;
	size_t got;

	while (e->have < nin) {
		err = read_some(e, in + e->have * e->unit, nin - e->have, &got);
		if (e->gclean == NULL)
			keep_recent(e, in + e->have * e->unit, got);
		e->have += got;
		if (err == SPS_EEOF) {
			e->eof = 1;
			err = SPS_OK;
			break;
		}
		if (err != SPS_OK)
			break;
	}
	e->times.reading += sps_clock() - t0;
	sps_trace("dedispersion: read to %zu of %zu spectra in %.1f ms",
	    e->have, nin, (sps_clock() - t0) * 1e3);
	return err;
}

/* Integer data: the j-th of PAD_CYCLE padding values of a channel whose
 * cycle sums to total, the channel's phase phi (in [0, PAD_CYCLE)) keeping
 * the channels from stepping together. */
static double
dither(long long total, long long phi, size_t j)
{
	long long a = (long long)j * total + phi, b = a + total;

	/* floor division, total may be negative (signed 8-bit data) */
	return (double)((b >= 0 ? b / PAD_CYCLE : -((-b + PAD_CYCLE - 1) /
	    PAD_CYCLE)) - (a >= 0 ? a / PAD_CYCLE : -((-a + PAD_CYCLE - 1) /
	    PAD_CYCLE)));
}

/* The phase of value c of a spectrum, by its channel's place from the
 * lowest frequency (the same whichever way the file orders them). */
static long long
pad_phase(const struct sps_header *h, size_t c)
{
	size_t ch = c % (size_t)h->nchans, ifno = c / (size_t)h->nchans;

	if (h->foff < 0)
		ch = (size_t)h->nchans - 1 - ch;
	return (long long)((ifno * (size_t)h->nchans + ch) * 97 % PAD_CYCLE);
}

/* Each channel's mean over the last PAD_SPECTRA spectra, and whether
 * every value was an integer. */
static int
recent_means(struct sps_dedisp_engine *e, double *mean, float *v)
{
	const struct sps_header *h = &e->r->hdr;
	int is_signed = h->nbits == 8 && h->sign < 0, integers = 1;
	size_t nv = sps_spectrum_values(h), t, c;
	const float *x;

	for (t = 0; t < e->nrecent; t++) {
		x = (const float *)(const void *)(e->recent + t * e->unit);
		if (e->gpu != NULL) {
			sps_unpack(e->recent + t * e->unit, v, nv, h->nbits,
			    is_signed);
			x = v;
		}
		for (c = 0; c < nv; c++) {
			mean[c] += x[c];
			integers &= x[c] == floorf(x[c]);
		}
	}
	for (c = 0; c < nv; c++)
		mean[c] /= (double)e->nrecent;
	return integers;
}

/* The spectra that pad the data past their end, so that every trial is
 * dedispersed to the last sample the data reach (the part of the band
 * that arrives after the end sums the padding), as the CPU and the GPU
 * both see them: each channel's mean over the last PAD_SPECTRA spectra;
 * integer data stay integers (their sums stay exact) by a cycle of
 * PAD_CYCLE values, each the floor or the ceiling of the mean, whose
 * average is the mean to 1 / PAD_CYCLE (a rounded mean would shift a
 * 2-bit channel by up to half a level, and a sum over the band by many
 * times its noise). */
static enum sps_err
make_pad(struct sps_dedisp_engine *e)
{
	const struct sps_header *h = &e->r->hdr;
	int is_signed = h->nbits == 8 && h->sign < 0, integers;
	size_t nv = sps_spectrum_values(h), j, c;
	double *mean = calloc(nv, sizeof(double));
	float *v = malloc((nv + 1) * sizeof(float));

	e->pad = malloc(PAD_CYCLE * e->unit);
	if (e->pad == NULL || mean == NULL || v == NULL) {
		free(mean);
		free(v);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	integers = recent_means(e, mean, v);
	for (j = 0; j < PAD_CYCLE; j++) {
		for (c = 0; c < nv; c++)
			v[c] = (float)(integers ? dither(llround(mean[c] *
			    PAD_CYCLE), pad_phase(h, c), j) : mean[c]);
		if (e->gpu != NULL)
			sps_pack(v, e->pad + j * e->unit, nv, h->nbits,
			    is_signed);
		else
			memcpy(e->pad + j * e->unit, v, nv * sizeof(float));
	}
	free(mean);
	free(v);
	return SPS_OK;
}

/* Output samples of the gulp in in[cur]: the whole gulp, or after the
 * end of the data what is left of them, the spectra they read past the
 * data filled with the padding. */
static enum sps_err
gulp_output(struct sps_dedisp_engine *e, size_t *nout)
{
	size_t nin, t;
	enum sps_err err;

	*nout = e->gulp;
	if (!e->eof)
		return SPS_OK;
	if (e->pad == NULL) {
		if (e->r->position <= e->max_delay)
			return too_short(e, e->r->position);
		if ((err = make_pad(e)) != SPS_OK)
			return err;
		e->real = e->have;
	}
	*nout = e->real < e->gulp ? e->real : e->gulp;
	e->real -= *nout;
	nin = *nout + e->max_delay;
	for (t = e->have; t < nin; t++)
		memcpy(e->in[e->cur] + t * e->unit, e->pad + (e->npad++ %
		    PAD_CYCLE) * e->unit, e->unit);
	if (e->have < nin)
		e->have = nin;
	return SPS_OK;
}

/* The overlap: the last max_delay spectra of in[cur] begin slot to (on
 * the device already when it cleans). */
static void
keep_overlap(struct sps_dedisp_engine *e, int to)
{
	if (e->gclean == NULL)
		memmove(e->in[to], e->in[e->cur] + e->gulp * e->unit,
		    e->max_delay * e->unit);
	e->have -= e->gulp < e->have ? e->gulp : e->have;
	e->base += e->gulp;
	e->carried = e->have;
}

/* The next gulp read (or, past the end, padded): *nout samples to
 * dedisperse from in[cur]. */
/* GPU cleaning: the spectra in[cur] must hold for its last cleaning
 * block to be whole, nin or up to extra more. */
static size_t
block_end(struct sps_dedisp_engine *e, size_t nin)
{
	while (e->cut < e->base + nin)
		e->cut += sps_cleanstream_length(e->clean, e->cut);
	return (size_t)(e->cut - e->base);
}

/* Whether the input may end before the gulp after this one is read:
 * then the last cleaned spectra must come back for the padding. */
static int
near_end(const struct sps_dedisp_engine *e)
{
	return e->eof || e->r->nsamples == SPS_NSAMPLES_UNKNOWN || e->base +
	    e->have + e->gulp + e->max_delay + e->extra >= e->r->nsamples;
}

/* GPU cleaning: the new spectra of in[cur] go to the device and are
 * cleaned there (those before them are there, cleaned, from the last
 * gulp); near the end, the last of them come back for the padding. */
static enum sps_err
clean_on_device(struct sps_dedisp_engine *e)
{
	size_t n = e->have - e->carried, k = n < PAD_SPECTRA ? n : PAD_SPECTRA;
	double t0 = sps_clock();
	unsigned char *dev;
	enum sps_err err;
	void *stream;

	if (!near_end(e))
		k = 0;

	if ((err = sps_gpu_dedisp_stage(e->gpu, e->in[e->cur], e->carried, n,
	    &dev, &stream)) != SPS_OK || (err = sps_gpu_clean_run(e->gclean,
	    e->clean, dev + e->carried * e->unit, n, e->base + e->carried,
	    stream)) != SPS_OK || (err = sps_gpu_clean_fetch(e->gclean,
	    e->recent_in, dev + (e->have - k) * e->unit, k * e->unit,
	    stream)) != SPS_OK)
		return sps_fail(err, "GPU %d: %s", e->o.device, sps_errmsg());
	keep_recent(e, e->recent_in, k);
	sps_trace("cleaning: %zu spectra on the device, %.1f ms", n,
	    (sps_clock() - t0) * 1e3);
	return SPS_OK;
}

static enum sps_err
next_gulp(struct sps_dedisp_engine *e, size_t *nout)
{
	size_t nin = e->gulp + e->max_delay;
	enum sps_err err;

	if (e->gclean != NULL && !e->eof)
		nin = block_end(e, nin);
	if (!e->eof && (err = fill(e, nin)) != SPS_OK)
		return err;
	if (e->gclean != NULL && (err = clean_on_device(e)) != SPS_OK)
		return err;
	return gulp_output(e, nout);
}

static enum sps_err
step_cpu(struct sps_dedisp_engine *e)
{
	enum sps_err err;
	size_t nout;

	if ((err = next_gulp(e, &nout)) != SPS_OK)
		return err;
	if (nout == 0) {
		e->done = 1;
		return SPS_OK;
	}
	if ((err = sps_dedisp_execute(e->cpu, (const float *)(const void *)
	    e->in[0], e->have, nout, e->out[0])) != SPS_OK)
		return err;
	e->ready = e->out[0];
	e->ready_left = nout;
	keep_overlap(e, 0);
	return SPS_OK;
}

/* Whether the gulp waited for came packed (sps_dedisp_engine_pack). */
static enum sps_err
ready_packed(struct sps_dedisp_engine *e)
{
	size_t bytes;
	enum sps_err err;

	e->ready_raw = NULL;
	if (e->pack_nb == 0)
		return SPS_OK;
	if ((err = sps_gpu_dedisp_packed(e->gpu, &bytes, &e->ready_clipped))
	    != SPS_OK)
		return err;
	if (bytes > 0)
		e->ready_raw = (const unsigned char *)e->ready;
	return SPS_OK;
}

static enum sps_err
wait_gpu(struct sps_dedisp_engine *e)
{
	double ms = 0, t0 = sps_clock();
	enum sps_err err;

	if ((err = sps_gpu_dedisp_wait(e->gpu, &ms)) != SPS_OK)
		return err;
	e->times.waiting += sps_clock() - t0;
	e->times.kernels += ms / 1e3;
	sps_trace("dedispersion: gulp of %zu done (kernels %.1f ms, waited "
	    "%.1f ms)", e->pending, ms, (sps_clock() - t0) * 1e3);
	e->ready = e->o.on_device ? sps_gpu_dedisp_device_out(e->gpu) :
	    e->out[!e->cur];
	if ((err = ready_packed(e)) != SPS_OK)
		return err;
	e->ready_left = e->pending;
	e->pending = 0;
	return SPS_OK;
}

/* Gulp k is read and queued while gulp k - 1 is on the device, whose
 * blocks are then handed out while gulp k is. */
static enum sps_err
step_gpu(struct sps_dedisp_engine *e)
{
	enum sps_err err;
	size_t nout;

	if ((err = next_gulp(e, &nout)) != SPS_OK)
		return err;
	if ((nout > 0 && (err = sps_gpu_dedisp_submit(e->gpu, e->in[e->cur],
	    e->have, nout, e->block, e->o.on_device ? NULL : e->out[e->cur]))
	    != SPS_OK) || (e->pending > 0 && (err = wait_gpu(e)) != SPS_OK))
		return sps_fail(err, "GPU %d: %s", e->o.device, sps_errmsg());
	if (nout == 0) {
		e->done = 1;
		return SPS_OK;
	}
	keep_overlap(e, !e->cur);
	e->cur = !e->cur;
	e->pending = nout;
	return SPS_OK;
}

int
sps_dedisp_engine_pack(struct sps_dedisp_engine *e, int nbits, double scale,
    double offset)
{
	if (e->gpu == NULL || e->o.on_device || (nbits != 8 && nbits != 16) ||
	    sps_gpu_dedisp_pack(e->gpu, nbits, scale, offset) != SPS_OK)
		return 0;
	e->pack_nb = nbits / 8;
	return 1;
}

const unsigned char *
sps_dedisp_engine_packed(const struct sps_dedisp_engine *e, size_t *bytes,
    unsigned long long *clipped)
{
	*bytes = e->raw != NULL ? e->raw_bytes : 0;
	*clipped = e->raw != NULL ? e->raw_clipped : 0;
	return e->raw;
}

enum sps_err
sps_dedisp_engine_next(struct sps_dedisp_engine *e, const float **out,
    size_t *nout)
{
	enum sps_err err;
	size_t n;

	*out = NULL;
	*nout = 0;
	e->raw = NULL;
	while (e->ready_left == 0) {
		if (e->done && e->pending == 0)
			break;
		/* the input's errors name the input, the GPU's the GPU */
		if ((err = e->gpu != NULL ? step_gpu(e) : step_cpu(e)) !=
		    SPS_OK)
			return err;
	}
	if (e->ready_left == 0)
		return SPS_OK;
	n = e->ready_left < e->block ? e->ready_left : e->block;
	*out = e->ready_raw != NULL ? NULL : e->ready;
	*nout = n;
	if ((e->raw = e->ready_raw) != NULL) {
		e->raw_bytes = 8 + sps_dedisp_out_size(e->cpu, n) *
		    (size_t)e->pack_nb;
		e->raw_clipped = e->ready_clipped;
		e->ready_clipped = 0;	/* the gulp's, with its first block */
		e->ready_raw += e->raw_bytes;
	}
	e->ready += sps_dedisp_out_size(e->cpu, n);
	e->ready_left -= n;
	e->nout_total += n;
	return SPS_OK;
}
