/* error.h: how lib/ reports failure.  lib/ never prints and never exits:
 * a function returns an enum sps_err and leaves a one-line detail in
 * sps_errmsg(), which the tool prints after its own name. */
#ifndef SPS_ERROR_H
#define SPS_ERROR_H

#include <stdio.h>

enum sps_err {
	SPS_OK = 0,
	SPS_EIO,	/* read or write failed (errno kept in the detail) */
	SPS_EFORMAT,	/* the input is not what it claims to be */
	SPS_ETRUNC,	/* the input ends in the middle of something */
	SPS_EVALUE,	/* a value is out of range or nonsensical */
	SPS_ENOMEM,	/* allocation failed */
	SPS_EUSAGE,	/* the caller asked for something impossible */
	SPS_EEOF,	/* clean end of input (not an error for streams) */
	SPS_EUPSTREAM	/* an empty pipe: the program before it in the
			 * pipe failed, and has said why */
};

/* The detail of the last failure in this thread: one line, no newline. */
const char *sps_errmsg(void);

/* Set the detail (printf-style) and return code, so lib code can write
 * "return sps_fail(SPS_EVALUE, "nchans %d < 1", n);". */
enum sps_err sps_fail(enum sps_err code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The failure of an input that gave no bytes at all: SPS_EUPSTREAM for
 * a pipe (a tool ends on it without a word, so that a failing stage is
 * one message, not a cascade), else SPS_ETRUNC "[name: ]empty input (no
 * header)".  f NULL: not a pipe. */
enum sps_err sps_fail_empty(FILE *f, const char *name);

#endif
