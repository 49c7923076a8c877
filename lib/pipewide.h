/* pipewide.h: pipes between the stages made wide and fed without a
 * copy.  A Linux pipe holds 64 KB: a DM-time stream of hundreds of MB a
 * second then crosses it in thousands of small writes and wake-ups; 1 MB
 * (the unprivileged limit by default) lets it cross in few.  write(2)
 * copies every byte into the pipe and read(2) copies it out again;
 * vmsplice(2) lends the writer's pages to the pipe instead, which halves
 * the copying, but the pages must then stay as they are until the
 * reader has read them. */
#ifndef SPS_PIPEWIDE_H
#define SPS_PIPEWIDE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Widen fd when it is a pipe; nothing otherwise, or where the system
 * refuses. */
void sps_pipe_widen(int fd);

/* Whether fd is a pipe that sps_pipe_lend can feed. */
int sps_pipe_can_lend(int fd);

/* Lend up to n bytes at p to the pipe fd, as write(2) would write them:
 * the bytes lent, or -1 and errno (EFAULT, EINVAL or ENOSYS: memory or
 * a system that cannot lend; write it instead). */
ssize_t sps_pipe_lend(int fd, const void *p, size_t n);

/* Wait until the reader of the pipe fd has read everything in it, or has
 * gone: pages lent to it are then free to change. */
void sps_pipe_wait_drained(int fd);

/* The bytes in the pipe fd not yet read (0 where it cannot be told). */
size_t sps_pipe_unread(int fd);

#endif
