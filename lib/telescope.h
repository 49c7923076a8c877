/* telescope.h: the telescope and backend codes of SIGPROC headers
 * (telescope_id, machine_id), their names, and the names that PSRFITS
 * files (TELESCOP, BACKEND) and users give them.
 *
 * The codes are SIGPROC's (aliases.c), with PRESTO's (sigproc_fb.c) for
 * those SIGPROC leaves unnamed.  Where the two differ, the name is
 * SIGPROC's and PRESTO's name maps to the code too: telescope 9 is
 * SIGPROC's 140ft and PRESTO's ATA, backend 7 SIGPROC's GMRTFB and
 * PRESTO's SPIGOT. */
#ifndef SPS_TELESCOPE_H
#define SPS_TELESCOPE_H

/* The name of a code, or NULL when unknown. */
const char *sps_telescope_name(int id);
const char *sps_machine_name(int id);

/* The code of a name or alias, matched without regard to case and up to
 * a character that is not a letter or digit ("ARECIBO 305m" is 1), or -1
 * when unknown. */
int sps_telescope_id(const char *name);
int sps_machine_id(const char *name);

#endif
