/* cleanopts.h: the interference excision options that sps-clean and
 * sps-search share: their names, their ranges and their conflicts in one
 * place, and the arguments that spell a setting out for sps-clean
 * (sps-search --pipe), so that the two tools cannot drift apart. */
#ifndef SPS_CLEANOPTS_H
#define SPS_CLEANOPTS_H

#include <getopt.h>

#include "cleanstream.h"

/* getopt_long's values of the cleaning options, above any tool's own. */
enum {
	CLEANOPT_ZERODM = 1024, CLEANOPT_ZDOT, CLEANOPT_CLIP, CLEANOPT_NOCLIP,
	CLEANOPT_CLIP_WIDTH, CLEANOPT_SK, CLEANOPT_SK_N, CLEANOPT_IQRM,
	CLEANOPT_NOIQRM, CLEANOPT_IQRM_RADIUS, CLEANOPT_HOLD, CLEANOPT_MASK,
	CLEANOPT_BLOCK, CLEANOPT_REPORT
};

/* The entries of a tool's struct option array for the options both
 * tools spell alike; each names CLEANOPT_BLOCK and CLEANOPT_REPORT its
 * own way (sps-clean's --block, sps-search's --clean-block). */
#define CLEANOPTS_LONGOPTS \
	{ "zerodm", no_argument, NULL, CLEANOPT_ZERODM }, \
	{ "zdot", no_argument, NULL, CLEANOPT_ZDOT }, \
	{ "clip", required_argument, NULL, CLEANOPT_CLIP }, \
	{ "noclip", no_argument, NULL, CLEANOPT_NOCLIP }, \
	{ "clip-width", required_argument, NULL, CLEANOPT_CLIP_WIDTH }, \
	{ "sk", required_argument, NULL, CLEANOPT_SK }, \
	{ "sk-n", required_argument, NULL, CLEANOPT_SK_N }, \
	{ "iqrm", required_argument, NULL, CLEANOPT_IQRM }, \
	{ "noiqrm", no_argument, NULL, CLEANOPT_NOIQRM }, \
	{ "iqrm-radius", required_argument, NULL, CLEANOPT_IQRM_RADIUS }, \
	{ "hold", required_argument, NULL, CLEANOPT_HOLD }, \
	{ "mask", required_argument, NULL, CLEANOPT_MASK }

struct cleanopts {
	struct sps_clean_setup setup;	/* sps-clean's defaults, then the
					 * options given */
	const char	*first;		/* the first cleaning option given,
					 * as spelt in longopts; NULL: none */
	int		 zerodm_code;	/* CLEANOPT_ZERODM or _ZDOT given */
};

void cleanopts_init(struct cleanopts *co);

/* getopt_long's c and optarg: 1 when c is a cleaning option, its value
 * range-checked and set; 0 when it is not.  A value out of range is one
 * line and exit 2; --zerodm with --zdot a usage error (usage).  Names in
 * messages are longopts' (c's entry). */
int cleanopts_parse(struct cleanopts *co, int c, const char *arg,
    const struct option *longopts, const char *usage);

/* Append to argv (cli_arg) the options that give sps-clean the setting
 * s, every one spelt out, defaults too; not the kill masks, not the
 * input. */
void cleanopts_args(char **argv, const struct sps_clean_setup *s);

#endif
