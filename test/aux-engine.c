/* aux-engine: the dedispersion engine (dedisp_engine.h) driven as an
 * in-process consumer drives it, for the GPU tests.
 *
 *	aux-engine [-c | -g | -d] [-b BLOCK] FILE PLAN
 *
 * Dedisperses FILE at the trials of PLAN (an sps-plan file) on the CPU
 * (-c), the GPU with blocks copied to the host (-g) or the GPU with blocks
 * left on the device (-d, each then copied back here), and writes every
 * block's values as float32 on standard output, one block after another.
 * The three must give the same bytes. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dedisp_engine.h"
#include "devices.h"
#include "plan.h"
#include "planfile.h"

static void
read_plan(const char *path, const struct sps_header *h, struct sps_plan *p)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		err(2, "%s", path);
	sps_plan_init(p);
	if (sps_plan_read(f, path, p) != SPS_OK ||
	    sps_plan_match(p, h) != SPS_OK)
		errx(2, "%s: %s", path, sps_errmsg());
	fclose(f);
}

int
main(int argc, char **argv)
{
	struct sps_dedisp_engine_opts o;
	struct sps_dedisp_engine *eng;
	struct sps_reader r;
	struct sps_plan plan;
	const float *block;
	float *host = NULL;
	size_t n, nv;
	int ch;

	memset(&o, 0, sizeof(o));
	o.engine = SPS_ENGINE_CPU;
	o.block = 16384;
	while ((ch = getopt(argc, argv, "b:cdg")) != -1)
		switch (ch) {
		case 'b':
			o.block = (size_t)atol(optarg);
			break;
		case 'c':
			o.engine = SPS_ENGINE_CPU;
			break;
		case 'd':
			o.engine = SPS_ENGINE_GPU;
			o.on_device = 1;
			break;
		case 'g':
			o.engine = SPS_ENGINE_GPU;
			break;
		default:
			errx(2, "usage: aux-engine [-c | -g | -d] [-b BLOCK] "
			    "FILE PLAN");
		}
	if (argc - optind != 2)
		errx(2, "usage: aux-engine [-c | -g | -d] [-b BLOCK] FILE PLAN");
	if (sps_reader_open(&r, argv[optind]) != SPS_OK)
		errx(2, "%s", sps_errmsg());
	read_plan(argv[optind + 1], &r.hdr, &plan);
	if (sps_dedisp_engine_create(&eng, &r, plan.dm, plan.scrunch,
	    (int)plan.ntrials, NULL, &o) != SPS_OK)
		errx(1, "%s", sps_errmsg());
	for (;;) {
		if (sps_dedisp_engine_next(eng, &block, &n) != SPS_OK)
			errx(1, "%s", sps_errmsg());
		if (n == 0)
			break;
		nv = sps_dedisp_out_size(sps_dedisp_engine_plan(eng), n);
		if (o.on_device) {
			if ((host = realloc(host, nv * sizeof(float) + 1)) ==
			    NULL)
				err(2, NULL);
			if (sps_device_copy_to_host(host, block, nv *
			    sizeof(float)) != SPS_OK)
				errx(1, "%s", sps_errmsg());
			block = host;
		}
		if (fwrite(block, sizeof(float), nv, stdout) != nv)
			err(1, "stdout");
	}
	free(host);
	sps_dedisp_engine_free(eng);
	sps_plan_free(&plan);
	sps_reader_close(&r);
	return fflush(stdout) == 0 ? 0 : 1;
}
