// SPDX-License-Identifier: MIT
/*
 * outq.c - output that never blocks umlrun: the queues of stdout and
 * stderr, written as the reader takes them.
 */
#define _GNU_SOURCE
#include "outq.h"

#include "fs.h"
#include "proc.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>

struct outq outq_stdout = { .fd = STDOUT_FILENO, .wfd = -1 },
	    outq_stderr = { .fd = STDERR_FILENO, .wfd = -1 };

/*
 * A pipe or a terminal, opened anew through /proc without blocking: a
 * terminal may take less than poll(2) promised (^S), and O_NONBLOCK on the
 * shared fd would change it for the shell too. A file never blocks, and its
 * offset is the fd's own: that stays as it is.
 */
static int outq_wfd(struct outq *q)
{
	struct stat st;

	if (q->wfd >= 0)
		return q->wfd;
	q->wfd = q->fd;
	/* Not opened for writing (std_fds_fill's stand-in for a closed fd): EBADF it is. */
	if ((fcntl(q->fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
		return q->wfd;
	if (fstat(q->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		_cleanup_free_ char *self = xasprintf("/proc/self/fd/%d", q->fd);
		int fd = open(self, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

		if (fd >= 0)
			q->wfd = fd;
	}
	return q->wfd;
}

bool outq_waiting(const struct outq *q)
{
	return q->off < q->buf.len;
}

size_t outq_backlog(const struct outq *q)
{
	return q->buf.len - q->off;
}

void outq_flush(struct outq *q)
{
	while (outq_waiting(q) && !q->err) {
		struct pollfd pf = { .fd = q->fd, .events = POLLOUT };
		size_t n = q->buf.len - q->off;
		ssize_t w;

		if (poll(&pf, 1, 0) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!(pf.revents & (POLLOUT | POLLERR | POLLHUP | POLLNVAL)))
			break; /* the reader has not made room */
		w = write(outq_wfd(q), q->buf.buf + q->off, n < 4096 ? n : 4096);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			break;
		if (w <= 0) {
			q->err = w < 0 ? errno : EIO;
			q->lost += n;
			break;
		}
		q->off += (size_t)w;
	}
	if (q->off == q->buf.len || q->err) {
		q->off = q->buf.len = 0; /* all written, or nowhere to go */
		if (q->buf.buf)
			q->buf.buf[0] = '\0';
	} else if (q->off > (1 << 20) && q->off * 2 > q->buf.len) {
		memmove(q->buf.buf, q->buf.buf + q->off, q->buf.len - q->off);
		q->buf.len -= q->off;
		q->off = 0;
	}
}

void outq_add(struct outq *q, const void *data, size_t len)
{
	if (q->err) {
		q->lost += len;
		return;
	}
	if (q->buf.len - q->off + len > OUTQ_MAX) {
		q->dropped += len;
		return;
	}
	sb_add(&q->buf, data, len);
	outq_flush(q);
}

void outq_printf(struct outq *q, const char *fmt, ...)
{
	_cleanup_free_ char *text = NULL;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	text = xvasprintf(&n, fmt, ap);
	va_end(ap);
	outq_add(q, text, n);
}

int outq_drain(struct outq *q, int sfd)
{
	bool stuck = false;

	while (outq_waiting(q) && !q->err) {
		struct pollfd pf[2] = { { .fd = q->fd, .events = POLLOUT },
					{ .fd = sfd, .events = POLLIN } };
		size_t before = outq_backlog(q);

		/*
		 * A terminal whose output is stopped (^S) may say it is
		 * writable and take nothing: then only the signals are waited
		 * on, a tenth of a second at a time, not spun on.
		 */
		if (stuck) {
			if (sfd >= 0 && poll(&pf[1], 1, 100) < 0 && errno != EINTR)
				break;
			pf[0].revents = POLLOUT;
		} else if (poll(pf, sfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR) {
			break;
		}
		if (sfd >= 0 && (pf[1].revents & POLLIN)) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) != sizeof(si) || si.ssi_signo == SIGCHLD)
				continue;
			if (si.ssi_signo != SIGTSTP)
				return (int)si.ssi_signo;
			if (suspend_hook)
				suspend_hook();
			continue;
		}
		outq_flush(q);
		stuck = outq_waiting(q) && outq_backlog(q) == before;
	}
	return 0;
}
