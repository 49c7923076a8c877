/* aux-dmcmp: compare two DM-time streams (dmtime.h), as the GPU tests
 * compare a GPU run with its CPU reference.
 *
 *	aux-dmcmp A B
 *
 * Exit 0 when the two files are the same byte for byte.  Otherwise one
 * line on standard output naming the first difference: in the DM table
 * or the header, or the first differing value as "trial T (DM d) sample
 * S (base sample B): a vs b", or where one stream ends before the other;
 * exit 1.  Exit 2 on a file that cannot be read as a stream. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmtime.h"
#include "header.h"

struct stream {
	const char		*name;
	FILE			*f;
	struct sps_header	 h;
	float			*v;
};

static void
open_stream(struct stream *s, const char *name)
{
	s->name = name;
	if ((s->f = fopen(name, "rb")) == NULL)
		err(2, "%s", name);
	sps_header_init(&s->h);
	if (sps_header_read(s->f, NULL, 0, &s->h) != SPS_OK ||
	    s->h.sps_dmtime != 1 || s->h.ndms < 1 || s->h.sps_block < 1)
		errx(2, "%s: not a DM-time stream: %s", name, sps_errmsg());
	s->v = malloc(sps_dmtime_block_values(&s->h, (size_t)s->h.sps_block) *
	    sizeof(float) + 1);
	if (s->v == NULL)
		err(2, NULL);
}

static void
close_stream(struct stream *s)
{
	fclose(s->f);
	sps_header_free(&s->h);
	free(s->v);
}

static int
same_trials(const struct stream *a, const struct stream *b)
{
	int i;

	if (a->h.ndms != b->h.ndms) {
		printf("%d trials vs %d\n", a->h.ndms, b->h.ndms);
		return 0;
	}
	for (i = 0; i < a->h.ndms; i++)
		if (a->h.dms[i] != b->h.dms[i] ||
		    a->h.scrunch[i] != b->h.scrunch[i]) {
			printf("trial %d: DM %g scrunch %d vs DM %g scrunch "
			    "%d\n", i, a->h.dms[i], a->h.scrunch[i],
			    b->h.dms[i], b->h.scrunch[i]);
			return 0;
		}
	return 1;
}

/* The first differing value of a block of n base samples starting at
 * base sample `at`; 0 and a line when there is one. */
static int
same_block(const struct stream *a, const struct stream *b, size_t n,
    unsigned long long at)
{
	size_t off, j;
	int i, f;

	for (i = 0; i < a->h.ndms; i++) {
		off = sps_dmtime_trial_offset(&a->h, n, i);
		f = a->h.scrunch[i];
		for (j = 0; j < n / (size_t)f; j++)
			if (memcmp(&a->v[off + j], &b->v[off + j],
			    sizeof(float)) != 0) {
				printf("trial %d (DM %g) sample %llu (base "
				    "sample %llu): %.9g vs %.9g\n", i,
				    a->h.dms[i], at / f + j, at + j * f,
				    a->v[off + j], b->v[off + j]);
				return 0;
			}
	}
	return 1;
}

static int
same_values(struct stream *a, struct stream *b)
{
	unsigned long long at = 0;
	enum sps_err ea, eb;
	size_t na, nb;

	for (;;) {
		ea = sps_dmtime_read_block(a->f, &a->h, a->v, &na, NULL);
		eb = sps_dmtime_read_block(b->f, &b->h, b->v, &nb, NULL);
		if (ea == SPS_EEOF && eb == SPS_EEOF)
			return 1;
		if (ea != SPS_OK && ea != SPS_EEOF)
			errx(2, "%s: %s", a->name, sps_errmsg());
		if (eb != SPS_OK && eb != SPS_EEOF)
			errx(2, "%s: %s", b->name, sps_errmsg());
		if (ea == SPS_EEOF || eb == SPS_EEOF || na != nb) {
			printf("at base sample %llu: a block of %zu samples vs "
			    "%zu\n", at, ea == SPS_EEOF ? 0 : na,
			    eb == SPS_EEOF ? 0 : nb);
			return 0;
		}
		if (!same_block(a, b, na, at))
			return 0;
		at += na;
	}
}

/* Byte for byte, after the values agree: the headers' other fields. */
static int
same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	long at = 0;
	int ca, cb;

	if (fa == NULL || fb == NULL)
		err(2, "%s", fa == NULL ? a : b);
	do {
		ca = getc(fa);
		cb = getc(fb);
		at++;
	} while (ca == cb && ca != EOF);
	fclose(fa);
	fclose(fb);
	if (ca == cb)
		return 1;
	printf("the same values, but byte %ld differs (the header)\n", at);
	return 0;
}

int
main(int argc, char **argv)
{
	struct stream a, b;
	int same;

	if (argc != 3) {
		fprintf(stderr, "usage: aux-dmcmp A B\n");
		return 2;
	}
	open_stream(&a, argv[1]);
	open_stream(&b, argv[2]);
	same = same_trials(&a, &b) && same_values(&a, &b) &&
	    same_bytes(argv[1], argv[2]);
	close_stream(&a);
	close_stream(&b);
	return same ? 0 : 1;
}
