/* error.h: how lib/ reports failure.  lib/ never prints and never exits:
 * a function returns an enum sps_err and leaves a one-line detail in
 * sps_errmsg(), which the tool prints after its own name. */
#ifndef SPS_ERROR_H
#define SPS_ERROR_H

enum sps_err {
	SPS_OK = 0,
	SPS_EIO,	/* read or write failed (errno kept in the detail) */
	SPS_EFORMAT,	/* the input is not what it claims to be */
	SPS_ETRUNC,	/* the input ends in the middle of something */
	SPS_EVALUE,	/* a value is out of range or nonsensical */
	SPS_ENOMEM,	/* allocation failed */
	SPS_EUSAGE,	/* the caller asked for something impossible */
	SPS_EEOF	/* clean end of input (not an error for streams) */
};

/* The detail of the last failure in this thread: one line, no newline. */
const char *sps_errmsg(void);

/* Set the detail (printf-style) and return code, so lib code can write
 * "return sps_fail(SPS_EVALUE, "nchans %d < 1", n);". */
enum sps_err sps_fail(enum sps_err code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
