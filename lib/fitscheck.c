/* fitscheck.c: FITS header cards checked before cfitsio (fitscheck.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitscheck.h"

#define BLOCK	2880
#define CARD	80
#define MAXAXES	999
#define MAX_TFIELDS	999
#define MAX_LONG_VALUE	24	/* characters of any value not a string */

/* What the data size of an HDU depends on (FITS 4.0, 4.4.1). */
struct hdu_size {
	long long	bitpix, naxis, pcount, gcount;
	long long	axis[MAXAXES + 1];
	unsigned	seen;		/* SEEN_BITPIX and so on */
	unsigned char	axis_seen[MAXAXES + 1];
};

enum { SEEN_BITPIX = 1, SEEN_NAXIS = 2, SEEN_PCOUNT = 4, SEEN_GCOUNT = 8 };

/* The integer value of a card (columns 11-80; the card has no NUL). */
static long long
card_integer(const char *card)
{
	char value[CARD - 10 + 1];

	memcpy(value, card + 10, CARD - 10);
	value[CARD - 10] = '\0';
	return strtoll(value, NULL, 10);
}

/* *value from the card, unless an earlier card set it: cfitsio takes the
 * first (the one in the place the standard gives it). */
static void
note_first(long long *value, unsigned *seen, unsigned bit, const char *card)
{
	if ((*seen & bit) == 0)
		*value = card_integer(card);
	*seen |= bit;
}

static void
note_card(struct hdu_size *s, const char *card)
{
	char axis[4];
	long n;

	if (memcmp(card, "BITPIX  = ", 10) == 0)
		note_first(&s->bitpix, &s->seen, SEEN_BITPIX, card);
	else if (memcmp(card, "NAXIS   = ", 10) == 0)
		note_first(&s->naxis, &s->seen, SEEN_NAXIS, card);
	else if (memcmp(card, "PCOUNT  = ", 10) == 0)
		note_first(&s->pcount, &s->seen, SEEN_PCOUNT, card);
	else if (memcmp(card, "GCOUNT  = ", 10) == 0)
		note_first(&s->gcount, &s->seen, SEEN_GCOUNT, card);
	else if (memcmp(card, "NAXIS", 5) == 0 && card[8] == '=') {
		memcpy(axis, card + 5, 3);
		axis[3] = '\0';
		if (sscanf(axis, "%ld", &n) == 1 && n >= 1 && n <= MAXAXES &&
		    !s->axis_seen[n]) {
			s->axis[n] = card_integer(card);
			s->axis_seen[n] = 1;
		}
	}
}

/* Whether a TFIELDS card holds a count the standard allows (0-999):
 * cfitsio allocates its column table from it before it checks.  cfitsio
 * also takes "TFIELDS=" with the '=' in column 8. */
static int
tfields_card_ok(const char *card, long long *n)
{
	char value[CARD - 8 + 1];
	size_t at = card[7] == '=' ? 8 : 9;	/* after the '=' */

	if (memcmp(card, "TFIELDS", 7) != 0 || (card[7] != '=' &&
	    (card[7] != ' ' || card[8] != '=')))
		return 1;
	memcpy(value, card + at, CARD - at);
	value[CARD - at] = '\0';
	*n = strtoll(value, NULL, 10);
	return *n >= 0 && *n <= MAX_TFIELDS;
}

/* Bytes of data after the header, whole blocks; -1 when absurd. */
static long long
data_blocks_bytes(const struct hdu_size *s)
{
	long long n = s->naxis > 0 ? 1 : 0, bytes;
	long long i;

	if (s->naxis < 0 || s->naxis > MAXAXES || s->pcount < 0 ||
	    s->gcount < 0 || s->bitpix == 0)
		return -1;
	for (i = 1; i <= s->naxis; i++) {
		if (s->axis[i] < 0 || (s->axis[i] > 0 &&
		    n > INT64_MAX / 16 / s->axis[i]))
			return -1;
		n *= s->axis[i];
	}
	if (n > INT64_MAX / 16 - s->pcount || (s->gcount > 1 &&
	    n + s->pcount > INT64_MAX / 16 / s->gcount))
		return -1;
	bytes = (llabs(s->bitpix) / 8) * (s->gcount > 0 ? s->gcount : 1) *
	    (n + s->pcount);
	return (bytes + BLOCK - 1) / BLOCK * BLOCK;
}

/* Whether byte k of a card is text: ASCII 32-126, as the standard asks;
 * commentary cards (COMMENT, HISTORY, blank keyword), whose text cfitsio
 * does not parse, may hold other bytes above 31 (a name in Latin-1). */
static int
card_byte_ok(const char *card, int k)
{
	unsigned char c = (unsigned char)card[k];

	if (c >= 32 && c <= 126)
		return 1;
	return k >= 8 && c >= 128 && (memcmp(card, "COMMENT ", 8) == 0 ||
	    memcmp(card, "HISTORY ", 8) == 0 || memcmp(card, "        ", 8) == 0);
}

/* Whether the quoted string from card[j] (its opening quote) closes, a
 * doubled quote standing for one, and only blanks follow it before the
 * comment (FITS 4.0, 4.2.1.1). */
static int
quoted_ok(const char *card, size_t j)
{
	for (j++; j < CARD; j++)
		if (card[j] == '\'' && (j + 1 == CARD || card[j + 1] != '\''))
			break;
		else if (card[j] == '\'')
			j++;
	if (j >= CARD)
		return 0;
	for (j++; j < CARD && card[j] == ' '; j++)
		;
	return j == CARD || card[j] == '/';
}

/* Whether a card that must hold a character string does: the value of
 * XTENSION, EXTNAME and the column keywords TTYPEn, TFORMn, TUNITn,
 * TDISPn and TDIMn is a closed quoted string after "= " (FITS 4.0,
 * 4.2.1, 7.3.1).  cfitsio copies an unquoted value of 70 characters, or
 * one after a bare "=", into a field one byte too short, and aborts. */
static int
string_card_ok(const char *card)
{
	static const char *keys[] = {
		"XTENSION", "EXTNAME ", "TTYPE", "TFORM", "TUNIT", "TDISP",
		"TDIM"
	};
	size_t i, j;

	if (card[8] != '=')
		return 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (memcmp(card, keys[i], strlen(keys[i])) == 0)
			break;
	if (i == sizeof(keys) / sizeof(keys[0]))
		return 1;
	if (card[9] != ' ')
		return 0;
	for (j = 10; j < CARD && card[j] == ' '; j++)
		;
	return j < CARD && card[j] == '\'' && quoted_ok(card, j);
}

int
sps_fits_number(const char *text, int integer, double *value)
{
	char buf[CARD + 1], *end;
	size_t i;

	for (i = 0; text[i] != '\0' && i < CARD; i++)
		buf[i] = text[i] == 'D' || text[i] == 'd' ? 'E' : text[i];
	while (i > 0 && buf[i - 1] == ' ')
		i--;
	buf[i] = '\0';
	*value = strtod(buf, &end);
	if (end == buf || *end != '\0' || !isfinite(*value))
		return 0;
	return !integer || (*value == floor(*value) && fabs(*value) < 9e18);
}

/* Whether the value of a card that is not a string is short (a complex
 * pair: up to its ')'), a logical, or a number that a long integer
 * holds: cfitsio 4.2 writes a value it cannot read as an integer (junk,
 * or out of range) into its error message with a bound past the
 * message's end (ffc2j), and aborts on one of 29 characters or more. */
static int
value_card_ok(const char *card)
{
	char token[CARD + 1];
	size_t j, n = 0;
	double value;

	if (card[8] != '=' || card[9] != ' ')
		return 1;
	for (j = 10; j < CARD && card[j] == ' '; j++)
		;
	if (j == CARD || card[j] == '\'' || card[j] == '/')
		return 1;
	if (card[j] == '(') {	/* cfitsio reads to the ')', past a '/' */
		const char *close = memchr(card + j, ')', CARD - j);

		return (close != NULL ? (size_t)(close - card) + 1 : CARD) -
		    j <= MAX_LONG_VALUE;
	}
	for (; j < CARD && card[j] != '/'; j++)
		token[n++] = card[j];
	while (n > 0 && token[n - 1] == ' ')
		n--;
	token[n] = '\0';
	if (n <= MAX_LONG_VALUE || strcmp(token, "T") == 0 ||
	    strcmp(token, "F") == 0)
		return 1;
	return sps_fits_number(token, 0, &value) && fabs(value) < 9e18;
}

/* One header from f, its cards checked.  *end 1 at the end of the file. */
static enum sps_err
check_header(FILE *f, const char *name, int hdu, struct hdu_size *s,
    int *end)
{
	char block[BLOCK];
	int card = 0, i, j;
	long long n;

	memset(s, 0, sizeof(*s));
	s->gcount = 1;
	for (;;) {
		if (fread(block, 1, BLOCK, f) != BLOCK) {
			*end = 1;
			return ferror(f) ? sps_fail(SPS_EIO, "%s: %s", name,
			    strerror(errno)) : SPS_OK;
		}
		for (i = 0; i < BLOCK; i += CARD, card++) {
			for (j = i; j < i + CARD; j++)
				if (!card_byte_ok(block + i, j - i))
					return sps_fail(SPS_EFORMAT, "%s: HDU %d, "
					    "header card %d: byte %d is not "
					    "ASCII text (0x%02x)", name, hdu + 1,
					    card + 1, j - i + 1,
					    (unsigned char)block[j]);
			if (!string_card_ok(block + i))
				return sps_fail(SPS_EFORMAT, "%s: HDU %d, header "
				    "card %d: %.8s is not a quoted string",
				    name, hdu + 1, card + 1, block + i);
			if (!value_card_ok(block + i))
				return sps_fail(SPS_EFORMAT, "%s: HDU %d, header "
				    "card %d: the value of %.8s is neither a "
				    "number nor a string", name, hdu + 1,
				    card + 1, block + i);
			if (!tfields_card_ok(block + i, &n))
				return sps_fail(SPS_EFORMAT, "%s: HDU %d, header "
				    "card %d: TFIELDS %lld is not in 0..999",
				    name, hdu + 1, card + 1, n);
			note_card(s, block + i);
			if (memcmp(block + i, "END     ", 8) == 0)
				return SPS_OK;
		}
	}
}

enum sps_err
sps_fits_cards_check(const char *path, const char *name)
{
	struct hdu_size *s;
	enum sps_err e = SPS_OK;
	long long skip;
	int hdu, end = 0;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		return sps_fail(SPS_EIO, "%s: %s", name, strerror(errno));
	if ((s = malloc(sizeof(*s))) == NULL) {
		fclose(f);
		return sps_fail(SPS_ENOMEM, "out of memory");
	}
	for (hdu = 0; !end; hdu++) {
		if ((e = check_header(f, name, hdu, s, &end)) != SPS_OK || end)
			break;
		if ((skip = data_blocks_bytes(s)) < 0 ||
		    fseeko(f, (off_t)skip, SEEK_CUR) != 0)
			break;	/* cfitsio will say what is wrong */
	}
	free(s);
	fclose(f);
	return e;
}
