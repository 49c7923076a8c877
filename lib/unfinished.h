/* unfinished.h: the output files a process is still writing.
 *
 * Every output is written under a temporary name and renamed when
 * complete (writer.h).  Until then its temporary name is listed here, so
 * that one call removes them all when the process stops early: on an
 * error exit, a closed pipe or a signal (the tools' cli_init arranges
 * both).  The list is guarded by a mutex: any thread may add or forget. */
#ifndef SPS_UNFINISHED_H
#define SPS_UNFINISHED_H

#include "error.h"

/* List path (copied).  SPS_ENOMEM if it cannot be. */
enum sps_err sps_unfinished_add(const char *path);

/* Take path off the list (it was renamed into place or removed). */
void sps_unfinished_forget(const char *path);

/* Remove every listed file, then every listed folder left empty, and
 * empty the list; returns how many were removed. */
int sps_unfinished_remove_all(void);

#endif
