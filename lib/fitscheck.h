/* fitscheck.h: the header cards of a FITS file checked before cfitsio
 * parses them.  cfitsio 4.2 overruns a buffer (and the program aborts)
 * on a table header whose cards hold bytes that are not text; the FITS
 * standard allows only ASCII 32-126 in a header, so such a file is
 * refused with a line naming the card (commentary cards may also hold
 * bytes above 127); so is an unquoted value of a keyword that must be a
 * string (TTYPEn and the like), which cfitsio also overruns on, and a
 * long unquoted value that is not a number a long integer holds (NCHAN =
 * ------..., NPOL = 3333...), whose error message cfitsio overruns, and
 * a TFIELDS beyond the standard's 999, for which it allocates first.
 * Where a size keyword comes twice, the first counts, as in cfitsio. */
#ifndef SPS_FITSCHECK_H
#define SPS_FITSCHECK_H

#include "error.h"

/* Walk the HDUs of the file at path (name in messages): every header
 * card up to each END must be printable ASCII, the string keywords
 * quoted, and the other values short, logicals or numbers of a long's
 * range.  SPS_EFORMAT naming the
 * HDU, card and byte otherwise; SPS_EIO when it cannot be read.  A file
 * that ends early passes: cfitsio reports that itself. */
enum sps_err sps_fits_cards_check(const char *path, const char *name);

/* The number a keyword's value text holds (FITS's D exponent too, blanks
 * after it) in *value: 0 when it is none, or not a whole number where
 * integer asks one (|value| < 9e18). */
int sps_fits_number(const char *text, int integer, double *value);

#endif
