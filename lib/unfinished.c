/* unfinished.c: the list of temporary output files (unfinished.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unfinished.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char **paths;		/* NULL slots are free */
static size_t npaths;

static enum sps_err
add_locked(char *copy)
{
	size_t i;
	char **grown;

	for (i = 0; i < npaths; i++)
		if (paths[i] == NULL) {
			paths[i] = copy;
			return SPS_OK;
		}
	grown = realloc(paths, (npaths * 2 + 16) * sizeof(*paths));
	if (grown == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	paths = grown;
	memset(paths + npaths, 0, (npaths + 16) * sizeof(*paths));
	paths[npaths] = copy;
	npaths = npaths * 2 + 16;
	return SPS_OK;
}

enum sps_err
sps_unfinished_add(const char *path)
{
	char *copy = strdup(path);
	enum sps_err e;

	if (copy == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	pthread_mutex_lock(&lock);
	e = add_locked(copy);
	pthread_mutex_unlock(&lock);
	if (e != SPS_OK)
		free(copy);
	return e;
}

void
sps_unfinished_forget(const char *path)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < npaths; i++)
		if (paths[i] != NULL && strcmp(paths[i], path) == 0) {
			free(paths[i]);
			paths[i] = NULL;
			break;
		}
	pthread_mutex_unlock(&lock);
}

int
sps_unfinished_remove_all(void)
{
	size_t i;
	int n = 0;

	pthread_mutex_lock(&lock);
	for (i = 0; i < npaths; i++)
		if (paths[i] != NULL && unlink(paths[i]) == 0) {
			n++;
			free(paths[i]);
			paths[i] = NULL;
		}
	for (i = 0; i < npaths; i++)	/* folders, once emptied */
		if (paths[i] != NULL) {
			n += rmdir(paths[i]) == 0;
			free(paths[i]);
			paths[i] = NULL;
		}
	free(paths);
	paths = NULL;
	npaths = 0;
	pthread_mutex_unlock(&lock);
	return n;
}
