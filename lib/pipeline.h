/* pipeline.h: a pipe of programs run as a shell runs "a | b | c > out":
 * each one's standard output goes to the next one's standard input, the
 * last one's to a file descriptor, standard error to ours. */
#ifndef SPS_PIPELINE_H
#define SPS_PIPELINE_H

#include "error.h"

/* Run the n commands argv[0] .. argv[n - 1] (each a NULL-ended argument
 * list; the program found as execvp finds it) and wait for all of them.
 * failed gets the index of the first one that did not exit 0 (-1: none)
 * and status its wait status.  SPS_EIO when a pipe or a process cannot
 * be made. */
enum sps_err sps_pipeline_run(char *const *const *argv, int n, int out_fd,
    int *failed, int *status);

#endif
