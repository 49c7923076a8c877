/* planreport.h: what sps-plan shows of a plan made by a recipe
 * (planmake.h): the text plan with a comment saying how it was made, the
 * JSON with the figures the report gives, and the report itself: the
 * smearing of each range of trials, the S/N it keeps, the work and the
 * memory. */
#ifndef SPS_PLANREPORT_H
#define SPS_PLANREPORT_H

#include <stdio.h>

#include "error.h"
#include "planmake.h"

#define SPS_PLAN_TYPICAL_WIDTH	1e-3	/* s: a burst's width, for the S/N */

/* Write m's plan as a text plan (sps_plan_write) whose comment says
 * how r made it. */
enum sps_err sps_plan_write_made(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r);

/* Write m's plan as JSON (sps_plan_json) with its ranges and the members
 * "mode", "diagonal_dm", "work_per_second", "nsamps_gulp", "max_delay",
 * "memory_bytes", "noise_window", "gpu_gulp", "memory" (every stage's,
 * stagemem.h) and, when DDplan.py made it, its lines as "ddplan". */
enum sps_err sps_plan_json_made(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r);

/* sps-plan's report: DDplan.py's table when it made the plan, the trials
 * and the observation, a table of the ranges' smearing (ms) with the S/N
 * kept by a pulse as wide as the range's narrowest boxcar (one scrunched
 * sample) and by one of SPS_PLAN_TYPICAL_WIDTH, the work per second of
 * data (and for the data's samples when known) and a table of the memory
 * of every stage of a search (stagemem.h) for blocks of r's gulp. */
void sps_plan_report(FILE *f, const struct sps_plan_made *m,
    const struct sps_plan_recipe *r);

#endif
