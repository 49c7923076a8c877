/* cli.c: shared main helpers (see cli.h). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "reader.h"
#include "unfinished.h"
#include "writer.h"

static const char *progname = "sps";
static int progress_shown;	/* characters of the line on show */

static const int stop_signals[] = { SIGHUP, SIGINT, SIGTERM };
#define NSTOP_SIGNALS	(int)(sizeof(stop_signals) / sizeof(stop_signals[0]))

static void
remove_unfinished(void)
{
	sps_unfinished_remove_all();
}

/* The one thread that takes the stop signals: it removes the unfinished
 * outputs, then lets the signal end the process as it would have. */
static void *
await_stop(void *arg)
{
	sigset_t *set = arg;
	int sig;

	if (sigwait(set, &sig) != 0)
		return NULL;
	sps_unfinished_remove_all();
	signal(sig, SIG_DFL);
	sigemptyset(set);
	sigaddset(set, sig);
	pthread_sigmask(SIG_UNBLOCK, set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* Block the stop signals in every thread to come (a signal that was
 * ignored when we started, as in a background job, stays ignored) and
 * leave them to await_stop. */
static void
watch_stop_signals(void)
{
	static sigset_t set;
	struct sigaction old;
	pthread_t tid;
	int i;

	sigemptyset(&set);
	for (i = 0; i < NSTOP_SIGNALS; i++)
		if (sigaction(stop_signals[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaddset(&set, stop_signals[i]);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0 ||
	    pthread_create(&tid, NULL, await_stop, &set) != 0) {
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		return;
	}
	pthread_detach(tid);
}

/* After the CUDA runtime's own exit handlers, registered later. */
static void
trace_exit(void)
{
	sps_trace("exit");
}

void
cli_init(const char *name, char **argv)
{
	sps_trace("start");
	progname = name;
	argv[0] = (char *)name;	/* getopt names the program after it */
	signal(SIGPIPE, SIG_IGN);
	atexit(remove_unfinished);
	atexit(trace_exit);
	watch_stop_signals();
	cli_progress_start();
}

double
cli_double(const char *text, const char *option, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end != '\0' || !isfinite(v))
		errx(2, "%s: '%s' is not a number", option, text);
	if (errno != 0 || v < lo || v > hi)
		errx(2, "%s: %s is out of range [%g, %g]", option, text, lo,
		    hi);
	return v;
}

long long
cli_long(const char *text, const char *option, long long lo, long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (end == text || *end != '\0')
		errx(2, "%s: '%s' is not an integer", option, text);
	if (errno != 0 || v < lo || v > hi)
		errx(2, "%s: %s is out of range [%lld, %lld]", option, text, lo,
		    hi);
	return v;
}

void
cli_binary_output(const char *output)
{
	if (output == NULL && isatty(STDOUT_FILENO))
		errx(2, "binary data are not for a terminal: redirect the "
		    "output or give -o FILE (-o - writes them anyway)");
}

void
cli_arg(char **argv, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (n = 0; argv[n] != NULL; n++)
		;
	if (n >= CLI_MAXARGS - 1)
		errx(1, "internal error: too many arguments");
	va_start(ap, fmt);
	if (vasprintf(&argv[n], fmt, ap) < 0)
		err(1, NULL);
	va_end(ap);
}

void
cli_sibling(char **argv, const char *name)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	memset(argv, 0, CLI_MAXARGS * sizeof(*argv));
	if (n > 0 && (self[n] = '\0', slash = strrchr(self, '/')) != NULL) {
		*slash = '\0';
		cli_arg(argv, "%s/%s", self, name);
	} else
		cli_arg(argv, "%s", name);
}

void
cli_long_hint(int argc, char **argv, const struct option *longopts)
{
	const struct option *o;
	size_t n;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (argv[i][0] != '-' || argv[i][1] == '-' ||
		    strlen(argv[i]) < 3)
			continue;
		n = strcspn(argv[i] + 1, "=");
		for (o = longopts; o->name != NULL; o++)
			if (strlen(o->name) == n && strncmp(o->name, argv[i] + 1,
			    n) == 0)
				errx(2, "%.*s: did you mean -%.*s?", (int)n + 1,
				    argv[i], (int)n + 1, argv[i]);
	}
}

void
cli_range(int argc, char **argv, const char *option, double min,
    double max, double *lo, double *hi, const char *usage)
{
	*lo = cli_double(optarg, option, min, max);
	if (optind >= argc)
		cli_usage_error(usage, "%s needs two values: LO HI", option);
	*hi = cli_double(argv[optind++], option, min, max);
	if (*hi < *lo)
		cli_usage_error(usage, "%s %g %g: HI is below LO", option, *lo,
		    *hi);
}

void
cli_version(void)
{
	printf("%s %s\n", progname, SPS_VERSION);
	exit(0);
}

void
cli_check(enum sps_err code, const char *what)
{
	if (code == SPS_OK)
		return;
	if (code == SPS_EUPSTREAM)
		exit(1);	/* the stage before has said why */
	if (what != NULL)
		errx(1, "%s: %s", what, sps_errmsg());
	errx(1, "%s", sps_errmsg());
}

void
cli_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(1, fmt, ap);
}

void
cli_bad_value(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(2, fmt, ap);
}

void
cli_usage(const char *usage, int status)
{
	fprintf(status == 0 ? stdout : stderr, "%s", usage);
	exit(status);
}

void
cli_help(const char *usage, const char *options)
{
	printf("%s\n%s", usage, options);
	exit(0);
}

void
cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s", usage);
	exit(2);
}

static double progress_start;
static double progress_every = 1;	/* s between lines; SPS_PROGRESS_EVERY */

double
cli_now(void)
{
	return sps_clock();
}

void
cli_progress_start(void)
{
	const char *every = getenv("SPS_PROGRESS_EVERY");

	progress_start = cli_now();
	if (every != NULL && *every != '\0')
		progress_every = atof(every);
}

void
cli_progress(int quiet, double fraction, double data_seconds)
{
	static double last;
	double t, start = progress_start;

	if (quiet || !isatty(STDERR_FILENO))
		return;
	t = cli_now();
	if (last == 0)
		last = start;
	if (t - last < progress_every)
		return;
	last = t;
	progress_shown = fprintf(stderr, "\r%s: %3.0f%% (%.1fx real time",
	    progname, 100 * fraction, data_seconds / (t - start));
	if (fraction > 0.01 && fraction < 1)
		progress_shown += fprintf(stderr, ", %.0f s left", (t - start) *
		    (1 - fraction) / fraction);
	progress_shown += fprintf(stderr, ")   ");
}

void
cli_progress_clear(void)
{
	if (progress_shown > 0)
		fprintf(stderr, "\r%*s\r", progress_shown, "");
	progress_shown = 0;
}

void
cli_progress_done(int quiet)
{
	if (!quiet && progress_shown)
		fprintf(stderr, "\n");
	progress_shown = 0;
}

void
cli_cut_warning(const char *name, uint64_t bytes, int more_files)
{
	if (bytes == 0)
		return;
	if (progress_shown)	/* end the progress line first */
		fprintf(stderr, "\n");
	progress_shown = 0;
	fprintf(stderr, "%s: %s: %llu bytes after the last whole spectrum "
	    "ignored (a cut recording?)", progname, name,
	    (unsigned long long)bytes);
	if (more_files > 0)
		fprintf(stderr, "; %d more joined file%s cut too", more_files,
		    more_files == 1 ? " is" : "s are");
	fprintf(stderr, "\n");
}

void
cli_reader_close(struct sps_reader *r)
{
	cli_cut_warning(r->cut_name, r->cut_bytes, r->cut_files - 1);
	sps_reader_close(r);
}

void
cli_check_output(struct sps_writer *w, enum sps_err e, const char *what)
{
	if (e == SPS_OK)
		return;
	sps_writer_abort(w);
	cli_check(e, what);
}

int
cli_nbits(const char *text, const char *option)
{
	long long b = cli_long(text, option, 1, 32);

	if ((b & (b - 1)) != 0)
		cli_bad_value("%s: '%s' is not one of 1, 2, 4, 8, 16, 32",
		    option, text);
	return (int)b;
}

void
cli_output_fail(struct sps_writer *w)
{
	char detail[512];

	snprintf(detail, sizeof(detail), "%s", sps_errmsg());
	sps_writer_abort(w);
	errx(1, "%s", detail);
}

void
cli_stream_fail(struct sps_writer *w)
{
	sps_writer_failed(w, SPS_EIO);
	cli_output_fail(w);
}

const char *
cli_input(int argc, char **argv, const char *usage)
{
	if (argc - optind > 1)
		cli_usage_error(usage, "one input file at most, not '%s' too",
		    argv[optind + 1]);
	return optind < argc ? argv[optind] : "-";
}
