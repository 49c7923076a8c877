/* cli.h: what every sps tool's main shares: checked number parsing,
 * the --version line, and reporting lib/ errors as "sps-NAME: ...". */
#ifndef SPS_CLI_H
#define SPS_CLI_H

#include <stdint.h>

#include "error.h"

/* Parse optarg as a number within [lo, hi]; on failure print
 * "sps-NAME: OPTION: 'text' is not a number" or "sps-NAME: OPTION: text
 * is out of range [lo, hi]" and exit 2 (a usage error). */
double cli_double(const char *text, const char *option, double lo,
    double hi);
long long cli_long(const char *text, const char *option, long long lo,
    long long hi);
/* A SIGPROC nbits: 1, 2, 4, 8, 16 or 32, else a usage error (exit 2). */
int cli_nbits(const char *text, const char *option);

#define CLI_MAXARGS	32

/* Append printf(fmt, ...) as one more argument of argv (CLI_MAXARGS
 * pointers, NULL after the last; the strings are kept to the end). */
__attribute__((format(printf, 2, 3)))
void cli_arg(char **argv, const char *fmt, ...);
/* Start argv with a program beside this one (the same build), else the
 * one of that name on PATH. */
void cli_sibling(char **argv, const char *name);

struct option;

/* Binary data for the standard output (output NULL) are refused when the
 * standard output is a terminal, as gzip does: a usage error; "-o -"
 * writes them anyway. */
void cli_binary_output(const char *output);

/* Before getopt_long: an argument spelt as one of longopts with a single
 * dash (Heimdall's -dm, -boxcar_max) is "sps-NAME: -dm: did you mean
 * --dm?", exit 2, rather than a cluster of short options. */
void cli_long_hint(int argc, char **argv, const struct option *longopts);

/* The two values of an option of two, such as --dm LO HI: optarg and
 * the next argument, each a number within [min, max], with LO <= HI;
 * usage errors otherwise. */
void cli_range(int argc, char **argv, const char *option, double min,
    double max, double *lo, double *hi, const char *usage);

/* Print "sps-NAME VERSION" on standard output and exit 0. */
void cli_version(void) __attribute__((noreturn));

/* Exit 1 with "sps-NAME: [what: ]<lib detail>" when code != SPS_OK. */
void cli_check(enum sps_err code, const char *what);

/* Exit 1 with "sps-NAME: what" (printf-style). */
void cli_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* An option's value is wrong: "sps-NAME: ...", exit 2 (a usage error,
 * without the usage). */
__attribute__((noreturn, format(printf, 1, 2)))
void cli_bad_value(const char *fmt, ...);

/* The usage text on standard output and exit 0 (status 0), or on the
 * standard error and exit status. */
void cli_usage(const char *usage, int status) __attribute__((noreturn));

/* -h, --help: the usage text, a blank line and the option list (help.h)
 * on standard output, and exit 0. */
void cli_help(const char *usage, const char *options)
	__attribute__((noreturn));

/* Exit 2 after "sps-NAME: msg" and "usage: ..." (usage text given). */
void cli_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* The one input operand left after getopt_long: argv[optind], or "-"
 * (standard input) when there is none; a second operand is a usage error
 * naming it. */
const char *cli_input(int argc, char **argv, const char *usage);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* Data cut inside a spectrum (an aborted recording): the whole spectra
 * were used; say so once on the standard error, -q or not, as
 * "sps-NAME: FILE: N bytes after the last whole spectrum ignored (a cut
 * recording?)".  Nothing when bytes is 0; more_files counts other joined
 * files that were cut too. */
void cli_cut_warning(const char *name, uint64_t bytes, int more_files);

struct sps_reader;
/* cli_cut_warning for what r read, then sps_reader_close: where a tool is
 * done with its input. */
void cli_reader_close(struct sps_reader *r);

struct sps_writer;
/* Exit 1 with lib's last message after removing the unfinished output
 * of w (sps_writer_abort). */
void cli_output_fail(struct sps_writer *w) __attribute__((noreturn));
/* The same for a write to w's stream that went round the writer (lib's
 * message does not name the output): names it first, as the writer does. */
void cli_stream_fail(struct sps_writer *w) __attribute__((noreturn));
/* Nothing when e is SPS_OK; else as cli_check (what before the message)
 * after removing the unfinished output of w. */
void cli_check_output(struct sps_writer *w, enum sps_err e,
    const char *what);

/* Set the program name used in messages, argv[0] included (getopt's own
 * messages name the program after it, which may be a path); ignore
 * SIGPIPE, so that a closed pipe is a write error we report; and make
 * every way out but success remove the unfinished outputs (unfinished.h):
 * an exit (errx after an error) and SIGHUP, SIGINT and SIGTERM, which
 * then end the process as they would have (status 128 + signal). */
void cli_init(const char *name, char **argv);

/* Progress on stderr: "sps-NAME: 42% (3.1x real time)" at most once a
 * second; silent when quiet.  cli_progress_done ends the line. */
void cli_progress(int quiet, double fraction, double data_seconds);
/* Wipe the progress line on show (before output to the same terminal). */
void cli_progress_clear(void);
/* Restart the clock progress rates are measured from (cli_init starts
 * it). */
void cli_progress_start(void);
void cli_progress_done(int quiet);

#endif
