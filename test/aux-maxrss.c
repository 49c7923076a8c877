/* aux-maxrss: the peak resident memory of a command.
 *
 *	aux-maxrss FILE COMMAND [ARG ...]
 *
 * Runs COMMAND with this program's standard input, output and error,
 * waits for it, writes its peak resident set size in bytes (getrusage's
 * ru_maxrss of the child) on one line of FILE, and exits with its
 * status (128 + the signal if a signal ended it). */
#include <err.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	FILE *f;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: aux-maxrss FILE COMMAND [ARG ...]\n");
		return 2;
	}
	if ((pid = fork()) < 0)
		err(2, "fork");
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		err(127, "%s", argv[2]);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		err(2, "wait4");
	if ((f = fopen(argv[1], "w")) == NULL)
		err(2, "%s", argv[1]);
	fprintf(f, "%.0f\n", (double)ru.ru_maxrss * 1024);
	if (fclose(f) != 0)
		err(2, "%s", argv[1]);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
