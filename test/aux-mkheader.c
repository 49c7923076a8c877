/* aux-mkheader: write SIGPROC header tokens, good or bad, to stdout, for
 * tests of header readers.  Each argument is one item:
 *
 *	NAME		a string token (HEADER_START, a keyword, ...)
 *	NAME:i:N	the token NAME, then N as a 4-byte int
 *	NAME:d:X	... then X as an 8-byte double (nan, inf, -1e-6 work)
 *	NAME:s:TEXT	... then TEXT as a string token
 *	NAME:c:N	... then N as one byte
 *	NAME:l:N	... then N as an 8-byte integer
 *	@len:N:TEXT	a 4-byte length N (any value), then the bytes of TEXT
 *	@data:N		N data bytes (a fixed pattern)
 *	@repeat:N	write the next item N times
 *
 * Example: aux-mkheader HEADER_START nchans:i:0 HEADER_END @data:16 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
put(const void *buf, size_t len)
{
	if (len > 0 && fwrite(buf, 1, len, stdout) != len)
		err(1, "stdout");
}

static void
put_token(const char *s, size_t len)
{
	int32_t n = (int32_t)len;

	put(&n, 4);
	put(s, len);
}

static long long
integer(const char *text)
{
	char *end;
	long long v = strtoll(text, &end, 0);

	if (end == text || *end != '\0')
		errx(2, "'%s' is not an integer", text);
	return v;
}

static void
put_value(char type, const char *text)
{
	int32_t i32;
	int64_t i64;
	double d;
	char *end;
	signed char c;

	switch (type) {
	case 'i':
		i32 = (int32_t)integer(text);
		put(&i32, 4);
		break;
	case 'd':
		d = strtod(text, &end);
		if (end == text || *end != '\0')
			errx(2, "'%s' is not a number", text);
		put(&d, 8);
		break;
	case 's':
		put_token(text, strlen(text));
		break;
	case 'c':
		c = (signed char)integer(text);
		put(&c, 1);
		break;
	case 'l':
		i64 = integer(text);
		put(&i64, 8);
		break;
	default:
		errx(2, "unknown value type '%c'", type);
	}
}

static void
put_data(long long n)
{
	unsigned char block[4096];
	size_t i, take;

	for (i = 0; i < sizeof(block); i++)
		block[i] = (unsigned char)(i * 37 + 11);
	while (n > 0) {
		take = n < (long long)sizeof(block) ? (size_t)n : sizeof(block);
		put(block, take);
		n -= (long long)take;
	}
}

/* "@len:N:TEXT": a length that need not match the bytes that follow. */
static void
put_raw_length(const char *spec)
{
	const char *colon = strchr(spec, ':');
	char number[32];
	int32_t n;

	if (colon == NULL || (size_t)(colon - spec) >= sizeof(number))
		errx(2, "@len:N:TEXT expected, got '@len:%s'", spec);
	memcpy(number, spec, (size_t)(colon - spec));
	number[colon - spec] = '\0';
	n = (int32_t)integer(number);
	put(&n, 4);
	put(colon + 1, strlen(colon + 1));
}

static void
put_item(const char *arg)
{
	const char *colon = strchr(arg, ':');

	if (strncmp(arg, "@len:", 5) == 0)
		put_raw_length(arg + 5);
	else if (strncmp(arg, "@data:", 6) == 0)
		put_data(integer(arg + 6));
	else if (colon == NULL)
		put_token(arg, strlen(arg));
	else if (colon[1] == '\0' || colon[2] != ':')
		errx(2, "NAME:TYPE:VALUE expected, got '%s'", arg);
	else {
		put_token(arg, (size_t)(colon - arg));
		put_value(colon[1], colon + 3);
	}
}

int
main(int argc, char **argv)
{
	long long repeat;
	int i;

	for (i = 1; i < argc; i++) {
		repeat = 1;
		if (strncmp(argv[i], "@repeat:", 8) == 0) {
			repeat = integer(argv[i] + 8);
			if (++i == argc)
				errx(2, "@repeat needs an item after it");
		}
		while (repeat-- > 0)
			put_item(argv[i]);
	}
	if (fflush(stdout) != 0)
		err(1, "stdout");
	return 0;
}
