/* SPDX-License-Identifier: MIT */
/*
 * msg.h - messages and errors: the exit-code contract, struct uerr,
 * die/warn/note and their _sys variants, stderr's queue, say_through.
 * The error contract is util.h's (docs/errors.md).
 */
#ifndef UMLRUN_UTIL_MSG_H
#define UMLRUN_UTIL_MSG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define UMLRUN_NORETURN	    __attribute__((noreturn))
#define UMLRUN_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* The exit-code contract, documented in docs/exit-codes.md. */
enum umlrun_exit {
	EXIT_PASS = 0,
	EXIT_TESTFAIL = 1,
	EXIT_USAGE = 2,
	EXIT_INFRA = 3,
	EXIT_TIMEOUT = 124,
	EXIT_SIGNAL_BASE = 128,
};

struct uerr {
	int code;	/* one of enum umlrun_exit */
	char msg[1024]; /* one line, no trailing newline */
};

extern const char *prog_name;

int uerr_set(struct uerr *e, int code, const char *fmt, ...) UMLRUN_PRINTF(3, 4);
/* Like uerr_set, appending ": strerror(errno)"; errno is read first. */
int uerr_sys(struct uerr *e, int code, const char *fmt, ...) UMLRUN_PRINTF(3, 4);
UMLRUN_NORETURN void uerr_die(const struct uerr *e);
/* Prints e as uerr_die does, and goes on (the caller keeps its exit code). */
void uerr_print(const struct uerr *e);

UMLRUN_NORETURN void die(int code, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
UMLRUN_NORETURN void die_sys(int code, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
void warn(const char *fmt, ...) UMLRUN_PRINTF(1, 2);
void warn_sys(const char *fmt, ...) UMLRUN_PRINTF(1, 2);
void note(const char *fmt, ...) UMLRUN_PRINTF(1, 2);
/*
 * Messages (die, warn, note) and stderr_add's text go through stderr's
 * queue (struct outq) once the process calls this; before, and in a forked
 * child, they are written directly.
 */
void stderr_queue_init(void);
/*
 * fds 0, 1 and 2 that are closed (umlrun >&-) get /dev/null, or the first
 * pipe or signalfd would take their place (a pipe as a child's stdout, the
 * results written into ktap.txt), opened read-only: a write to 1 or 2
 * still fails with EBADF, as on the closed descriptor.
 */
void std_fds_fill(void);
void stderr_add(const char *text, size_t len);
/*
 * Progress for the user through a module's callback (docs/errors.md: the
 * command layer prints): the formatted text to say(ctx, transient, text),
 * nothing when say is NULL.
 */
void say_through(void (*say)(void *ctx, bool transient, const char *text), void *ctx,
		 bool transient, const char *fmt, ...) UMLRUN_PRINTF(4, 5);

#endif
