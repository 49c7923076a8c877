/* pipewide.h: pipes between the stages made wide and fed without a
 * copy.  A Linux pipe holds 64 KB: a DM-time stream of hundreds of MB a
 * second then crosses it in thousands of small writes and wake-ups; 1 MB
 * (the unprivileged limit by default) lets it cross in few.  write(2)
 * copies every byte into the pipe and read(2) copies it out again;
 * vmsplice(2) lends the writer's pages to the pipe instead, which halves
 * the copying.  A lent page is the reader's until read, and may travel
 * on (a reader that splices, as pv does, moves it into another pipe), so
 * the writer never touches it again: it maps fresh pages in its place. */
#ifndef SPS_PIPEWIDE_H
#define SPS_PIPEWIDE_H

#include <stddef.h>
#include <sys/types.h>

/* Widen fd when it is a pipe; nothing otherwise, or where the system
 * refuses. */
void sps_pipe_widen(int fd);

/* Whether fd is a pipe that sps_pipe_lend can feed. */
int sps_pipe_can_lend(int fd);

/* Lend the n bytes at p, in pages of a private anonymous mapping of the
 * caller's starting on a page, to the pipe fd, waiting for room as
 * write(2) does, then map fresh (zero) pages in place of those lent: n;
 * fewer, and errno, when the pipe failed after some; -1 and errno when
 * nothing was lent (EFAULT, EINVAL, ENOSYS: memory or a system that
 * cannot lend; write the bytes instead) or fresh pages could not be
 * had. */
ssize_t sps_pipe_lend(int fd, void *p, size_t n);

/* Fresh private anonymous pages for n bytes, *len of them (whole pages),
 * on 2 MB pages where the system gives them: at p, over what was there,
 * or anywhere for p NULL.  Memory sps_pipe_lend can lend; NULL when the
 * system gives none. */
void *sps_pipe_pages(void *p, size_t n, size_t *len);

#endif
