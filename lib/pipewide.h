/* pipewide.h: pipes between the stages made wide.  A Linux pipe holds
 * 64 KB: a DM-time stream of hundreds of MB a second then crosses it in
 * thousands of small writes and wake-ups; 1 MB (the unprivileged limit
 * by default) lets it cross in few. */
#ifndef SPS_PIPEWIDE_H
#define SPS_PIPEWIDE_H

/* Widen fd when it is a pipe; nothing otherwise, or where the system
 * refuses. */
void sps_pipe_widen(int fd);

#endif
