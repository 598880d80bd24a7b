/* SPDX-License-Identifier: MIT */
/*
 * die.h - the one way the guest's static programs (rootfs/init.c,
 * rootfs/helpers/) report an error, after bubblewrap's utils.h and
 * kselftest.h:
 *
 *	#define DIE_PROG "hwsimctl"
 *	#include "../die.h"
 *
 *	fd = open(path, O_RDONLY);
 *	if (fd < 0)
 *		die_sys("cannot open %s", path);  // hwsimctl: cannot open P: No such ...
 *
 * Every message is one line on stderr, prefixed with the program's name;
 * stdout is flushed first, so that with 2>&1 the lines come out in the
 * order they happened. The _sys variants append strerror(errno), with
 * errno saved before anything else runs; die_err() takes the error number
 * from the APIs that return it (pthread_*, clock_nanosleep). The format
 * strings are checked by the compiler.
 *
 * Exit statuses: die() and die_sys() exit DIE_STATUS (1 unless the
 * program defines it), die_status() the status it is given, usage_error()
 * 2 after a "Try 'PROG --help'." line. A program that must do more on the
 * way out defines DIE_EXIT (a noreturn function of the status, declared
 * before the #include), and one that keeps a copy of its messages
 * points die_copy at a FILE (wpactl -L).
 *
 * Header only, every function static: each program is one file, linked
 * statically, and the unused helpers cost nothing.
 */
#ifndef UMLRUN_GUEST_DIE_H
#define UMLRUN_GUEST_DIE_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DIE_PROG
#error "define DIE_PROG, the program's name, before including die.h"
#endif
#ifndef DIE_STATUS
#define DIE_STATUS 1
#endif
#ifndef DIE_EXIT
#define DIE_EXIT exit
#endif

#define NORETURN     __attribute__((noreturn))
#define PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Where each message is written as well, when not NULL. */
static FILE *die_copy;

/* "PROG: message[: strerror(errnum)]" on stderr (and die_copy). */
PRINTF(2, 0) static void vmsg(int errnum, const char *fmt, va_list ap)
{
	va_list copy;

	va_copy(copy, ap);
	fflush(stdout);
	fprintf(stderr, "%s: ", DIE_PROG);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	if (die_copy) {
		fprintf(die_copy, "%s: ", DIE_PROG);
		vfprintf(die_copy, fmt, copy);
		if (errnum)
			fprintf(die_copy, ": %s", strerror(errnum));
		fputc('\n', die_copy);
	}
	va_end(copy);
}

/* The unused ones are fine: not every program needs all of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

PRINTF(1, 2) static void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
}

PRINTF(1, 2) static void warn_sys(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

NORETURN PRINTF(1, 2) static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	DIE_EXIT(DIE_STATUS);
}

NORETURN PRINTF(2, 3) static void die_status(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	DIE_EXIT(status);
}

NORETURN PRINTF(1, 2) static void die_sys(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(saved, fmt, ap);
	va_end(ap);
	DIE_EXIT(DIE_STATUS);
}

NORETURN PRINTF(2, 3) static void die_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(err, fmt, ap);
	va_end(ap);
	DIE_EXIT(DIE_STATUS);
}

/* Bad usage: the message, a hint, exit 2. */
NORETURN PRINTF(1, 2) static void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", DIE_PROG);
	DIE_EXIT(2);
}

#pragma GCC diagnostic pop

#endif
