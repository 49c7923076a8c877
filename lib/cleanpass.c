/* cleanpass.c: an input cleaned onto a writer (cleanpass.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cleanpass.h"
#include "dedisp_engine.h"
#include "devices.h"
#include "gpu_clean.h"
#include "psrfits.h"

#define RUN_BYTES	((size_t)256 << 20)	/* a GPU run's spectra */

/* Up to n spectra (floats, or raw bytes), as many as the input has (a
 * pipe gives fewer at a time); SPS_EEOF with *got 0 at the end. */
static enum sps_err
read_spectra(struct sps_reader *r, void *buf, size_t n, int raw,
    size_t *got)
{
	size_t part, width = raw ? sps_spectrum_bytes(&r->hdr) :
	    sps_spectrum_values(&r->hdr) * sizeof(float);
	enum sps_err e = SPS_OK;

	*got = 0;
	while (*got < n && (e = raw ? sps_reader_read_raw(r, (unsigned char *)
	    buf + *got * width, n - *got, &part) : sps_reader_read(r,
	    (float *)(void *)((char *)buf + *got * width), n - *got, &part)) ==
	    SPS_OK)
		*got += part;
	if (e == SPS_EEOF && *got > 0)
		e = SPS_OK;
	return e;
}

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
	while ((e = read_spectra(r, buf, sps_cleanstream_begin(cs, at), 0,
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

static enum sps_err
pass_gpu(struct sps_reader *r, struct sps_writer *w,
    struct sps_cleanstream *cs, struct sps_gpu_clean *g,
    const struct sps_clean_pass_opts *o, struct sps_clean_pass_info *info)
{
	size_t sb = sps_spectrum_bytes(&r->hdr), max = RUN_BYTES / sb, got;
	size_t block = sps_cleanstream_block_max(cs);
	unsigned char *raw = NULL;
	uint64_t at = 0;
	enum sps_err e;
	double t0;

	max = max > block ? max / block * block : block;
	if ((e = sps_device_host_alloc((void **)&raw, max * sb, "the spectra "
	    "to clean")) != SPS_OK)
		return e;
	while (e == SPS_OK && (e = read_spectra(r, raw, run_length(cs, at,
	    max), 1, &got)) == SPS_OK) {
		t0 = sps_clock();
		e = sps_gpu_clean_host(g, cs, raw, got, at);
		info->seconds += sps_clock() - t0;
		if (e != SPS_OK || (e = sps_writer_raw(w, raw, got * sb)) !=
		    SPS_OK)
			break;
		at += got;
		if (o->on_progress != NULL)
			o->on_progress(r, at);
	}
	sps_device_host_free(raw);
	info->quantised = sps_gpu_clean_quantised(g);
	return e == SPS_EEOF ? SPS_OK : e;
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
