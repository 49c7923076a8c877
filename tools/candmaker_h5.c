/* candmaker_h5.c: FETCH's candidate files through libhdf5
 * (candmaker_h5.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <hdf5.h>

#include "candmaker_h5.h"
#include "reader.h"

#define MJD_UNIX	40587.0	/* MJD of 1970-01-01 */

void
fetch_cand_id(const struct fetch_cand *c, char *id, size_t len)
{
	snprintf(id, len, "cand_tstart_%.12f_tcand_%.7f_dm_%.5f_snr_%.5f",
	    c->h->tstart, c->tcand, c->dm, c->snr);
}

/* Each helper returns < 0 on failure, as the HDF5 calls do. */
static herr_t
attr(hid_t f, const char *name, hid_t type, const void *value)
{
	hid_t space = H5Screate(H5S_SCALAR), a;
	herr_t st = -1;

	if (space < 0)
		return -1;
	a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
	if (a >= 0) {
		st = H5Awrite(a, type, value);
		H5Aclose(a);
	}
	H5Sclose(space);
	return st;
}

static herr_t
attr_double(hid_t f, const char *name, double v)
{
	return attr(f, name, H5T_NATIVE_DOUBLE, &v);
}

static herr_t
attr_int(hid_t f, const char *name, int64_t v)
{
	return attr(f, name, H5T_NATIVE_INT64, &v);
}

/* A string as h5py writes a Python str: variable length, UTF-8. */
static herr_t
attr_string(hid_t f, const char *name, const char *s)
{
	hid_t type = H5Tcopy(H5T_C_S1);
	herr_t st;

	if (type < 0)
		return -1;
	st = H5Tset_size(type, H5T_VARIABLE);
	if (st >= 0)
		st = H5Tset_cset(type, H5T_CSET_UTF8);
	if (st >= 0)
		st = attr(f, name, type, &s);
	H5Tclose(type);
	return st;
}

static const char *
dtype_name(int nbits)
{
	return nbits <= 8 ? "uint8" : nbits == 16 ? "uint16" : "float32";
}

static void
utc_of(double mjd, char *buf, size_t len)
{
	double s = (mjd - MJD_UNIX) * 86400.0;
	time_t whole = (time_t)floor(s);
	struct tm tm;

	gmtime_r(&whole, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03d",
	    (int)floor((s - floor(s)) * 1000));
}

static const char *
base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? path : slash + 1;
}

static herr_t
header_attrs(hid_t f, const struct fetch_cand *c)
{
	const struct sps_header *h = c->h;
	double bw = h->nchans * h->foff;
	char utc[64], base[256];
	herr_t st = 0;

	snprintf(base, sizeof(base), "%s", base_of(c->data_file));
	if (strrchr(base, '.') != NULL)
		*strrchr(base, '.') = '\0';
	utc_of(h->tstart, utc, sizeof(utc));
	st |= attr_string(f, "filelist", c->data_file);
	st |= attr_string(f, "filename", c->data_file);
	st |= attr_string(f, "basename", base);
	st |= attr_string(f, "source_name", h->source_name);
	st |= attr_string(f, "format", sps_reader_is_fits(c->data_file) ?
	    "fits" : "fil");
	st |= attr_string(f, "dtype", dtype_name(h->nbits));
	st |= attr_string(f, "tstart_utc", utc);
	st |= attr_double(f, "bw", bw);
	st |= attr_double(f, "center_freq", h->fch1 + bw / 2);
	st |= attr_double(f, "fch1", h->fch1);
	st |= attr_double(f, "foff", h->foff);
	st |= attr_double(f, "channel_bandwidth", h->foff);
	st |= attr_double(f, "native_foff", h->foff);
	st |= attr_double(f, "tsamp", h->tsamp);
	st |= attr_double(f, "native_tsamp", h->tsamp);
	st |= attr_double(f, "tstart", h->tstart);
	st |= attr_int(f, "nbits", h->nbits);
	st |= attr_int(f, "nchans", h->nchans);
	st |= attr_int(f, "native_nchans", h->nchans);
	st |= attr_int(f, "nspectra", (int64_t)c->nspectra);
	st |= attr_int(f, "native_nspectra", (int64_t)c->nspectra);
	st |= attr_int(f, "npol", h->nifs);
	st |= attr_int(f, "time_decimation_factor", 1);
	st |= attr_int(f, "frequency_decimation_factor", 1);
	return st;
}

static herr_t
cand_attrs(hid_t f, const struct fetch_cand *c)
{
	char id[160];
	herr_t st = 0;

	fetch_cand_id(c, id, sizeof(id));
	st |= attr_string(f, "cand_id", id);
	st |= attr_double(f, "tcand", c->tcand);
	st |= attr_double(f, "dm", c->dm);
	st |= attr_double(f, "dm_opt", -1);
	st |= attr_double(f, "snr", c->snr);
	st |= attr_double(f, "snr_opt", -1);
	st |= attr_int(f, "width", c->width);
	st |= attr_int(f, "label", 0);
	st |= attr_int(f, "decimation", c->decimate);
	return st;
}

/* A float32 dataset of rows x cols, gzip level 9 as your writes it. */
static herr_t
dataset(hid_t f, const char *name, int rows, int cols, const float *data)
{
	hsize_t dims[2] = { (hsize_t)rows, (hsize_t)cols };
	hid_t space = H5Screate_simple(2, dims, NULL), plist, d;
	herr_t st = -1;

	if (space < 0)
		return -1;
	plist = H5Pcreate(H5P_DATASET_CREATE);
	if (plist >= 0 && H5Pset_chunk(plist, 2, dims) >= 0 &&
	    H5Pset_deflate(plist, 9) >= 0) {
		d = H5Dcreate2(f, name, H5T_IEEE_F32LE, space, H5P_DEFAULT,
		    plist, H5P_DEFAULT);
		if (d >= 0) {
			st = H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL,
			    H5P_DEFAULT, data);
			H5Dclose(d);
		}
	}
	if (plist >= 0)
		H5Pclose(plist);
	H5Sclose(space);
	return st;
}

enum sps_err
fetch_h5_write(const char *path, const struct fetch_cand *c)
{
	hid_t f;
	herr_t st;

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	if (f < 0)
		return sps_fail(SPS_EIO, "%s: cannot create the HDF5 file",
		    path);
	st = cand_attrs(f, c);
	st |= header_attrs(f, c);
	st |= dataset(f, "data_freq_time", c->time_size, c->freq_size,
	    c->freq_time);
	st |= dataset(f, "data_dm_time", c->dm_size, c->time_size,
	    c->dm_time);
	if (H5Fclose(f) < 0 || st < 0)
		return sps_fail(SPS_EIO, "%s: writing the HDF5 file failed",
		    path);
	return SPS_OK;
}
