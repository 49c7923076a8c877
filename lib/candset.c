/* candset.c: the candidate files of a search (candset.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "candset.h"
#include "unfinished.h"

const struct sps_candset_file sps_candset_files[SPS_CANDSET_MAX] = {
	{ NULL, SPS_CAND_TEXT },
	{ "candidates.cand", SPS_CAND_HEIMDALL },
	{ "candidates.singlepulse", SPS_CAND_PRESTO },
	{ "candidates.txt", SPS_CAND_TEXT },
};

enum sps_err
sps_candset_dir(const char *dir)
{
	if (dir == NULL)
		return SPS_OK;
	if (mkdir(dir, 0777) == 0)
		return sps_unfinished_add(dir);
	if (errno != EEXIST)
		return sps_fail(SPS_EIO, "%s: %s", dir, strerror(errno));
	return SPS_OK;
}

void
sps_candset_dir_done(const char *dir)
{
	if (dir != NULL)
		sps_unfinished_forget(dir);
}

enum sps_err
sps_candset_open(struct sps_candset *s, const char *dir, double tsamp)
{
	struct sps_cand_out out;
	enum sps_err e;
	char *path;
	int i;

	memset(s, 0, sizeof(*s));
	if ((e = sps_candset_dir(dir)) != SPS_OK)
		return e;
	for (i = 0; i < (dir != NULL ? SPS_CANDSET_MAX : 1); i++) {
		path = NULL;
		if (sps_candset_files[i].file != NULL && asprintf(&path,
		    "%s/%s", dir, sps_candset_files[i].file) < 0)
			return sps_fail(SPS_ENOMEM, "out of memory");
		e = sps_writer_open(&s->w[i], path);
		free(path);
		if (e != SPS_OK)
			return e;
		sps_cand_out_init(&out, sps_candset_files[i].format,
		    s->w[i].f, tsamp);
		sps_cand_sink_init(&s->sink[i], &out, NULL);
		s->n++;
	}
	return SPS_OK;
}

enum sps_err
sps_candset_put(struct sps_candset *s, const struct sps_cand *c)
{
	enum sps_err e;
	int i;

	for (i = 0; i < s->n; i++)
		if ((e = sps_cand_sink_put(&s->sink[i], c)) != SPS_OK)
			return e;
	return SPS_OK;
}

enum sps_err
sps_candset_close(struct sps_candset *s)
{
	enum sps_err e = SPS_OK;
	int i;

	for (i = 0; i < s->n; i++) {
		if (e == SPS_OK)
			e = sps_cand_sink_close(&s->sink[i]);
		if (e == SPS_OK)
			e = sps_writer_close(&s->w[i]);
		else
			sps_writer_abort(&s->w[i]);
		sps_cand_sink_free(&s->sink[i]);
	}
	s->n = 0;
	return e;
}
