/* psrfits.c: PSRFITS search-mode input through libcfitsio (psrfits.h).
 *
 * Opening surveys every file (keywords, columns, the OFFS_SUB of every
 * row) so the layout, the place of every row in time and the length are
 * known before any data are read; reading then goes row by row, a bounded
 * chunk of spectra at a time. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fitsio.h>

#include "codec.h"
#include "fitscheck.h"
#include "psrfits.h"

#define CHUNK_BYTES	(4 << 20)	/* raw bytes read at once, at most */
#define MAX_ROWS	(1L << 26)
#define MAX_GAP_FACTOR	10	/* gaps filled: at most this times the data */

/* How the DATA column's bytes hold the samples. */
enum raw_kind {
	RAW_PACKED,	/* bytes ('B' or 'X'): NBITS 1, 2, 4 or 8 */
	RAW_SBYTE,	/* signed bytes ('S', or 'B' with TZERO -128) */
	RAW_BE16,	/* bytes holding big-endian 16-bit integers */
	RAW_BE32,	/* bytes holding big-endian IEEE floats */
	RAW_NUMBER	/* a numeric column cfitsio converts to float */
};

/* What every joined file must share. */
struct layout {
	int	 nchan, npol, nbits, nsblk;
	double	 tbin;
	double	*freq;		/* DAT_FREQ of row 1, file order */
};

/* One open file and its SUBINT columns. */
struct fitsin {
	fitsfile	*fp;
	const char	*name;
	enum raw_kind	 kind;
	int		 is_signed;	/* 8-bit samples are signed */
	int		 integers;	/* samples are SIGPROC NBITS values */
	int		 col_data, col_freq, col_wts, col_offs, col_scl;
	int		 col_offs_sub;
	long		 nscl, noffs;	/* values in DAT_SCL, DAT_OFFS */
	long		 nrows;
	double		 zero_off;
	size_t		 spectrum_bytes;	/* of DATA, all pols */
};

struct psrfits {
	char *const	*paths;
	int		 npaths;
	struct sps_psrfits_options opt;
	struct sps_psrfits_info info;
	struct layout	 lay;
	struct fitsin	 in;		/* the file being read */
	int		 cur_file;	/* index of in, -1 if none open */
	char		*spool;		/* temporary copy of stdin */
	int		 spooled;	/* stdin has been copied */
	double		 mjd0_day, mjd0_sec;	/* start of file 0 */
	/* time placement: output spectrum of every row's first spectrum */
	uint64_t	*row_start;
	long		*file_row;	/* first row of file i; npaths+1 */
	long		 nrows;
	/* polarisations taken: pol[0..npol_used) */
	int		 pol[2];
	int		 npol_used;
	int		 flip;
	double		 df;		/* channel width, file order */
	/* reading */
	long		 row;		/* global row being read */
	long		 row_pos;	/* spectra of it handed out */
	int		 row_ready;	/* gain/bias loaded for row */
	uint64_t	 out_pos;
	uint64_t	 nsamples;
	double		*gain, *bias;	/* [pol used][output channel] */
	double		*wts, *scl, *offs;	/* one row's arrays */
	double		*sum;		/* per output channel, this row */
	float		*mean;		/* of the last row: fills gaps */
	float		*vals;		/* one pol of one spectrum */
	unsigned char	*raw;
	float		*rawf;
	size_t		 chunk;		/* spectra per read, at most */
};

static struct sps_psrfits_options current_options = {
	1, 1, 1, 1, SPS_POL_AUTO, 0, SPS_FILL_MEAN
};

void
sps_psrfits_defaults(struct sps_psrfits_options *o)
{
	o->zero_off = o->scales = o->offsets = o->weights = 1;
	o->pol = SPS_POL_AUTO;
	o->keep_order = 0;
	o->fill = SPS_FILL_MEAN;
}

void
sps_psrfits_set_options(const struct sps_psrfits_options *o)
{
	current_options = *o;
}

static void
add_warning(struct psrfits *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
add_warning(struct psrfits *s, const char *fmt, ...)
{
	char line[SPS_PSRFITS_WARNLEN];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (i = 0; i < s->info.nwarnings; i++)
		if (strcmp(s->info.warnings[i], line) == 0)
			return;
	if (s->info.nwarnings == SPS_PSRFITS_MAXWARN) {
		s->info.warnings_dropped++;
		return;
	}
	strcpy(s->info.warnings[s->info.nwarnings++], line);
}

/* A cfitsio failure as one line: "NAME: what: cfitsio's reason". */
static enum sps_err
fits_failed(const char *name, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum sps_err
fits_failed(const char *name, int status, const char *fmt, ...)
{
	char what[256], reason[FLEN_STATUS];
	enum sps_err code;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fits_get_errstatus(status, reason);
	fits_clear_errmsg();
	code = status == END_OF_FILE ? SPS_ETRUNC :
	    status == MEMORY_ALLOCATION ? SPS_ENOMEM :
	    status == FILE_NOT_OPENED || status == READ_ERROR ? SPS_EIO :
	    SPS_EFORMAT;
	if (status == END_OF_FILE)
		return sps_fail(code, "%s: %s: truncated file (cfitsio: %s)",
		    name, what, reason);
	return sps_fail(code, "%s: %s (cfitsio: %s)", name, what, reason);
}

/* ---- keywords ---- */

/* A numeric keyword (TLONG, TLONGLONG or TDOUBLE) read as text and
 * converted here, not by cfitsio, whose conversion overruns its error
 * message on a long value it cannot convert (cfitsio 4.2's ffc2j):
 * cfitsio's status, or NUM_OVERFLOW where the value is no such number.
 * Other types go to fits_read_key. */
static int
read_key(fitsfile *fp, int type, const char *key, void *value, char *text)
{
	int status = 0;
	double v;

	if (type != TLONG && type != TLONGLONG && type != TDOUBLE)
		return fits_read_key(fp, type, key, value, NULL, &status);
	if (fits_read_keyword(fp, key, text, NULL, &status) != 0)
		return status;
	if (!sps_fits_number(text, type != TDOUBLE, &v) || (type == TLONG &&
	    (v < LONG_MIN || v > LONG_MAX)))
		return NUM_OVERFLOW;
	if (type == TLONG)
		*(long *)value = (long)v;
	else if (type == TLONGLONG)
		*(long long *)value = (long long)v;
	else
		*(double *)value = v;
	return 0;
}

/* Read an optional keyword; *found says whether it was there and
 * readable.  An unreadable value is a warning, not a failure. */
static void
opt_key(struct psrfits *s, fitsfile *fp, int type, const char *key,
    void *value, int *found)
{
	char text[FLEN_VALUE];
	int status;

	*found = 0;
	text[0] = '\0';
	if ((status = read_key(fp, type, key, value, text)) == 0) {
		*found = 1;
		return;
	}
	if (status != KEY_NO_EXIST) {
		status = 0;
		text[0] = '\0';
		fits_read_keyword(fp, key, text, NULL, &status);
		add_warning(s, "%s: keyword %s = %s is not readable: ignored",
		    s->in.name, key, text);
	}
	fits_clear_errmsg();
}

static void
opt_string(struct psrfits *s, fitsfile *fp, const char *key, char *buf,
    size_t len)
{
	char value[FLEN_VALUE];
	int found;

	opt_key(s, fp, TSTRING, key, value, &found);
	if (!found)
		value[0] = '\0';
	snprintf(buf, len, "%s", value);
}

/* Keywords the data cannot be read without. */
static enum sps_err
need_long(struct psrfits *s, fitsfile *fp, const char *key, long lo,
    long hi, long *value)
{
	char text[FLEN_VALUE];
	int status;

	if ((status = read_key(fp, TLONG, key, value, text)) != 0) {
		if (status == KEY_NO_EXIST) {
			fits_clear_errmsg();
			return sps_fail(SPS_EFORMAT, "%s: SUBINT keyword %s "
			    "is missing", s->in.name, key);
		}
		if (status == NUM_OVERFLOW)
			return sps_fail(SPS_EFORMAT, "%s: SUBINT keyword %s = "
			    "%s is not an integer", s->in.name, key, text);
		return fits_failed(s->in.name, status, "SUBINT keyword %s",
		    key);
	}
	if (*value < lo || *value > hi)
		return sps_fail(SPS_EVALUE, "%s: SUBINT keyword %s = %ld is "
		    "not in %ld..%ld", s->in.name, key, *value, lo, hi);
	return SPS_OK;
}

/* ---- opening ---- */

/* cfitsio needs a file it can seek in: copy standard input to a
 * temporary file.  reader.c has already taken the first 8 bytes of it to
 * recognise the format, and they were "SIMPLE  ". */
static enum sps_err
spool_stdin(struct psrfits *s)
{
	static const char sniffed[] = "SIMPLE  ";
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	int fd, failed;
	size_t n;
	FILE *f;

	if (asprintf(&s->spool, "%s/sps-stdin.XXXXXX", dir != NULL &&
	    *dir != '\0' ? dir : "/tmp") < 0) {
		s->spool = NULL;
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	if ((fd = mkstemp(s->spool)) < 0) {
		free(s->spool);
		s->spool = NULL;
		return sps_fail(SPS_EIO, "stdin: cannot make a temporary "
		    "copy in %s: %s", dir != NULL ? dir : "/tmp",
		    strerror(errno));
	}
	if ((f = fdopen(fd, "wb")) == NULL) {
		close(fd);
		return sps_fail(SPS_EIO, "stdin: %s", strerror(errno));
	}
	failed = fwrite(sniffed, 1, 8, f) != 8;
	while (!failed && (n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		failed = fwrite(buf, 1, n, f) != n;
	if (ferror(stdin)) {
		fclose(f);
		return sps_fail(SPS_EIO, "stdin: %s", strerror(errno));
	}
	if (fclose(f) != 0 || failed)
		return sps_fail(SPS_EIO, "stdin: writing a temporary copy in "
		    "%s: %s", s->spool, strerror(errno));
	return SPS_OK;
}

static enum sps_err
open_file(struct psrfits *s, int k, fitsfile **fp)
{
	const char *path = s->paths[k];
	enum sps_err e;
	int status = 0;

	*fp = NULL;
	if (strcmp(path, "-") == 0) {
		s->in.name = "stdin";
		if (s->npaths > 1)
			return sps_fail(SPS_EUSAGE, "standard input cannot "
			    "be joined with other files");
		if (s->spooled)
			return sps_fail(SPS_EUSAGE, "stdin: cannot be read "
			    "twice");
		if ((e = spool_stdin(s)) != SPS_OK)
			return e;
		s->spooled = 1;
		path = s->spool;
	} else {
		s->in.name = path;
	}
	if ((e = sps_fits_cards_check(path, s->in.name)) != SPS_OK)
		return e;
	/* The disk-file opener takes the name as it is: no cfitsio
	 * "file.fits[1]" syntax. */
	if (fits_open_diskfile(fp, path, READONLY, &status) != 0) {
		struct stat st;

		*fp = NULL;
		if (status != FILE_NOT_OPENED && stat(path, &st) == 0 &&
		    st.st_size % 2880 != 0)
			return fits_failed(s->in.name, END_OF_FILE, "%lld "
			    "bytes, not whole 2880-byte FITS blocks",
			    (long long)st.st_size);
		return fits_failed(s->in.name, status, "cannot open as FITS");
	}
	return SPS_OK;
}

static void
close_fits(fitsfile **fp)
{
	int status = 0;

	if (*fp != NULL)
		fits_close_file(*fp, &status);
	fits_clear_errmsg();
	*fp = NULL;
}

/* Primary HDU: is this search-mode PSRFITS at all? */
static enum sps_err
check_kind(struct psrfits *s, fitsfile *fp)
{
	char fitstype[FLEN_VALUE], mode[FLEN_VALUE];

	opt_string(s, fp, "FITSTYPE", fitstype, sizeof(fitstype));
	opt_string(s, fp, "OBS_MODE", mode, sizeof(mode));
	if (strcasecmp(mode, "PSR") == 0 || strcasecmp(mode, "CAL") == 0 ||
	    strcasecmp(mode, "FOF") == 0)
		return sps_fail(SPS_EFORMAT, "%s: OBS_MODE '%s': folded data, "
		    "not PSRFITS search mode", s->in.name, mode);
	if (fitstype[0] == '\0' && mode[0] == '\0')
		return SPS_OK;	/* the SUBINT test decides */
	if (fitstype[0] == '\0')
		add_warning(s, "%s: no FITSTYPE keyword", s->in.name);
	else if (strcmp(fitstype, "PSRFITS") != 0)
		add_warning(s, "%s: FITSTYPE '%s', not 'PSRFITS'", s->in.name,
		    fitstype);
	if (mode[0] == '\0')
		add_warning(s, "%s: no OBS_MODE keyword: taken as SEARCH",
		    s->in.name);
	else if (strcmp(mode, "SEARCH") != 0 && strcmp(mode, "SRCH") != 0)
		add_warning(s, "%s: OBS_MODE '%s', not 'SEARCH': read as "
		    "search mode", s->in.name, mode);
	return SPS_OK;
}

/* "hh:mm:ss.s" or "-dd:mm:ss.s" to SIGPROC's packed hhmmss.s. */
static int
pack_sexagesimal(const char *text, double *packed)
{
	double a, b, c;
	int sign = 1, n;
	char tail;

	while (isspace((unsigned char)*text))
		text++;
	if (*text == '-' || *text == '+') {
		sign = *text == '-' ? -1 : 1;
		text++;
	}
	n = sscanf(text, "%lf:%lf:%lf%c", &a, &b, &c, &tail);
	if (n != 3 || a < 0 || b < 0 || b >= 60 || c < 0 || c >= 60 ||
	    a != floor(a) || b != floor(b))
		return 0;
	*packed = sign * (a * 10000 + b * 100 + c);
	return 1;
}

static void
set_string(struct sps_header *h, const char *key, char *field,
    const char *value)
{
	const char *p = value;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return;
	snprintf(field, SPS_STRING_MAX + 1, "%s", p);
	sps_header_mark(h, key);
}

/* Primary-HDU keywords of file 0 that go into the SIGPROC header. */
static void
read_identity(struct psrfits *s, fitsfile *fp, struct sps_header *h)
{
	char text[FLEN_VALUE];
	const char *base;
	double packed;
	int id, found;

	opt_string(s, fp, "SRC_NAME", text, sizeof(text));
	set_string(h, "source_name", h->source_name, text);
	base = strrchr(s->paths[0], '/');
	base = base != NULL ? base + 1 : s->paths[0];
	set_string(h, "rawdatafile", h->rawdatafile,
	    strcmp(base, "-") == 0 ? "stdin" : base);
	opt_string(s, fp, "TELESCOP", s->info.telescope,
	    sizeof(s->info.telescope));
	if ((id = sps_telescope_id(s->info.telescope)) >= 0) {
		h->telescope_id = id;
		sps_header_mark(h, "telescope_id");
	}
	opt_string(s, fp, "FRONTEND", s->info.frontend,
	    sizeof(s->info.frontend));
	opt_string(s, fp, "BACKEND", s->info.backend,
	    sizeof(s->info.backend));
	if ((id = sps_machine_id(s->info.backend)) >= 0) {
		h->machine_id = id;
		sps_header_mark(h, "machine_id");
	}
	opt_string(s, fp, "RA", text, sizeof(text));
	if (pack_sexagesimal(text, &packed)) {
		h->src_raj = packed;
		sps_header_mark(h, "src_raj");
	} else {
		add_warning(s, "%s: RA '%s' is not hh:mm:ss.s: src_raj left "
		    "out", s->in.name, text);
	}
	opt_string(s, fp, "DEC", text, sizeof(text));
	if (pack_sexagesimal(text, &packed)) {
		h->src_dej = packed;
		sps_header_mark(h, "src_dej");
	} else {
		add_warning(s, "%s: DEC '%s' is not dd:mm:ss.s: src_dej left "
		    "out", s->in.name, text);
	}
	opt_key(s, fp, TDOUBLE, "CHAN_DM", &s->info.chan_dm, &found);
	if (!found)
		s->info.chan_dm = 0;
	h->data_type = 1;
	sps_header_mark(h, "data_type");
	h->nifs = 1;
	sps_header_mark(h, "nifs");
}

/* Start of a file as whole days and seconds (kept apart for precision). */
static void
read_start(struct psrfits *s, fitsfile *fp, double *day, double *sec)
{
	double imjd, smjd, offs;
	int f1, f2, f3;

	opt_key(s, fp, TDOUBLE, "STT_IMJD", &imjd, &f1);
	opt_key(s, fp, TDOUBLE, "STT_SMJD", &smjd, &f2);
	opt_key(s, fp, TDOUBLE, "STT_OFFS", &offs, &f3);
	if (!f1 || !f2)
		add_warning(s, "%s: no STT_IMJD/STT_SMJD: start time unknown",
		    s->in.name);
	*day = f1 ? imjd : 0;
	*sec = (f2 ? smjd : 0) + (f3 ? offs : 0);
}

/* ---- the SUBINT table ---- */

static int
valid_nbits(long nbits)
{
	return nbits == 1 || nbits == 2 || nbits == 4 || nbits == 8 ||
	    nbits == 16 || nbits == 32;
}

static enum sps_err
find_column(struct psrfits *s, fitsfile *fp, const char *name, int *col,
    int required)
{
	int status = 0;

	if (fits_get_colnum(fp, CASEINSEN, (char *)name, col, &status) ==
	    0)
		return SPS_OK;
	fits_clear_errmsg();
	*col = 0;
	if (required)
		return sps_fail(SPS_EFORMAT, "%s: SUBINT table has no %s "
		    "column", s->in.name, name);
	return SPS_OK;
}

static enum sps_err
column_size(struct psrfits *s, fitsfile *fp, int col, const char *name,
    int *type, long *repeat)
{
	int status = 0;
	long width;

	if (fits_get_eqcoltype(fp, col, type, repeat, &width, &status) != 0)
		return fits_failed(s->in.name, status, "column %s", name);
	return SPS_OK;
}

/* A per-channel column must hold nchan values (or nchan*npol). */
static enum sps_err
check_vector(struct psrfits *s, fitsfile *fp, int *col, const char *name,
    long per_pol_ok, long *n)
{
	long want = s->lay.nchan, repeat;
	enum sps_err e;
	int type;

	*n = 0;
	if (*col == 0)
		return SPS_OK;
	if ((e = column_size(s, fp, *col, name, &type, &repeat)) != SPS_OK)
		return e;
	if (repeat == want || (per_pol_ok && repeat == want *
	    s->lay.npol)) {
		*n = repeat;
		return SPS_OK;
	}
	return sps_fail(SPS_EFORMAT, "%s: column %s has %ld values per row, "
	    "not NCHAN %d%s: inconsistent NCHAN", s->in.name, name, repeat,
	    s->lay.nchan, per_pol_ok ? " x NPOL" : "");
}

/* The DATA column: its type says how its bytes hold the samples. */
static enum sps_err
check_data(struct psrfits *s, fitsfile *fp, long signint)
{
	struct fitsin *in = &s->in;
	long values, repeat, bytes;
	enum sps_err e;
	int type;

	if ((e = column_size(s, fp, in->col_data, "DATA", &type, &repeat)) !=
	    SPS_OK)
		return e;
	values = (long)s->lay.nsblk * s->lay.npol * s->lay.nchan;
	in->is_signed = 0;
	if (type == TBYTE || type == TBIT) {
		bytes = type == TBIT ? (repeat + 7) / 8 : repeat;
		in->kind = s->lay.nbits == 16 ? RAW_BE16 :
		    s->lay.nbits == 32 ? RAW_BE32 : RAW_PACKED;
		in->is_signed = s->lay.nbits == 8 && signint == 1;
		in->integers = in->kind == RAW_PACKED;
		if (bytes * 8 != values * s->lay.nbits)
			return sps_fail(SPS_EFORMAT, "%s: DATA holds %ld bytes "
			    "per row, but NSBLK %d x NPOL %d x NCHAN %d x "
			    "NBITS %d needs %ld bits: inconsistent header",
			    in->name, bytes, s->lay.nsblk, s->lay.npol,
			    s->lay.nchan, s->lay.nbits,
			    values * s->lay.nbits);
		in->spectrum_bytes = (size_t)s->lay.npol * s->lay.nchan *
		    s->lay.nbits / 8;
		if ((size_t)s->lay.npol * s->lay.nchan * s->lay.nbits % 8)
			return sps_fail(SPS_EFORMAT, "%s: spectra of NPOL %d "
			    "x NCHAN %d %d-bit samples are not whole bytes: "
			    "not supported", in->name, s->lay.npol,
			    s->lay.nchan, s->lay.nbits);
		return SPS_OK;
	}
	in->integers = s->lay.nbits == 32 ||
	    (type == TUSHORT && s->lay.nbits == 16);
	if (type == TSBYTE && s->lay.nbits == 8) {
		in->kind = RAW_SBYTE;
		in->is_signed = in->integers = 1;
	}
	else if (type == TSTRING || type == TLOGICAL || type == TCOMPLEX ||
	    type == TDBLCOMPLEX || s->lay.nbits < 8)
		return sps_fail(SPS_EFORMAT, "%s: DATA column of type code %d "
		    "cannot hold NBITS %d samples", in->name, type,
		    s->lay.nbits);
	else
		in->kind = RAW_NUMBER;
	if (repeat != values)
		return sps_fail(SPS_EFORMAT, "%s: DATA holds %ld values per "
		    "row, not NSBLK %d x NPOL %d x NCHAN %d: inconsistent "
		    "header", in->name, repeat, s->lay.nsblk, s->lay.npol,
		    s->lay.nchan);
	in->spectrum_bytes = (size_t)s->lay.npol * s->lay.nchan *
	    sizeof(float);
	return SPS_OK;
}

/* The layout keywords of this file (file 0 sets s->lay). */
static enum sps_err
read_layout(struct psrfits *s, fitsfile *fp, struct layout *lay,
    long *signint)
{
	long nbits = 0, nchan = 0, npol = 0, nsblk = 0, nbin = 0;
	char text[FLEN_VALUE];
	enum sps_err e;
	int status, found;

	if ((e = need_long(s, fp, "NBITS", 0, 1L << 30, &nbits)) != SPS_OK)
		return e;
	if (!valid_nbits(nbits))
		return sps_fail(SPS_EFORMAT, "%s: NBITS %ld is not supported "
		    "(1, 2, 4, 8, 16 or 32)", s->in.name, nbits);
	if ((e = need_long(s, fp, "NCHAN", 1, 1L << 24, &nchan)) != SPS_OK ||
	    (e = need_long(s, fp, "NPOL", 1, 16, &npol)) != SPS_OK ||
	    (e = need_long(s, fp, "NSBLK", 1, 1L << 30, &nsblk)) != SPS_OK)
		return e;
	if ((status = read_key(fp, TDOUBLE, "TBIN", &lay->tbin, text)) != 0) {
		if (status == KEY_NO_EXIST)
			return sps_fail(SPS_EFORMAT, "%s: SUBINT keyword TBIN "
			    "is missing", s->in.name);
		if (status == NUM_OVERFLOW)
			return sps_fail(SPS_EFORMAT, "%s: SUBINT keyword TBIN "
			    "= %s is not a number", s->in.name, text);
		return fits_failed(s->in.name, status, "SUBINT keyword TBIN");
	}
	if (!isfinite(lay->tbin) || lay->tbin <= 0 || lay->tbin > 1e4)
		return sps_fail(SPS_EVALUE, "%s: TBIN %g s is not a sample "
		    "time", s->in.name, lay->tbin);
	opt_key(s, fp, TLONG, "NBIN", &nbin, &found);
	if (found && nbin > 1)
		return sps_fail(SPS_EFORMAT, "%s: NBIN %ld: folded data, not "
		    "PSRFITS search mode", s->in.name, nbin);
	opt_key(s, fp, TLONG, "SIGNINT", signint, &found);
	if (!found)
		*signint = 0;
	lay->nbits = (int)nbits;
	lay->nchan = (int)nchan;
	lay->npol = (int)npol;
	lay->nsblk = (int)nsblk;
	return SPS_OK;
}

static enum sps_err
read_vector(struct psrfits *s, int col, long row, long n, double *out)
{
	int status = 0;

	if (fits_read_col(s->in.fp, TDOUBLE, col, row, 1, n, NULL, out, NULL,
	    &status) != 0)
		return fits_failed(s->in.name, status, "reading row %ld", row);
	return SPS_OK;
}

/* The file must hold every byte its SUBINT table claims. */
static enum sps_err
check_length(struct psrfits *s, fitsfile *fp, const char *path)
{
	long long head, data, end, naxis1 = 0, naxis2 = 0, pcount = 0;
	char text[FLEN_VALUE];
	struct stat st;
	int status = 0;

	fits_get_hduaddrll(fp, &head, &data, &end, &status);
	if (status == 0)
		status = read_key(fp, TLONGLONG, "NAXIS1", &naxis1, text);
	if (status == 0)
		status = read_key(fp, TLONGLONG, "NAXIS2", &naxis2, text);
	if (status != 0)
		return fits_failed(s->in.name, status, "SUBINT table size");
	read_key(fp, TLONGLONG, "PCOUNT", &pcount, text);
	fits_clear_errmsg();
	if (stat(path, &st) != 0)
		return sps_fail(SPS_EIO, "%s: %s", s->in.name,
		    strerror(errno));
	if (st.st_size < data + naxis1 * naxis2 + pcount)
		return sps_fail(SPS_ETRUNC, "%s: truncated file: %lld bytes, "
		    "but its SUBINT table (%lld rows of %lld bytes) ends at "
		    "byte %lld", s->in.name, (long long)st.st_size, naxis2,
		    naxis1, data + naxis1 * naxis2 + pcount);
	return SPS_OK;
}

/* Channel frequencies (row 1): fch1, foff, and whether to flip. */
static enum sps_err
read_frequencies(struct psrfits *s, fitsfile *fp, int k)
{
	int n = s->lay.nchan, found, i;
	double *freq, df, worst = 0;
	double obsfreq, chan_bw;
	enum sps_err e;

	if ((freq = malloc((size_t)n * sizeof(double))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if (s->in.col_freq != 0) {
		if ((e = read_vector(s, s->in.col_freq, 1, n, freq)) !=
		    SPS_OK) {
			free(freq);
			return e;
		}
	} else {
		opt_key(s, fp, TDOUBLE, "CHAN_BW", &chan_bw, &found);
		if (found)
			opt_key(s, fp, TDOUBLE, "OBSFREQ", &obsfreq, &found);
		if (!found || chan_bw == 0) {
			free(freq);
			return sps_fail(SPS_EFORMAT, "%s: no channel "
			    "frequencies (no DAT_FREQ column, no CHAN_BW and "
			    "OBSFREQ)", s->in.name);
		}
		add_warning(s, "%s: no DAT_FREQ column: frequencies from "
		    "OBSFREQ and CHAN_BW", s->in.name);
		for (i = 0; i < n; i++)
			freq[i] = obsfreq + (i - (n - 1) / 2.0) * chan_bw;
	}
	if (k > 0) {
		e = SPS_OK;
		for (i = 0; i < n && e == SPS_OK; i++)
			if (fabs(freq[i] - s->lay.freq[i]) > 1e-6 *
			    fabs(freq[i]) + 1e-9)
				e = sps_fail(SPS_EVALUE, "%s: channel %d is at "
				    "%.6f MHz, not %.6f MHz as in %s",
				    s->in.name, i, freq[i], s->lay.freq[i],
				    s->paths[0]);
		free(freq);
		return e;
	}
	s->lay.freq = freq;
	if (n == 1) {
		opt_key(s, fp, TDOUBLE, "CHAN_BW", &chan_bw, &found);
		df = found && isfinite(chan_bw) ? chan_bw : 0;
	} else {
		df = (freq[n - 1] - freq[0]) / (n - 1);
	}
	for (i = 0; i < n; i++)
		if (fabs(freq[i] - (freq[0] + i * df)) > worst)
			worst = fabs(freq[i] - (freq[0] + i * df));
	if (worst > 1e-3 * fabs(df))
		add_warning(s, "%s: DAT_FREQ is not evenly spaced (off by up "
		    "to %g MHz): fch1 and foff describe a straight line",
		    s->in.name, worst);
	if (!isfinite(df) || (df == 0 && n > 1))
		return sps_fail(SPS_EVALUE, "%s: channel frequencies %g to %g "
		    "MHz give no channel width", s->in.name, freq[0],
		    freq[n - 1]);
	s->df = df;
	s->flip = df > 0 && !s->opt.keep_order;
	s->info.flipped = s->flip;
	return SPS_OK;
}

/* Which polarisations to hand out, from NPOL, POL_TYPE and the option. */
static enum sps_err
choose_pols(struct psrfits *s, fitsfile *fp)
{
	const char *t = s->info.pol_type;
	int npol = s->lay.npol;

	opt_string(s, fp, "POL_TYPE", s->info.pol_type,
	    sizeof(s->info.pol_type));
	s->npol_used = 1;
	s->pol[0] = 0;
	if (s->opt.pol != SPS_POL_AUTO) {
		if (s->opt.pol < 0 || s->opt.pol >= npol)
			return sps_fail(SPS_EUSAGE, "%s: polarisation %d asked "
			    "for, but NPOL is %d (POL_TYPE '%s')", s->in.name,
			    s->opt.pol, npol, t);
		s->pol[0] = s->opt.pol;
		snprintf(s->info.pol_used, sizeof(s->info.pol_used),
		    "polarisation %d of %d (%s)", s->opt.pol, npol, t);
		return SPS_OK;
	}
	if (npol == 1) {
		snprintf(s->info.pol_used, sizeof(s->info.pol_used),
		    "the one polarisation (%s)", t[0] != '\0' ? t : "no "
		    "POL_TYPE");
	} else if (npol == 2 || strncmp(t, "AABB", 4) == 0 ||
	    strncmp(t, "XXYY", 4) == 0 || strncmp(t, "RRLL", 4) == 0) {
		s->pol[1] = 1;
		s->npol_used = 2;
		snprintf(s->info.pol_used, sizeof(s->info.pol_used),
		    "polarisations 0 and 1 summed (%s)", t);
	} else {
		if (t[0] != 'I')
			add_warning(s, "%s: NPOL %d with POL_TYPE '%s': "
			    "polarisation 0 taken", s->in.name, npol, t);
		snprintf(s->info.pol_used, sizeof(s->info.pol_used),
		    "polarisation 0 (%s)", t);
	}
	if (t[0] == '\0')
		add_warning(s, "%s: no POL_TYPE keyword", s->in.name);
	return SPS_OK;
}

/* Each row's OFFS_SUB (the time of its centre after the file's start),
 * or NSUBOFFS and the row numbers when there are none. */
static enum sps_err
row_offsets(struct psrfits *s, double *offs)
{
	double tsub = s->lay.nsblk * s->lay.tbin;
	long nrows = s->in.nrows, r, zeros = 0, nsuboffs = 0;
	int status = 0, found;

	if (s->in.col_offs_sub != 0 && fits_read_col(s->in.fp, TDOUBLE,
	    s->in.col_offs_sub, 1, 1, nrows, NULL, offs, NULL, &status) != 0)
		return fits_failed(s->in.name, status, "column OFFS_SUB");
	for (r = 0; r < nrows; r++)
		zeros += offs[r] == 0;
	if (zeros > 0 && zeros < nrows)
		return sps_fail(SPS_EFORMAT, "%s: OFFS_SUB is 0 in %ld of %ld "
		    "rows but not in the others: rows cannot be placed in "
		    "time", s->in.name, zeros, nrows);
	if (zeros == nrows) {
		opt_key(s, s->in.fp, TLONG, "NSUBOFFS", &nsuboffs, &found);
		add_warning(s, "%s: %s: rows taken as contiguous", s->in.name,
		    s->in.col_offs_sub == 0 ? "no OFFS_SUB column" :
		    "OFFS_SUB all 0");
		for (r = 0; r < nrows; r++)
			offs[r] = (nsuboffs + r + 0.5) * tsub;
	}
	return SPS_OK;
}

/* The output spectrum where each row of file k starts.  File 0's first
 * row is spectrum 0 and fixes tstart; the rest follow in time. */
static enum sps_err
place_rows(struct psrfits *s, int k, double day, double sec)
{
	double tsub = s->lay.nsblk * s->lay.tbin, *offs, shift, at, end;
	long first = s->file_row[k], r, g;
	enum sps_err e;

	if ((offs = calloc((size_t)s->in.nrows, sizeof(double))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = row_offsets(s, offs);
	shift = (day - s->mjd0_day) * 86400.0 + (sec - s->mjd0_sec);
	for (r = 0; e == SPS_OK && r < s->in.nrows; r++) {
		g = first + r;
		at = (shift + offs[r] - 0.5 * tsub) / s->lay.tbin;
		if (!isfinite(at) || fabs(at) > 9e15) {
			e = sps_fail(SPS_EVALUE, "%s: row %ld: OFFS_SUB %g "
			    "is not a time", s->in.name, r + 1, offs[r]);
			break;
		}
		at = (double)llround(at);
		if (g == 0) {
			s->row_start[0] = 0;
			s->mjd0_sec += at * s->lay.tbin;
			shift -= at * s->lay.tbin;
			continue;
		}
		end = (double)(s->row_start[g - 1] + s->lay.nsblk);
		if (at < end)
			e = sps_fail(SPS_EVALUE, "%s: row %ld starts %.0f "
			    "spectra before the end of the %s: out of order "
			    "or overlapping", s->in.name, r + 1, end - at,
			    r == 0 ? "previous file" : "row before");
		else if (at - end > 1e9)
			e = sps_fail(SPS_EVALUE, "%s: row %ld starts %.0f "
			    "spectra after the row before: absurd gap",
			    s->in.name, r + 1, at - end);
		else {
			s->row_start[g] = (uint64_t)at;
			s->info.filled += (uint64_t)(at - end);
		}
	}
	free(offs);
	return e;
}

/* The DAT_WTS, DAT_SCL and DAT_OFFS of a row (1-based), those in use. */
static enum sps_err
read_row_arrays(struct psrfits *s, long row)
{
	struct fitsin *in = &s->in;
	enum sps_err e;

	if (s->opt.weights && in->col_wts != 0 &&
	    (e = read_vector(s, in->col_wts, row, s->lay.nchan, s->wts)) !=
	    SPS_OK)
		return e;
	if (s->opt.scales && in->col_scl != 0 &&
	    (e = read_vector(s, in->col_scl, row, in->nscl, s->scl)) !=
	    SPS_OK)
		return e;
	if (s->opt.offsets && in->col_offs != 0 &&
	    (e = read_vector(s, in->col_offs, row, in->noffs, s->offs)) !=
	    SPS_OK)
		return e;
	return SPS_OK;
}

static void
note_steps(struct psrfits *s)
{
	long i;

	if (s->opt.weights && s->in.col_wts != 0)
		for (i = 0; i < s->lay.nchan; i++)
			if (s->wts[i] != 1)
				s->info.applied |= SPS_STEP_WEIGHTS;
	if (s->opt.scales && s->in.col_scl != 0)
		for (i = 0; i < s->in.nscl; i++)
			if (s->scl[i] != 1)
				s->info.applied |= SPS_STEP_SCALES;
	if (s->opt.offsets && s->in.col_offs != 0)
		for (i = 0; i < s->in.noffs; i++)
			if (s->offs[i] != 0)
				s->info.applied |= SPS_STEP_OFFSETS;
	if (s->opt.zero_off && s->in.zero_off != 0)
		s->info.applied |= SPS_STEP_ZERO_OFF;
}

/* Exact values: every weight 0 or 1 is fine too. */
static int
weights_binary(struct psrfits *s)
{
	long i;

	if (!s->opt.weights || s->in.col_wts == 0)
		return 1;
	for (i = 0; i < s->lay.nchan; i++)
		if (s->wts[i] != 0 && s->wts[i] != 1)
			return 0;
	return 1;
}

static enum sps_err
survey_steps(struct psrfits *s, int *exact)
{
	enum sps_err e;
	long r;

	for (r = 1; r <= s->in.nrows; r++) {
		if ((e = read_row_arrays(s, r)) != SPS_OK)
			return e;
		note_steps(s);
		if (!weights_binary(s))
			*exact = 0;
	}
	return SPS_OK;
}

static enum sps_err
find_columns(struct psrfits *s, fitsfile *fp)
{
	struct fitsin *in = &s->in;
	enum sps_err e;

	if ((e = find_column(s, fp, "DATA", &in->col_data, 1)) != SPS_OK)
		return e;
	find_column(s, fp, "DAT_FREQ", &in->col_freq, 0);
	find_column(s, fp, "DAT_WTS", &in->col_wts, 0);
	find_column(s, fp, "DAT_OFFS", &in->col_offs, 0);
	find_column(s, fp, "DAT_SCL", &in->col_scl, 0);
	find_column(s, fp, "OFFS_SUB", &in->col_offs_sub, 0);
	if (in->col_wts == 0 && s->opt.weights)
		add_warning(s, "%s: no DAT_WTS column: weights not applied",
		    in->name);
	if (in->col_scl == 0 && s->opt.scales)
		add_warning(s, "%s: no DAT_SCL column: scales not applied",
		    in->name);
	if (in->col_offs == 0 && s->opt.offsets)
		add_warning(s, "%s: no DAT_OFFS column: offsets not applied",
		    in->name);
	return SPS_OK;
}

/* Columns and their sizes, once the layout is known. */
static enum sps_err
check_columns(struct psrfits *s, fitsfile *fp, long signint)
{
	struct fitsin *in = &s->in;
	long nfreq, nwts;
	enum sps_err e;

	if ((e = check_data(s, fp, signint)) != SPS_OK ||
	    (e = check_vector(s, fp, &in->col_freq, "DAT_FREQ", 0,
	    &nfreq)) != SPS_OK ||
	    (e = check_vector(s, fp, &in->col_wts, "DAT_WTS", 0, &nwts)) !=
	    SPS_OK ||
	    (e = check_vector(s, fp, &in->col_scl, "DAT_SCL", 1,
	    &in->nscl)) != SPS_OK ||
	    (e = check_vector(s, fp, &in->col_offs, "DAT_OFFS", 1,
	    &in->noffs)) != SPS_OK)
		return e;
	if (s->lay.npol > 1 && in->col_scl != 0 && in->nscl == s->lay.nchan)
		add_warning(s, "%s: DAT_SCL has NCHAN values, not NCHAN x "
		    "NPOL: used for every polarisation", in->name);
	if (s->lay.npol > 1 && in->col_offs != 0 &&
	    in->noffs == s->lay.nchan)
		add_warning(s, "%s: DAT_OFFS has NCHAN values, not NCHAN x "
		    "NPOL: used for every polarisation", in->name);
	return SPS_OK;
}

static enum sps_err
same_layout(struct psrfits *s, const struct layout *lay)
{
	if (lay->nchan != s->lay.nchan || lay->npol != s->lay.npol ||
	    lay->nbits != s->lay.nbits || lay->nsblk != s->lay.nsblk ||
	    fabs(lay->tbin - s->lay.tbin) > 1e-9 * s->lay.tbin)
		return sps_fail(SPS_EVALUE, "%s: NCHAN %d, NPOL %d, NBITS %d, "
		    "NSBLK %d, TBIN %g differ from %s (%d, %d, %d, %d, %g)",
		    s->in.name, lay->nchan, lay->npol, lay->nbits, lay->nsblk,
		    lay->tbin, s->paths[0], s->lay.nchan, s->lay.npol,
		    s->lay.nbits, s->lay.nsblk, s->lay.tbin);
	return SPS_OK;
}

static enum sps_err
grow_rows(struct psrfits *s, long more)
{
	uint64_t *grown;

	if (more < 1)
		return sps_fail(SPS_EFORMAT, "%s: SUBINT table has no rows",
		    s->in.name);
	if (more > MAX_ROWS || s->nrows + more > MAX_ROWS)
		return sps_fail(SPS_EVALUE, "%s: %ld rows: absurd size",
		    s->in.name, more);
	grown = realloc(s->row_start, (size_t)(s->nrows + more) *
	    sizeof(uint64_t));
	if (grown == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	s->row_start = grown;
	s->nrows += more;
	return SPS_OK;
}

static enum sps_err
alloc_arrays(struct psrfits *s)
{
	size_t nchan = (size_t)s->lay.nchan, npol = (size_t)s->lay.npol;

	s->wts = calloc(nchan, sizeof(double));
	s->scl = calloc(nchan * npol, sizeof(double));
	s->offs = calloc(nchan * npol, sizeof(double));
	s->gain = calloc(nchan * 2, sizeof(double));
	s->bias = calloc(nchan * 2, sizeof(double));
	s->sum = calloc(nchan, sizeof(double));
	s->mean = calloc(nchan, sizeof(float));
	s->vals = calloc(nchan * 2, sizeof(float));
	if (s->wts == NULL || s->scl == NULL || s->offs == NULL ||
	    s->gain == NULL || s->bias == NULL || s->sum == NULL ||
	    s->mean == NULL || s->vals == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	return SPS_OK;
}

/* Layout, columns and rows of SUBINT in file k. */
static enum sps_err
survey_subint(struct psrfits *s, int k, fitsfile *fp, const char *path,
    int *exact)
{
	struct layout lay = { 0, 0, 0, 0, 0, NULL };
	struct stat st;
	int status = 0, found;
	long signint;
	enum sps_err e;

	if (fits_movnam_hdu(fp, BINARY_TBL, "SUBINT", 0, &status) != 0) {
		if (status != BAD_HDU_NUM)
			return fits_failed(s->in.name, status, "looking for "
			    "the SUBINT table");
		fits_clear_errmsg();
		if (stat(path, &st) == 0 && st.st_size % 2880 != 0)
			return sps_fail(SPS_ETRUNC, "%s: truncated file: %lld "
			    "bytes, not whole 2880-byte FITS blocks, and no "
			    "SUBINT table", s->in.name, (long long)st.st_size);
		return sps_fail(SPS_EFORMAT, "%s: no SUBINT table: not PSRFITS "
		    "search-mode data", s->in.name);
	}
	if ((e = read_layout(s, fp, &lay, &signint)) != SPS_OK)
		return e;
	if (k == 0) {
		s->lay = lay;
		if ((e = alloc_arrays(s)) != SPS_OK)
			return e;
	} else if ((e = same_layout(s, &lay)) != SPS_OK) {
		return e;
	}
	if ((e = find_columns(s, fp)) != SPS_OK ||
	    (e = check_columns(s, fp, signint)) != SPS_OK)
		return e;
	opt_key(s, fp, TDOUBLE, "ZERO_OFF", &s->in.zero_off, &found);
	if (!found || !isfinite(s->in.zero_off))
		s->in.zero_off = 0;
	if (s->in.zero_off < 0)
		add_warning(s, "%s: ZERO_OFF %g is negative: subtracted as it "
		    "is (PRESTO takes its absolute value)", s->in.name,
		    s->in.zero_off);
	if (k == 0)
		s->info.zero_off = s->in.zero_off;
	if (k == 0)
		s->info.value_signed = s->in.is_signed;
	if (!s->in.integers || s->in.is_signed != s->info.value_signed)
		*exact = 0;
	if (fits_get_num_rows(fp, &s->in.nrows, &status) != 0)
		return fits_failed(s->in.name, status, "SUBINT rows");
	if ((e = grow_rows(s, s->in.nrows)) != SPS_OK)
		return e;
	s->file_row[k + 1] = s->file_row[k] + s->in.nrows;
	return SPS_OK;
}

/* Everything about file k; it is left open in s->in. */
static enum sps_err
survey_file(struct psrfits *s, int k, struct sps_header *h, int *exact)
{
	const char *path;
	double day, sec;
	enum sps_err e;
	fitsfile *fp;

	if ((e = open_file(s, k, &fp)) != SPS_OK)
		return e;
	s->in.fp = fp;
	s->cur_file = k;
	path = strcmp(s->paths[k], "-") == 0 ? s->spool : s->paths[k];
	if ((e = check_kind(s, fp)) != SPS_OK)
		return e;
	if (k == 0)
		read_identity(s, fp, h);
	read_start(s, fp, &day, &sec);
	if (k == 0) {
		s->mjd0_day = day;
		s->mjd0_sec = sec;
	}
	if ((e = survey_subint(s, k, fp, path, exact)) != SPS_OK ||
	    (e = check_length(s, fp, path)) != SPS_OK ||
	    (e = read_frequencies(s, fp, k)) != SPS_OK)
		return e;
	if (k == 0 && (e = choose_pols(s, fp)) != SPS_OK)
		return e;
	if ((e = place_rows(s, k, day, sec)) != SPS_OK)
		return e;
	return survey_steps(s, exact);
}

/* TEL_AZ/TEL_ZEN of the first row, when present. */
static void
read_pointing(struct psrfits *s, struct sps_header *h)
{
	double value;
	int col, status = 0;

	if (find_column(s, s->in.fp, "TEL_AZ", &col, 0) == SPS_OK &&
	    col != 0 && fits_read_col(s->in.fp, TDOUBLE, col, 1, 1, 1, NULL,
	    &value, NULL, &status) == 0) {
		h->az_start = value;
		sps_header_mark(h, "az_start");
	}
	status = 0;
	if (find_column(s, s->in.fp, "TEL_ZEN", &col, 0) == SPS_OK &&
	    col != 0 && fits_read_col(s->in.fp, TDOUBLE, col, 1, 1, 1, NULL,
	    &value, NULL, &status) == 0) {
		h->za_start = value;
		sps_header_mark(h, "za_start");
	}
	fits_clear_errmsg();
}

static void
fill_header(struct psrfits *s, struct sps_header *h)
{
	int n = s->lay.nchan;

	h->nchans = n;
	h->fch1 = s->flip ? s->lay.freq[n - 1] : s->lay.freq[0];
	h->foff = s->flip ? -s->df : s->df;
	h->tsamp = s->lay.tbin;
	h->tstart = s->mjd0_day + s->mjd0_sec / 86400.0;
	h->nbits = s->lay.nbits;
	if (s->info.value_signed && s->info.value_nbits == 8) {
		h->sign = -1;
		sps_header_mark(h, "signed");
	}
	sps_header_mark(h, "nchans");
	sps_header_mark(h, "fch1");
	sps_header_mark(h, "foff");
	sps_header_mark(h, "tsamp");
	sps_header_mark(h, "nbits");
	if (s->mjd0_day != 0)
		sps_header_mark(h, "tstart");
}

/* ---- reading ---- */

static enum sps_err
open_for_row(struct psrfits *s)
{
	struct layout lay;
	enum sps_err e;
	int k = 0, found, status = 0;
	long signint;

	while (s->row >= s->file_row[k + 1])
		k++;
	if (k == s->cur_file && s->in.fp != NULL)
		return SPS_OK;
	close_fits(&s->in.fp);
	if ((e = open_file(s, k, &s->in.fp)) != SPS_OK)
		return e;
	s->cur_file = k;
	if (fits_movnam_hdu(s->in.fp, BINARY_TBL, "SUBINT", 0, &status))
		return fits_failed(s->in.name, status, "SUBINT table");
	if ((e = read_layout(s, s->in.fp, &lay, &signint)) != SPS_OK ||
	    (e = same_layout(s, &lay)) != SPS_OK ||
	    (e = find_columns(s, s->in.fp)) != SPS_OK ||
	    (e = check_columns(s, s->in.fp, signint)) != SPS_OK)
		return e;
	opt_key(s, s->in.fp, TDOUBLE, "ZERO_OFF", &s->in.zero_off, &found);
	if (!found || !isfinite(s->in.zero_off))
		s->in.zero_off = 0;
	return SPS_OK;
}

/* Gains and biases of the current row, in output channel order. */
static enum sps_err
load_row(struct psrfits *s)
{
	long nchan = s->lay.nchan, row = s->row - s->file_row[s->cur_file] + 1;
	struct fitsin *in = &s->in;
	enum sps_err e;
	int p, c;

	if ((e = read_row_arrays(s, row)) != SPS_OK)
		return e;
	for (p = 0; p < s->npol_used; p++) {
		int pol = s->pol[p];

		for (c = 0; c < nchan; c++) {
			long fc = s->flip ? nchan - 1 - c : c;
			long pc = pol * nchan + fc;
			double scl = 1, offs = 0, w = 1, z = 0;

			if (s->opt.scales && in->col_scl != 0)
				scl = s->scl[in->nscl == nchan ? fc : pc];
			if (s->opt.offsets && in->col_offs != 0)
				offs = s->offs[in->noffs == nchan ? fc : pc];
			if (s->opt.weights && in->col_wts != 0)
				w = s->wts[fc];
			if (s->opt.zero_off)
				z = in->zero_off;
			s->gain[p * nchan + c] = scl * w;
			s->bias[p * nchan + c] = (offs - z * scl) * w;
		}
	}
	memset(s->sum, 0, (size_t)nchan * sizeof(double));
	s->row_ready = 1;
	return SPS_OK;
}

static size_t
raw_bytes(const struct psrfits *s, size_t k)
{
	return k * s->in.spectrum_bytes;
}

static enum sps_err
read_chunk(struct psrfits *s, long row, size_t first, size_t k)
{
	struct fitsin *in = &s->in;
	int status = 0;

	if (in->kind == RAW_NUMBER) {
		size_t per = (size_t)s->lay.npol * s->lay.nchan;

		fits_read_col(in->fp, TFLOAT, in->col_data, row,
		    (LONGLONG)(first * per + 1), (LONGLONG)(k * per), NULL,
		    s->rawf, NULL, &status);
	} else {
		fits_read_col(in->fp, in->kind == RAW_SBYTE ? TSBYTE : TBYTE,
		    in->col_data, row,
		    (LONGLONG)(first * in->spectrum_bytes + 1),
		    (LONGLONG)raw_bytes(s, k), NULL, s->raw, NULL, &status);
	}
	if (status != 0)
		return fits_failed(in->name, status, "reading DATA of row %ld",
		    row);
	return SPS_OK;
}

/* Whole bytes of 1-, 2- or 4-bit samples, the first in the high bits
 * (the reverse of SIGPROC's order), spelt out so that they vectorise. */
static void
unpack_high_first(const unsigned char *raw, float *out, size_t nbytes,
    int nbits)
{
	size_t j;

	switch (nbits) {
	case 1:
		for (j = 0; j < nbytes; j++) {
			unsigned b = raw[j];

			out[8 * j] = (float)(b >> 7);
			out[8 * j + 1] = (float)(b >> 6 & 1);
			out[8 * j + 2] = (float)(b >> 5 & 1);
			out[8 * j + 3] = (float)(b >> 4 & 1);
			out[8 * j + 4] = (float)(b >> 3 & 1);
			out[8 * j + 5] = (float)(b >> 2 & 1);
			out[8 * j + 6] = (float)(b >> 1 & 1);
			out[8 * j + 7] = (float)(b & 1);
		}
		break;
	case 2:
		for (j = 0; j < nbytes; j++) {
			unsigned b = raw[j];

			out[4 * j] = (float)(b >> 6);
			out[4 * j + 1] = (float)(b >> 4 & 3);
			out[4 * j + 2] = (float)(b >> 2 & 3);
			out[4 * j + 3] = (float)(b & 3);
		}
		break;
	case 4:
		for (j = 0; j < nbytes; j++) {
			unsigned b = raw[j];

			out[2 * j] = (float)(b >> 4);
			out[2 * j + 1] = (float)(b & 15);
		}
		break;
	}
}

/* n sub-byte samples from sample index first: whole bytes at once when
 * first starts one. */
static void
unpack_subbyte(const unsigned char *raw, float *out, size_t first, size_t n,
    int nbits)
{
	size_t per_byte = 8 / (size_t)nbits, whole = 0, i;

	if (first % per_byte == 0) {
		whole = n / per_byte;
		unpack_high_first(raw + first / per_byte, out, whole, nbits);
		whole *= per_byte;
	}
	for (i = whole; i < n; i++) {
		size_t v = first + i;
		int shift = 8 - nbits * (int)(v % per_byte + 1);

		out[i] = (float)(raw[v / per_byte] >> shift &
		    ((1 << nbits) - 1));
	}
}

/* n samples from value index first of the chunk into out. */
static void
unpack_values(const struct psrfits *s, size_t first, size_t n, float *out)
{
	const unsigned char *raw = s->raw;
	const signed char *sraw = (const signed char *)s->raw;
	size_t i;

	switch (s->in.kind) {
	case RAW_NUMBER:
		memcpy(out, s->rawf + first, n * sizeof(float));
		break;
	case RAW_SBYTE:
		for (i = 0; i < n; i++)
			out[i] = (float)sraw[first + i];
		break;
	case RAW_BE16:
		for (i = 0; i < n; i++) {
			const unsigned char *b = raw + 2 * (first + i);

			out[i] = (float)(int16_t)(b[0] << 8 | b[1]);
		}
		break;
	case RAW_BE32:
		for (i = 0; i < n; i++) {
			const unsigned char *b = raw + 4 * (first + i);
			uint32_t u = (uint32_t)b[0] << 24 | b[1] << 16 |
			    b[2] << 8 | b[3];
			float f;

			memcpy(&f, &u, sizeof(f));
			out[i] = f;
		}
		break;
	case RAW_PACKED:
		if (s->lay.nbits < 8)
			unpack_subbyte(raw, out, first, n, s->lay.nbits);
		else if (s->in.is_signed)
			for (i = 0; i < n; i++)
				out[i] = (float)sraw[first + i];
		else
			for (i = 0; i < n; i++)
				out[i] = (float)raw[first + i];
		break;
	}
}

static void
decode_chunk(struct psrfits *s, float *buf, size_t k)
{
	size_t nchan = (size_t)s->lay.nchan, npol = (size_t)s->lay.npol;
	size_t i, c, fc;
	int p;

	for (i = 0; i < k; i++) {
		float *out = buf + i * nchan;

		for (p = 0; p < s->npol_used; p++) {
			const double *g = s->gain + p * nchan;
			const double *b = s->bias + p * nchan;

			unpack_values(s, (i * npol + (size_t)s->pol[p]) * nchan,
			    nchan, s->vals);
			for (c = 0; c < nchan; c++) {
				double v;

				fc = s->flip ? nchan - 1 - c : c;
				v = s->vals[fc] * g[c] + b[c];
				out[c] = p == 0 ? (float)v :
				    (float)(out[c] + v);
			}
		}
		for (c = 0; c < nchan; c++)
			s->sum[c] += out[c];
	}
}

static size_t
fill_gap(struct psrfits *s, float *buf, size_t n)
{
	uint64_t left = s->row_start[s->row] - s->out_pos;
	size_t take = left < n ? (size_t)left : n, nchan = s->lay.nchan, i;

	for (i = 0; i < take; i++) {
		if (s->opt.fill == SPS_FILL_ZERO)
			memset(buf + i * nchan, 0, nchan * sizeof(float));
		else
			memcpy(buf + i * nchan, s->mean, nchan * sizeof(float));
	}
	s->out_pos += take;
	return take;
}

static void
end_row(struct psrfits *s)
{
	long c;

	for (c = 0; c < s->lay.nchan; c++)
		s->mean[c] = (float)(s->sum[c] / s->lay.nsblk);
	s->row++;
	s->row_pos = 0;
	s->row_ready = 0;
}

static enum sps_err
psrfits_read_float(void *state, float *buf, size_t n, size_t *got)
{
	struct psrfits *s = state;
	size_t done = 0, k, nchan = (size_t)s->lay.nchan;
	enum sps_err e = SPS_OK;

	while (done < n && s->row < s->nrows) {
		if (s->out_pos < s->row_start[s->row]) {
			done += fill_gap(s, buf + done * nchan, n - done);
			continue;
		}
		if (!s->row_ready && ((e = open_for_row(s)) != SPS_OK ||
		    (e = load_row(s)) != SPS_OK))
			break;
		k = (size_t)(s->lay.nsblk - s->row_pos);
		if (k > n - done)
			k = n - done;
		if (k > s->chunk)
			k = s->chunk;
		if ((e = read_chunk(s, s->row - s->file_row[s->cur_file] + 1,
		    (size_t)s->row_pos, k)) != SPS_OK)
			break;
		decode_chunk(s, buf + done * nchan, k);
		done += k;
		s->row_pos += (long)k;
		s->out_pos += k;
		if (s->row_pos == s->lay.nsblk)
			end_row(s);
	}
	*got = done;
	if (e != SPS_OK)
		return e;
	return done == 0 ? SPS_EEOF : SPS_OK;
}

static int
psrfits_raw_exact(void *state)
{
	struct psrfits *s = state;

	return s->info.value_nbits == s->lay.nbits && (size_t)s->lay.nchan *
	    (size_t)s->lay.nbits % 8 == 0;
}

/* Raw SIGPROC bytes, only when the values are the file's integers. */
static enum sps_err
psrfits_read_raw(void *state, unsigned char *buf, size_t n, size_t *got)
{
	struct psrfits *s = state;
	size_t nchan = (size_t)s->lay.nchan;
	enum sps_err e;
	float *values;

	*got = 0;
	if (!psrfits_raw_exact(state))
		return sps_fail(SPS_EUSAGE, "raw reads need values that are "
		    "the file's %d-bit integers", s->lay.nbits);
	if ((values = malloc(n * nchan * sizeof(float))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	e = psrfits_read_float(state, values, n, got);
	sps_pack(values, buf, *got * nchan, s->lay.nbits,
	    s->info.value_signed);
	free(values);
	return e;
}

static void
psrfits_close(void *state)
{
	struct psrfits *s = state;

	if (s == NULL)
		return;
	close_fits(&s->in.fp);
	if (s->spool != NULL)
		unlink(s->spool);
	free(s->spool);
	free(s->lay.freq);
	free(s->row_start);
	free(s->file_row);
	free(s->gain);
	free(s->bias);
	free(s->wts);
	free(s->scl);
	free(s->offs);
	free(s->sum);
	free(s->mean);
	free(s->vals);
	free(s->raw);
	free(s->rawf);
	free(s);
}

static const struct sps_source_ops psrfits_ops = {
	psrfits_read_raw, psrfits_read_float, psrfits_close, NULL,
	psrfits_raw_exact, NULL
};

static enum sps_err
alloc_chunk(struct psrfits *s)
{
	size_t per = s->in.spectrum_bytes;

	s->chunk = per >= CHUNK_BYTES ? 1 : CHUNK_BYTES / per;
	if (s->chunk > (size_t)s->lay.nsblk)
		s->chunk = (size_t)s->lay.nsblk;
	if (s->in.kind == RAW_NUMBER)
		s->rawf = malloc(s->chunk * per);
	else
		s->raw = malloc(s->chunk * per);
	if (s->rawf == NULL && s->raw == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory (%zu bytes)",
		    s->chunk * per);
	return SPS_OK;
}

/* Rows dropped by a backend leave gaps of a few rows; gaps of more than
 * ten times the data read are a broken OFFS_SUB, and filling them would
 * only spend time writing made-up spectra. */
static enum sps_err
check_gaps(const struct psrfits *s)
{
	uint64_t data = (uint64_t)s->nrows * (uint64_t)s->lay.nsblk;

	if (s->info.filled <= MAX_GAP_FACTOR * data)
		return SPS_OK;
	return sps_fail(SPS_EVALUE, "%s: OFFS_SUB leaves %llu spectra of gaps "
	    "between %llu spectra of data (more than %d times): absurd gaps",
	    s->paths[0], (unsigned long long)s->info.filled,
	    (unsigned long long)data, MAX_GAP_FACTOR);
}

static enum sps_err
survey(struct psrfits *s, struct sps_reader *r)
{
	int exact = 1, k;
	enum sps_err e;

	for (k = 0; k < s->npaths; k++) {
		if ((e = survey_file(s, k, &r->hdr, &exact)) != SPS_OK)
			return e;
		if (k == 0)
			read_pointing(s, &r->hdr);
		if (k < s->npaths - 1)
			close_fits(&s->in.fp);
	}
	if (s->spool != NULL) {
		unlink(s->spool);	/* cfitsio holds it open */
		free(s->spool);
		s->spool = NULL;
	}
	s->info.nfiles = s->npaths;
	s->info.nrows = s->nrows;
	s->info.nsblk = s->lay.nsblk;
	s->info.npol = s->lay.npol;
	s->info.file_nbits = s->lay.nbits;
	if (s->npol_used > 1 || (s->info.applied & ~SPS_STEP_WEIGHTS) != 0)
		exact = 0;
	s->info.value_nbits = exact ? s->lay.nbits : 32;
	if (!exact)
		s->info.value_signed = 0;
	fill_header(s, &r->hdr);
	if ((e = check_gaps(s)) != SPS_OK)
		return e;
	s->nsamples = s->row_start[s->nrows - 1] + (uint64_t)s->lay.nsblk;
	r->nsamples = s->nsamples;
	r->gap_spectra = s->info.filled;
	return alloc_chunk(s);
}

enum sps_err
sps_reader_attach_psrfits(struct sps_reader *r, char *const *paths,
    int npaths)
{
	struct psrfits *s;
	enum sps_err e;

	if (npaths < 1)
		return sps_fail(SPS_EUSAGE, "no input");
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->file_row = calloc((size_t)npaths + 1, sizeof(long))) ==
	    NULL) {
		free(s);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	s->paths = paths;
	s->npaths = npaths;
	s->opt = current_options;
	s->cur_file = -1;
	s->in.name = paths[0];
	r->ops = &psrfits_ops;
	r->state = s;
	if (r->name == NULL)
		r->name = strcmp(paths[0], "-") == 0 ? "stdin" : paths[0];
	if ((e = survey(s, r)) != SPS_OK)
		return e;
	/* Reading starts at row 0: reopen file 0 unless it is the one open */
	if (s->npaths > 1)
		close_fits(&s->in.fp);
	if ((e = sps_header_check(&r->hdr)) != SPS_OK)
		return sps_fail(e, "%s: %s", r->name, sps_errmsg());
	return SPS_OK;
}

const struct sps_psrfits_info *
sps_psrfits_info(const struct sps_reader *r)
{
	if (r == NULL || r->ops != &psrfits_ops || r->state == NULL)
		return NULL;
	return &((const struct psrfits *)r->state)->info;
}

int
sps_reader_value_nbits(const struct sps_reader *r)
{
	const struct sps_psrfits_info *info = sps_psrfits_info(r);

	return info != NULL ? info->value_nbits : r->hdr.nbits;
}

void
sps_psrfits_describe(FILE *out, const struct sps_psrfits_info *fi)
{
	/* the keywords of the SPS_STEP_* bits, lowest bit first */
	static const char *steps[] = { "ZERO_OFF", "DAT_SCL", "DAT_OFFS",
	    "DAT_WTS" };
	int i, any = 0;

	fprintf(out, "  PSRFITS: %d file(s), %ld rows of %d spectra, NBITS %d, "
	    "NPOL %d (%s)\n", fi->nfiles, fi->nrows, fi->nsblk,
	    fi->file_nbits, fi->npol, fi->pol_type);
	fprintf(out, "  telescope %s, frontend %s, backend %s, CHAN_DM %g\n",
	    fi->telescope, fi->frontend, fi->backend, fi->chan_dm);
	fprintf(out, "  taken: %s; ZERO_OFF %g; steps changing values:",
	    fi->pol_used, fi->zero_off);
	for (i = 0; i < 4; i++)
		if (fi->applied & 1 << i) {
			fprintf(out, " %s", steps[i]);
			any = 1;
		}
	fprintf(out, "%s%s\n", any ? "" : " none",
	    fi->flipped ? "; band flipped to foff < 0" : "");
}
