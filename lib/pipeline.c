/* pipeline.c: a pipe of programs (pipeline.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pipeline.h"

/* In the child: in and out as standard input and output, then the
 * program; 127 if it cannot be run, as a shell says. */
static void
child(char *const *argv, int in, int out)
{
	if ((in != STDIN_FILENO && dup2(in, STDIN_FILENO) < 0) ||
	    (out != STDOUT_FILENO && dup2(out, STDOUT_FILENO) < 0))
		_exit(127);
	if (in != STDIN_FILENO)
		close(in);
	if (out != STDOUT_FILENO)
		close(out);
	execvp(argv[0], argv);
	_exit(127);
}

static enum sps_err
start(char *const *const *argv, int n, int out_fd, pid_t *pid)
{
	int in = STDIN_FILENO, fd[2], i, out;

	for (i = 0; i < n; i++) {
		if (i < n - 1 && pipe(fd) != 0)
			return sps_fail(SPS_EIO, "pipe: %s", strerror(errno));
		out = i < n - 1 ? fd[1] : out_fd;
		if ((pid[i] = fork()) < 0)
			return sps_fail(SPS_EIO, "fork: %s", strerror(errno));
		if (pid[i] == 0) {
			if (i < n - 1)
				close(fd[0]);
			child(argv[i], in, out);
		}
		if (in != STDIN_FILENO)
			close(in);
		if (i < n - 1) {
			close(fd[1]);
			in = fd[0];
		}
	}
	return SPS_OK;
}

enum sps_err
sps_pipeline_run(char *const *const *argv, int n, int out_fd, int *failed,
    int *status)
{
	pid_t *pid = calloc((size_t)n, sizeof(pid_t));
	enum sps_err e;
	int i, st;

	*failed = -1;
	*status = 0;
	if (pid == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = start(argv, n, out_fd, pid);
	for (i = 0; i < n; i++) {
		if (pid[i] <= 0 || waitpid(pid[i], &st, 0) < 0)
			continue;
		if (*failed < 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			*failed = i;
			*status = st;
		}
	}
	free(pid);
	return e;
}
