/* candmaker_h5.h: one candidate's HDF5 file in the layout FETCH reads,
 * as the `your' package's save_h5 writes it (sps-formats(5), FETCH
 * CANDIDATE FILES).  Built with libhdf5 only (SPS_HAVE_HDF5). */
#ifndef SPS_CANDMAKER_H5_H
#define SPS_CANDMAKER_H5_H

#include <stdint.h>

#include "error.h"
#include "header.h"

struct fetch_cand {
	const struct sps_header *h;	/* the data's header */
	const char	*data_file;	/* the data file's name */
	uint64_t	 nspectra;	/* the data's length */
	double		 tcand;		/* s: the boxcar's centre */
	double		 dm, snr;
	int		 width;		/* samples */
	int		 decimate;	/* samples a time bin */
	int		 time_size, freq_size, dm_size;
	const float	*freq_time;	/* time_size x freq_size */
	const float	*dm_time;	/* dm_size x time_size */
};

/* your's candidate id: cand_tstart_T_tcand_T_dm_D_snr_S (len bytes). */
void fetch_cand_id(const struct fetch_cand *c, char *id, size_t len);

/* Write c to path (created or truncated).  SPS_EIO naming path. */
enum sps_err fetch_h5_write(const char *path, const struct fetch_cand *c);

#endif
