/* planfile.h: a plan (plan.h) as text, the format sps-dedisperse reads
 * (sps-plan(1)), and as JSON. */
#ifndef SPS_PLANFILE_H
#define SPS_PLANFILE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

#define SPS_PLAN_VERSION	1

struct sps_plan;
struct sps_plan_range;

/* Read a text plan (or a plain list of DMs, one per line, optionally
 * with a scrunch factor) from f; name is used in messages.  Appends to p
 * and sets its observation when the file gives one.  SPS_EFORMAT for a
 * line that cannot be parsed, SPS_EVALUE for a bad value, SPS_ETRUNC
 * when fewer trials follow than its ntrials line says. */
enum sps_err sps_plan_read(FILE *f, const char *name, struct sps_plan *p);

/* Write p as a text plan; comment, if not NULL, goes first, each of its
 * lines after "# ".  Numbers are written so that reading them back gives
 * the same doubles. */
enum sps_err sps_plan_write(FILE *f, const struct sps_plan *p,
    const char *comment);

/* Write p as one JSON object: "format", "version", then extra (if not
 * NULL: more members, already JSON, e.g. "\"mode\": \"dedisp\""), the
 * observation, "ntrials", "ranges" when nranges > 0, and
 * "trials": [{"dm": ..., "scrunch": ...}, ...] in plan order. */
enum sps_err sps_plan_json(FILE *f, const struct sps_plan *p,
    const struct sps_plan_range *ranges, size_t nranges, const char *extra);

#endif
