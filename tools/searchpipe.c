/* searchpipe.c: sps-search --pipe (searchpipe.h). */
#include <err.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "candset.h"
#include "cli.h"
#include "pipeline.h"
#include "searchpipe.h"
#include "unfinished.h"

static void
stage_args(char **dd, char **bx, const struct search_options *o)
{
	const struct sps_searchrun_opts *ro = &o->run;

	cli_sibling(dd, "sps-dedisperse");
	cli_sibling(bx, "sps-boxcar");
	if (o->quiet) {
		cli_arg(dd, "-q");
		cli_arg(bx, "-q");
	}
	if (ro->dedisp.engine == SPS_ENGINE_CPU) {
		cli_arg(dd, "--cpu");
		cli_arg(bx, "--cpu");
	} else if (ro->dedisp.engine == SPS_ENGINE_GPU) {
		cli_arg(dd, "--device=%d", ro->dedisp.device);
		cli_arg(bx, "--device=%d", ro->dedisp.device);
	}
	if (o->plan_file != NULL)
		cli_arg(dd, "--plan=%s", o->plan_file);
	else {
		cli_arg(dd, "--dm=%.17g", o->dm_lo);
		cli_arg(dd, "%.17g", o->dm_hi);
		cli_arg(dd, "--dm_tol=%.17g", o->tol);
		cli_arg(dd, "--dm_pulse_width=%.17g", o->width_us);
	}
	if (o->scrunch)
		cli_arg(dd, "--scrunch");
	cli_arg(dd, "--algo=%s", sps_dedisp_algo_name(ro->dedisp.plan.algo));
	if (ro->search.white)
		cli_arg(bx, "--white");
	if (ro->search.baseline > 0)
		cli_arg(bx, "--baseline=%.17g", ro->search.baseline);
	if (ro->killfile != NULL)
		cli_arg(dd, "--killmask=%s", ro->killfile);
	if (ro->ignorechan != NULL)
		cli_arg(dd, "--ignorechan=%s", ro->ignorechan);
	if (ro->dedisp.plan.nthreads > 0) {
		cli_arg(dd, "--threads=%d", ro->dedisp.plan.nthreads);
		cli_arg(bx, "--threads=%d", ro->dedisp.plan.nthreads);
	}
	cli_arg(dd, "%s", o->no_clean ? o->input : "-");
	cli_arg(bx, "--algorithm=%s", ro->search.algorithm);
	cli_arg(bx, "--threshold=%.17g", ro->search.threshold);
	cli_arg(bx, "--max-width=%d", ro->search.max_width);
}

/* sps-clean with every setting of the fused path's cleaning spelt out. */
static void
clean_args(char **cl, const struct search_options *o)
{
	const struct sps_searchrun_opts *ro = &o->run;

	cli_sibling(cl, "sps-clean");
	cli_arg(cl, "-q");
	if (ro->dedisp.engine == SPS_ENGINE_CPU)
		cli_arg(cl, "--cpu");
	else if (ro->dedisp.engine == SPS_ENGINE_GPU)
		cli_arg(cl, "--device=%d", ro->dedisp.device);
	cleanopts_args(cl, &o->clean.setup);
	if (ro->killfile != NULL)
		cli_arg(cl, "--killmask=%s", ro->killfile);
	if (ro->ignorechan != NULL)
		cli_arg(cl, "--ignorechan=%s", ro->ignorechan);
	cli_arg(cl, "%s", o->input);
}

static void
run_stages(char **argv[], int n, int out_fd)
{
	int failed, status, i, j;

	cli_check(sps_pipeline_run((char *const *const *)argv, n, out_fd,
	    &failed, &status), NULL);
	if (failed >= 0 && WIFSIGNALED(status))
		errx(1, "stage failed: %s killed by signal %d",
		    basename(argv[failed][0]), WTERMSIG(status));
	if (failed >= 0)
		errx(1, "stage failed: %s exited %d",
		    basename(argv[failed][0]), WEXITSTATUS(status));
	for (i = 0; i < n; i++)
		for (j = 0; argv[i][j] != NULL; j++)
			free(argv[i][j]);
}

/* [sps-clean |] sps-dedisperse | sps-boxcar > events, then sps-peaks for
 * each output. */
int
search_pipe_run(const struct search_options *o)
{
	static const char *const formats[] = { "text", "heimdall", "presto" };
	char *dd[CLI_MAXARGS], *bx[CLI_MAXARGS], *pk[CLI_MAXARGS], events[PATH_MAX];
	char *cl[CLI_MAXARGS];
	char **argv[3] = { dd, bx, NULL };
	const char *tmp = getenv("TMPDIR");
	int fd, i;

	snprintf(events, sizeof(events), "%s/sps-search.XXXXXX", tmp != NULL ?
	    tmp : "/tmp");
	if ((fd = mkstemp(events)) < 0)
		err(1, "%s", events);
	cli_check(sps_unfinished_add(events), NULL);	/* gone at any end */
	cli_check(sps_candset_dir(o->outdir), NULL);
	stage_args(dd, bx, o);
	if (!o->no_clean) {
		clean_args(cl, o);
		argv[0] = cl, argv[1] = dd, argv[2] = bx;
	}
	run_stages(argv, o->no_clean ? 2 : 3, fd);
	close(fd);
	for (i = 0; i < (o->outdir != NULL ? SPS_CANDSET_MAX : 1); i++) {
		cli_sibling(pk, "sps-peaks");
		cli_arg(pk, "-q");
		cli_arg(pk, "--threshold=%.17g", o->run.search.threshold);
		cli_arg(pk, "--format=%s", formats[sps_candset_files[i].format]);
		if (sps_candset_files[i].file != NULL)
			cli_arg(pk, "--output=%s/%s", o->outdir, sps_candset_files[i].file);
		cli_arg(pk, "%s", events);
		argv[0] = pk;
		run_stages(argv, 1, STDOUT_FILENO);
	}
	sps_candset_dir_done(o->outdir);
	sps_unfinished_remove_all();
	return 0;
}

