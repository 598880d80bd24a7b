// SPDX-License-Identifier: MIT
/*
 * msg.c - messages and errors: die, warn, note, struct uerr,
 * the exit codes, stderr's queue as messages use it, say_through.
 */
#define _GNU_SOURCE
#include "msg.h"

#include "fs.h"
#include "outq.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>

const char *prog_name = "umlrun";

/*
 * Messages go through stderr's queue in the process that set it up
 * (stderr_queue_init): a reader that stops reading stderr then does not
 * stop umlrun. At exit what waits is written, waiting for the reader but
 * not past a signal: one that umlrun blocks (its signalfd reads them) is
 * waited on through a signalfd of its own here. A forked child writes
 * its messages directly: the queue it inherited is not its own.
 */
static pid_t stderr_owner;

static void stderr_at_exit(void)
{
	static const int sigs[] = { SIGINT,  SIGTERM, SIGHUP,	 SIGQUIT, SIGPIPE, SIGUSR1,
				    SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };
	sigset_t blocked, watch;
	int sfd = -1;

	if (getpid() != stderr_owner || !outq_waiting(&outq_stderr))
		return;
	sigemptyset(&watch);
	if (sigprocmask(SIG_BLOCK, NULL, &blocked) == 0)
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			if (sigismember(&blocked, sigs[i]))
				sigaddset(&watch, sigs[i]);
	if (!sigisemptyset(&watch))
		sfd = signalfd(-1, &watch, SFD_CLOEXEC);
	outq_drain(&outq_stderr, sfd);
	if (sfd >= 0)
		close(sfd);
}

void std_fds_fill(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/*
		 * The lowest free descriptor: fd itself, those below it being
		 * open. Read-only, so that a write fails with EBADF as it did
		 * on the closed fd, in umlrun and in what it runs.
		 */
		n = open("/dev/null", O_RDONLY);
		if (n != fd)
			_exit(EXIT_INFRA);
	}
}

void stderr_queue_init(void)
{
	if (!stderr_owner)
		atexit(stderr_at_exit);
	stderr_owner = getpid();
}

void stderr_add(const char *text, size_t len)
{
	if (getpid() == stderr_owner) {
		outq_add(&outq_stderr, text, len);
		return;
	}
	(void)write_all(STDERR_FILENO, text, len);
}

/* Allocates nothing on the way: out of memory is one of the messages. */
static void vmsg(const char *prefix, int err, const char *fmt, va_list ap)
{
	char line[8192];
	int n = snprintf(line, sizeof(line), "%s: %s", prog_name, prefix);

	if (n >= 0 && (size_t)n < sizeof(line))
		n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (err && n >= 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ": %s", strerror(err));
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line) - 1)
		n = (int)sizeof(line) - 2; /* cut, the line still ends */
	line[n++] = '\n';
	stderr_add(line, (size_t)n);
}

static int uerr_vset(struct uerr *e, int code, int err, const char *fmt, va_list ap)
{
	int n;

	e->code = code;
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	/* What to do, where the cause is a limit the user sets. */
	if (err && n >= 0 && (size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - (size_t)n, ": %s%s", strerror(err),
			 err == EMFILE ? " (raise ulimit -n)" : "");
	return -1;
}

int uerr_set(struct uerr *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	uerr_vset(e, code, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int uerr_sys(struct uerr *e, int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	uerr_vset(e, code, saved, fmt, ap);
	va_end(ap);
	return -1;
}

void uerr_print(const struct uerr *e)
{
	note("%s", e->msg);
}

void uerr_die(const struct uerr *e)
{
	uerr_print(e);
	exit(e->code);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", 0, fmt, ap);
	va_end(ap);
	exit(code);
}

void die_sys(int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("", saved, fmt, ap);
	va_end(ap);
	exit(code);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", 0, fmt, ap);
	va_end(ap);
}

void warn_sys(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", saved, fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", 0, fmt, ap);
	va_end(ap);
}

void say_through(void (*say)(void *ctx, bool transient, const char *text), void *ctx,
		 bool transient, const char *fmt, ...)
{
	_cleanup_free_ char *text = NULL;
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (text)
		say(ctx, transient, text);
}
