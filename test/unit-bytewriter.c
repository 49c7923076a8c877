/* unit-bytewriter: blocks written by the bytewriter's thread reach the
 * reader as they were submitted.  The slots' own pages are lent to a
 * pipe, and the caller refills a slot as soon as sps_bytewriter_next
 * hands it back: the reader must still see what was lent, a slow reader
 * and one that splices the pipe on into another (as pv does, which
 * moves the lent pages and leaves the first pipe empty) alike; blocks
 * smaller and larger than the pipe, two to four slots, a header left in
 * the stream's buffer before the blocks.  The caller's own memory, and
 * a regular file, are written as they are; a reader that goes away is a
 * write error, not a hang. */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "bytewriter.h"

#define HEAD	"head"		/* what the caller wrote before the blocks */

struct reader {
	FILE	*f;
	size_t	 block;		/* bytes per block */
	size_t	 stop_after;	/* bytes read before it goes, or 0 */
	size_t	 got;		/* bytes of blocks read */
	size_t	 wrong;		/* bytes of blocks not as written */
	int	 head_ok;
	int	 splice_fd;	/* >= 0: the pipe it splices on from */
	pthread_t forwarder;
};

static unsigned char
pattern(size_t k, size_t j)
{
	return (unsigned char)(k * 37 + j * 11 + (j >> 9));
}

/* Reads in small pieces, with pauses, so that the writer runs ahead. */
static void *
read_slowly(void *arg)
{
	struct reader *r = arg;
	struct timespec nap = { 0, 200000 };
	unsigned char piece[3000];
	char head[sizeof(HEAD) - 1];
	size_t n, i;
	int reads = 0;

	r->head_ok = fread(head, 1, sizeof(head), r->f) == sizeof(head) &&
	    memcmp(head, HEAD, sizeof(head)) == 0;
	while ((n = fread(piece, 1, sizeof(piece), r->f)) > 0) {
		for (i = 0; i < n; i++, r->got++)
			if (piece[i] != pattern(r->got / r->block, r->got %
			    r->block))
				r->wrong++;
		if (++reads % 8 == 0)
			nanosleep(&nap, NULL);
		if (r->stop_after > 0 && r->got >= r->stop_after)
			break;
	}
	fclose(r->f);
	return NULL;
}

/* Splices the writer's pipe on into the reader's as fast as it can. */
static void *
forward(void *arg)
{
	int *fd = arg;
	ssize_t n;

	while ((n = splice(fd[0], NULL, fd[1], NULL, 1 << 20, 0)) > 0)
		;
	close(fd[0]);
	close(fd[1]);
	return NULL;
}

/* nblocks blocks of block bytes from nslots slots, each filled with
 * garbage, then with the next block, as soon as it is handed back: the
 * slots' own memory (own), or the caller's; what sps_bytewriter_finish
 * returns. */
static enum sps_err
write_blocks(FILE *f, size_t block, int nblocks, int nslots, int own)
{
	unsigned char *mine[4];
	struct sps_dmtime_scratch *buf;
	struct sps_bytewriter *w;
	enum sps_err e = SPS_OK;
	unsigned char *p;
	size_t j;
	int k;

	for (k = 0; k < nslots; k++)
		assert_non_null(mine[k] = malloc(block));
	assert_int_equal(sps_bytewriter_start(&w, f, nslots), SPS_OK);
	for (k = 0; k < nblocks; k++) {
		if ((e = sps_bytewriter_next(w, &buf)) != SPS_OK)
			break;
		p = own ? sps_dmtime_scratch_room(buf, block) : mine[k %
		    nslots];
		assert_non_null(p);
		memset(p, 0xee, block);
		for (j = 0; j < block; j++)
			p[j] = pattern((size_t)k, j);
		sps_bytewriter_submit(w, p, block);
	}
	if (e == SPS_OK)
		e = sps_bytewriter_finish(w);
	else
		sps_bytewriter_abort(w);
	for (k = 0; k < nslots; k++) {
		memset(mine[k], 0xee, block);
		free(mine[k]);
	}
	return e;
}

/* nblocks of block bytes through a pipe to a slow reader, directly or
 * (spliced) through a second pipe of 1 MB, which goes after stop_after
 * bytes (0: never); what the writer's finish gave. */
static enum sps_err
through_pipe(struct reader *r, size_t block, int nblocks, int nslots,
    int own, int spliced, size_t stop_after)
{
	int fd[2], fd2[2], link[2];
	pthread_t tid, fwd;
	enum sps_err e;
	FILE *f;

	memset(r, 0, sizeof(*r));
	r->block = block;
	r->stop_after = stop_after;
	assert_int_equal(pipe(fd), 0);
	if (spliced) {
		assert_int_equal(pipe(fd2), 0);
		(void)fcntl(fd2[1], F_SETPIPE_SZ, 1 << 20);
		link[0] = fd[0];
		link[1] = fd2[1];
		assert_int_equal(pthread_create(&fwd, NULL, forward, link), 0);
		assert_non_null(r->f = fdopen(fd2[0], "rb"));
	} else
		assert_non_null(r->f = fdopen(fd[0], "rb"));
	assert_non_null(f = fdopen(fd[1], "wb"));
	assert_int_equal(fputs(HEAD, f) >= 0, 1);	/* buffered */
	assert_int_equal(pthread_create(&tid, NULL, read_slowly, r), 0);
	e = write_blocks(f, block, nblocks, nslots, own);
	fclose(f);
	pthread_join(tid, NULL);
	if (spliced)
		pthread_join(fwd, NULL);
	return e;
}

static void
check_pipe(size_t block, int nblocks, int nslots, int own, int spliced)
{
	struct reader r;

	assert_int_equal(through_pipe(&r, block, nblocks, nslots, own,
	    spliced, 0), SPS_OK);
	assert_true(r.head_ok);
	assert_int_equal(r.got, block * (size_t)nblocks);
	assert_int_equal(r.wrong, 0);
}

static void
own_pages_to_a_pipe(void **state)
{
	(void)state;
	check_pipe(1000, 300, 2, 1, 0);
	check_pipe(1, 50, 3, 1, 0);
	check_pipe(300001, 10, 2, 1, 0);
	check_pipe(300001, 10, 4, 1, 0);
}

static void
own_pages_spliced_on(void **state)
{
	(void)state;
	check_pipe(1000, 300, 2, 1, 1);
	check_pipe(300001, 12, 3, 1, 1);
}

static void
callers_memory_to_a_pipe(void **state)
{
	(void)state;
	check_pipe(1000, 300, 2, 0, 0);
	check_pipe(300001, 10, 3, 0, 1);
}

static void
to_a_file(void **state)
{
	unsigned char *all;
	size_t block = 70001, j, n;
	int nblocks = 5, k, own;

	(void)state;
	for (own = 0; own < 2; own++) {
		FILE *f = tmpfile();

		assert_non_null(f);
		assert_int_equal(fputs(HEAD, f) >= 0, 1);
		assert_int_equal(write_blocks(f, block, nblocks, 3, own),
		    SPS_OK);
		rewind(f);
		n = sizeof(HEAD) - 1 + block * (size_t)nblocks;
		assert_non_null(all = malloc(n + 1));
		assert_int_equal(fread(all, 1, n + 1, f), n);
		assert_memory_equal(all, HEAD, sizeof(HEAD) - 1);
		for (k = 0; k < nblocks; k++)
			for (j = 0; j < block; j++)
				assert_int_equal(all[sizeof(HEAD) - 1 +
				    (size_t)k * block + j], pattern((size_t)k,
				    j));
		free(all);
		fclose(f);
	}
}

static void
reader_gone(void **state)
{
	struct reader r;

	(void)state;
	assert_int_equal(through_pipe(&r, 100000, 60, 2, 1, 0, 250000),
	    SPS_EIO);
	assert_int_equal(r.wrong, 0);
	assert_int_equal(through_pipe(&r, 100000, 60, 2, 0, 0, 250000),
	    SPS_EIO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_pages_to_a_pipe),
		cmocka_unit_test(own_pages_spliced_on),
		cmocka_unit_test(callers_memory_to_a_pipe),
		cmocka_unit_test(to_a_file),
		cmocka_unit_test(reader_gone),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
