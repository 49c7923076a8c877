/* candset.h: the candidate files of a search (sps-search): the table on
 * the standard output and, given a directory, candidates.cand (Heimdall's
 * columns), candidates.singlepulse (PRESTO's) and candidates.txt (the
 * table), each written under a temporary name until complete. */
#ifndef SPS_CANDSET_H
#define SPS_CANDSET_H

#include "candsink.h"
#include "error.h"
#include "writer.h"

#define SPS_CANDSET_MAX	4

/* The outputs, in order: file (in the directory; NULL: the standard
 * output) and format. */
struct sps_candset_file {
	const char		*file;
	enum sps_cand_format	 format;
};
extern const struct sps_candset_file sps_candset_files[SPS_CANDSET_MAX];

struct sps_candset {
	int			 n;	/* 1, or all with a directory */
	struct sps_writer	 w[SPS_CANDSET_MAX];
	struct sps_cand_sink	 sink[SPS_CANDSET_MAX];
};

/* Open the table, and with dir (made if missing) the files, for
 * candidates of samples of tsamp s. */
enum sps_err sps_candset_open(struct sps_candset *s, const char *dir,
    double tsamp);
enum sps_err sps_candset_put(struct sps_candset *s, const struct sps_cand *c);
/* Finish every output and rename the files into place. */
enum sps_err sps_candset_close(struct sps_candset *s);

/* Make directory dir unless it is there.  One made here is listed as
 * unfinished (unfinished.h): a run that fails removes it if it is still
 * empty, unless sps_candset_dir_done(dir) said the run succeeded. */
enum sps_err sps_candset_dir(const char *dir);
void sps_candset_dir_done(const char *dir);

#endif
