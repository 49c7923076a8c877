/* cleanpass.c: an input cleaned onto a writer (cleanpass.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytewriter.h"
#include "clock.h"
#include "cleanpass.h"
#include "dedisp_engine.h"
#include "devices.h"
#include "gpu_clean.h"
#include "psrfits.h"

#define RUN_BYTES	((size_t)64 << 20)	/* a GPU run's spectra */

static enum sps_err
pass_cpu(struct sps_reader *r, struct sps_writer *w,
    struct sps_cleanstream *cs, const struct sps_clean_pass_opts *o,
    struct sps_clean_pass_info *info)
{
	size_t block = sps_cleanstream_block_max(cs), got;
	struct sps_clean_block b;
	uint64_t at = 0, clipped = w->nclipped;
	enum sps_err e;
	double t0;
	float *buf;

	if ((buf = malloc(block * sps_spectrum_values(&r->hdr) *
	    sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	while ((e = sps_cleanstream_fill(r, buf, sps_cleanstream_begin(cs, at), 0,
	    &got)) == SPS_OK) {
		t0 = sps_clock();
		e = sps_cleanstream_block(cs, at, buf, got, &b);
		info->seconds += sps_clock() - t0;
		if (e != SPS_OK || (e = sps_writer_spectra(w, buf, got)) !=
		    SPS_OK)
			break;
		at += got;
		if (o->on_progress != NULL)
			o->on_progress(r, at);
	}
	free(buf);
	info->quantised = w->nclipped - clipped;
	return e == SPS_EEOF ? SPS_OK : e;
}

/* The spectra of whole blocks from at, as many as fit in max. */
static size_t
run_length(const struct sps_cleanstream *cs, uint64_t at, size_t max)
{
	size_t n = 0, len;

	while ((len = sps_cleanstream_length(cs, at + n)) <= max - n)
		n += len;
	return n > 0 ? n : max;
}

/* A run read by a thread of its own, while the one before is cleaned
 * and written. */
struct run_read {
	struct sps_reader	*r;
	unsigned char		*raw;
	size_t			 n, got;
	enum sps_err		 e;
	char			 msg[512];
};

static void *
read_run(void *arg)
{
	struct run_read *rr = arg;

	rr->e = sps_cleanstream_fill(rr->r, rr->raw, rr->n, 1, &rr->got);
	if (rr->e != SPS_OK && rr->e != SPS_EEOF)
		snprintf(rr->msg, sizeof(rr->msg), "%s", sps_errmsg());
	return NULL;
}

/* Read run k + 1 beside the cleaning of run k: start, then finish. */
static int
read_start(struct run_read *rr, pthread_t *tid)
{
	if (pthread_create(tid, NULL, read_run, rr) == 0)
		return 1;
	read_run(rr);
	return 0;
}

static enum sps_err
read_finish(struct run_read *rr, pthread_t tid, int threaded)
{
	if (threaded)
		pthread_join(tid, NULL);
	if (rr->e != SPS_OK && rr->e != SPS_EEOF)
		return sps_fail(rr->e, "%s", rr->msg);
	return rr->e;
}

/* Run k + 1 read by a thread while run k is cleaned, then copied for
 * the writing thread (bytewriter.h), which writes it while the next is
 * cleaned: the reading, the device and the output (a pipe drained at
 * its reader's pace) overlap. */
static enum sps_err
pass_gpu(struct sps_reader *r, struct sps_writer *w,
    struct sps_cleanstream *cs, struct sps_gpu_clean *g,
    const struct sps_clean_pass_opts *o, struct sps_clean_pass_info *info)
{
	size_t sb = sps_spectrum_bytes(&r->hdr), max = RUN_BYTES / sb, got;
	size_t block = sps_cleanstream_block_max(cs);
	struct sps_bytewriter *bw = NULL;
	struct run_read rr[2];
	unsigned char *raw[2] = { NULL, NULL };
	uint64_t at = 0;
	enum sps_err e;
	pthread_t tid;
	int k = 0, threaded;
	double t0;

	max = max > block ? max / block * block : block;
	if ((e = sps_device_host_alloc((void **)&raw[0], max * sb, "the "
	    "spectra to clean")) != SPS_OK || (e = sps_device_host_alloc(
	    (void **)&raw[1], max * sb, "the spectra to clean")) != SPS_OK ||
	    (e = sps_bytewriter_start(&bw, w->f, 2)) != SPS_OK) {
		sps_device_host_free(raw[0]);
		sps_device_host_free(raw[1]);
		return e;
	}
	memset(rr, 0, sizeof(rr));
	memset(&tid, 0, sizeof(tid));	/* passed, unused, before a thread */
	rr[0].r = rr[1].r = r;
	rr[0].raw = raw[0], rr[1].raw = raw[1];
	rr[0].n = run_length(cs, 0, max);
	read_run(&rr[0]);
	e = read_finish(&rr[0], tid, 0);
	while (e == SPS_OK) {
		got = rr[k].got;
		rr[!k].n = run_length(cs, at + got, max);
		threaded = read_start(&rr[!k], &tid);
		t0 = sps_clock();
		if ((e = sps_gpu_clean_host(g, cs, raw[k], got, at)) != SPS_OK)
			e = sps_fail(e, "GPU %d: %s", o->device, sps_errmsg());
		info->seconds += sps_clock() - t0;
		/* raw[k] is the reader's again once copied */
		if (e == SPS_OK && (e = sps_bytewriter_copy(bw, raw[k], got *
		    sb)) == SPS_EIO)
			e = sps_writer_failed(w, e);
		if (e != SPS_OK) {
			read_finish(&rr[!k], tid, threaded);
			break;
		}
		at += got;
		if (o->on_progress != NULL)
			o->on_progress(r, at);
		e = read_finish(&rr[!k], tid, threaded);
		k = !k;
	}
	if (e == SPS_OK || e == SPS_EEOF) {
		if ((e = sps_bytewriter_finish(bw)) != SPS_OK)
			e = sps_writer_failed(w, e);
	} else
		sps_bytewriter_abort(bw);
	sps_device_host_free(raw[0]);
	sps_device_host_free(raw[1]);
	info->quantised = sps_gpu_clean_quantised(g);
	return e;
}

/* The GPU's cleaning, or NULL and why not. */
static enum sps_err
open_gpu(struct sps_reader *r, const struct sps_clean_pass_opts *o,
    size_t block, struct sps_gpu_clean **g)
{
	size_t sb = sps_spectrum_bytes(&r->hdr), max = RUN_BYTES / sb;

	*g = NULL;
	if (o->out_nbits != r->hdr.nbits)
		return sps_fail(SPS_EUSAGE, "the GPU writes the input's %d "
		    "bits, not %d: use the CPU", r->hdr.nbits, o->out_nbits);
	if (!sps_reader_raw_exact(r))
		return sps_fail(SPS_EUSAGE, "%s: the GPU cleans the file's "
		    "samples as they are, and these are scaled (PSRFITS "
		    "DAT_SCL and DAT_OFFS): use the CPU", r->name);
	if ((r->hdr.nchans * r->hdr.nbits) % 8 != 0)
		return sps_fail(SPS_EUSAGE, "%s: spectra of %d %d-bit values "
		    "are not whole bytes: use the CPU", r->name, r->hdr.nchans,
		    r->hdr.nbits);
	max = max > block ? max / block * block : block;
	return sps_gpu_clean_create(g, o->device, &r->hdr, max);
}

struct sps_clean_pass {
	struct sps_reader		*r;
	struct sps_cleanstream		*cs;
	struct sps_clean_pass_opts	 o;
	struct sps_gpu_clean		*g;	/* NULL: the CPU */
	struct sps_clean_pass_info	 info;
};

enum sps_err
sps_clean_pass_open(struct sps_clean_pass **pp, struct sps_reader *r,
    struct sps_cleanstream *cs, const struct sps_clean_pass_opts *o)
{
	struct sps_clean_pass *p;
	struct sps_device dev;
	enum sps_err e = SPS_OK;
	int n;

	if ((*pp = p = calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	p->r = r, p->cs = cs, p->o = *o;
	if (o->engine == SPS_ENGINE_CPU)
		return SPS_OK;
	if ((o->engine == SPS_ENGINE_ANY && (e = sps_device_list(&dev, 1,
	    &n)) != SPS_OK) || (e = open_gpu(r, o,
	    sps_cleanstream_block_max(cs), &p->g)) != SPS_OK) {
		if (o->engine == SPS_ENGINE_GPU)
			return sps_fail(e, "GPU %d: %s", o->device,
			    sps_errmsg());
		snprintf(p->info.note, sizeof(p->info.note), "%s",
		    sps_errmsg());
	}
	p->info.on_gpu = p->g != NULL;
	return SPS_OK;
}

enum sps_err
sps_clean_pass_run(struct sps_clean_pass *p, struct sps_writer *w)
{
	if (p->g == NULL)
		return pass_cpu(p->r, w, p->cs, &p->o, &p->info);
	return pass_gpu(p->r, w, p->cs, p->g, &p->o, &p->info);
}

void
sps_clean_pass_info(const struct sps_clean_pass *p,
    struct sps_clean_pass_info *info)
{
	*info = p->info;
}

void
sps_clean_pass_free(struct sps_clean_pass *p)
{
	if (p == NULL)
		return;
	sps_gpu_clean_free(p->g);
	free(p);
}
