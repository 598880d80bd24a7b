/* SPDX-License-Identifier: MIT */
/*
 * outq.h - output that never blocks umlrun (struct outq): the queues of
 * stdout and stderr.
 */
#ifndef UMLRUN_UTIL_OUTQ_H
#define UMLRUN_UTIL_OUTQ_H

#include <stdbool.h>
#include <stddef.h>
#include "alloc.h"
#include "msg.h"

/*
 * Output that never blocks umlrun: what a reader that stops reading (a
 * pager, `| sleep`) has not taken waits in memory, up to OUTQ_MAX bytes
 * (past that it is dropped, and counted), so the wall-clock limits and
 * the signals keep working. Written in pieces of at most 4 KiB, each once
 * poll(2) says the fd takes it (a pipe then takes it whole).
 */
struct outq {
	int fd;
	int wfd; /* what is written to: fd, or (not a file) its own non-blocking open */
	struct strbuf buf;
	size_t off;	/* bytes of buf already written */
	size_t dropped; /* bytes dropped past OUTQ_MAX */
	size_t lost;	/* bytes not written for err */
	int err;	/* the first write error (EPIPE: the reader went away) */
};
#define OUTQ_MAX ((size_t)64 << 20)
/* Past this much waiting, a producer that can wait (exec's guest) is made to. */
#define OUTQ_HIGH ((size_t)8 << 20)
size_t outq_backlog(const struct outq *q);
/* The queues of stdout and stderr (fd 1 and 2). */
extern struct outq outq_stdout, outq_stderr;
void outq_add(struct outq *q, const void *data, size_t len);
void outq_printf(struct outq *q, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
/* Writes what the fd takes now, without waiting. */
void outq_flush(struct outq *q);
bool outq_waiting(const struct outq *q);
/*
 * Writes what waits, waiting for the reader, but not past a signal on the
 * signalfd sfd (-1: none): returns that signal, or 0.
 */
int outq_drain(struct outq *q, int sfd);

#endif
