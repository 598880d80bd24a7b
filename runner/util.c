// SPDX-License-Identifier: MIT
/* util.c - messages, allocation, strings, files and child processes. */
#define _GNU_SOURCE
#include "util.h"

#include <fcntl.h>
#include <dirent.h>
#include <openssl/evp.h>
#include <poll.h>
#include <sched.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

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

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

char *xvasprintf(size_t *len, const char *fmt, va_list ap)
{
	char *p;
	int n = vasprintf(&p, fmt, ap);

	if (n < 0)
		die(EXIT_INFRA, "out of memory");
	if (len)
		*len = (size_t)n;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(NULL, fmt, ap);
	va_end(ap);
	return p;
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	if (sb->len + len + 1 > sb->cap) {
		sb->cap = (sb->len + len + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

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

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	_cleanup_free_ char *s = NULL;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	s = xvasprintf(&n, fmt, ap);
	va_end(ap);
	sb_add(sb, s, n);
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

char *sb_detach(struct strbuf *sb)
{
	char *r = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return r;
}

/*
 * A file to read whole: a regular file (a fifo would block the open or the
 * read for ever, /dev/zero never ends) of at most READ_FILE_MAX bytes.
 * O_NONBLOCK only opens it; reading a regular file does not block.
 */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > READ_FILE_MAX) {
		int err = S_ISDIR(st.st_mode) ? EISDIR : !S_ISREG(st.st_mode) ? EINVAL : EFBIG;

		close(fd);
		return -err;
	}
	return fd;
}

const char *read_file_error(int r)
{
	if (r == -EINVAL)
		return "not a regular file (a device or a fifo?)";
	if (r == -EFBIG)
		return "larger than umlrun reads (1 GiB)";
	return strerror(-r);
}

int read_file(const char *path, char **out, size_t *len)
{
	_cleanup_close_ int fd = open_regular(path);
	struct strbuf sb = { 0 };
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return fd;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			sb_release(&sb);
			return -err;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	if (len)
		*len = sb.len;
	*out = sb_detach(&sb);
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	_cleanup_free_ char *suffix = tmp_suffix();
	/* PATH.tmp-PID.nsINODE: what a killed writer leaves, sweep_stale_tmp knows. */
	_cleanup_free_ char *tmp = xasprintf("%s.tmp-%s", path, suffix);
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int err;

	if (fd < 0)
		return -errno;
	if ((err = write_all(fd, data, len)) < 0) {
		unlink(tmp);
		return err;
	}
	if (close(steal_fd(&fd)) < 0 || rename(tmp, path) < 0) {
		err = errno;
		unlink(tmp);
		return -err;
	}
	return 0;
}

int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	_cleanup_free_ char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int walk_level(int dfd, int depth, walk_fn *fn, void *ctx)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int r = 0;

	if (!d) {
		close(dfd);
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;
		int cfd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		switch (fn(dfd, de->d_name, &st, depth, ctx)) {
		case WALK_NEXT:
			continue;
		case WALK_STOP:
			closedir(d);
			return -2;
		case WALK_ENTER:
			break;
		}
		cfd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0) {
			r = -1;
			continue;
		}
		switch (walk_level(cfd, depth + 1, fn, ctx)) {
		case -2:
			closedir(d);
			return -2;
		case -1:
			r = -1;
		}
	}
	closedir(d);
	return r;
}

int walk_at(int dfd, walk_fn *fn, void *ctx)
{
	return walk_level(dfd, 1, fn, ctx) < 0 ? -1 : 0;
}

/* One folder on the way down: what rm_tree_at still has to enter. */
struct rm_level {
	char *name; /* in its parent; NULL for the top */
	char **subs;
	size_t n, next;
};

/* Unlinks what fd holds but folders, which it lists in l (0 or -errno). */
static int rm_scan(int fd, struct rm_level *l)
{
	int dfd, r = 0;
	DIR *d;
	struct dirent *de;
	struct stat self;

	/* A folder of mode 555 (not root): its entries are ours to remove. */
	if (fstat(fd, &self) == 0 && (self.st_mode & 0700) != 0700 &&
	    fchmod(fd, self.st_mode | 0700) < 0)
		r = -errno;
	dfd = dup(fd);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;

	if (!d) {
		r = -errno;
		if (dfd >= 0)
			close(dfd);
		return r;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = r ? r : -errno;
		} else if (S_ISDIR(st.st_mode)) {
			l->subs = xrealloc(l->subs, (l->n + 1) * sizeof(*l->subs));
			l->subs[l->n++] = xstrdup(de->d_name);
		} else if (unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT) {
			r = r ? r : -errno;
		}
	}
	closedir(d);
	return r;
}

static void rm_level_free(struct rm_level *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->subs[i]);
	free(l->subs);
	free(l->name);
}

/*
 * Empties the folder fd (and closes fd): by descriptors, never following a
 * symbolic link, and at any depth with one descriptor open, going down
 * into each subfolder and back up by "..". A guest can make a tree deeper
 * than any path (renaming folders into one another), and a path-based
 * walk (nftw) stops at PATH_MAX. For trees nothing else changes while it
 * runs: umlrun's own, and a guest's once it has ended.
 */
static int rm_tree_at(int fd)
{
	struct rm_level *stack = xcalloc(1, sizeof(*stack));
	size_t depth = 1;
	int r = rm_scan(fd, &stack[0]);

	while (fd >= 0) {
		struct rm_level *l = &stack[depth - 1];

		if (l->next < l->n) {
			const char *name = l->subs[l->next++];
			int cfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			int sr;

			/* A folder of mode 000, when not root: it is ours to open. */
			if (cfd < 0 && errno == EACCES && fchmodat(fd, name, 0700, 0) == 0)
				cfd = openat(fd, name,
					     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd < 0) {
				r = r ? r : -errno;
				continue;
			}
			close(fd);
			fd = cfd;
			stack = xrealloc(stack, (depth + 1) * sizeof(*stack));
			stack[depth] = (struct rm_level){ .name = xstrdup(name) };
			sr = rm_scan(fd, &stack[depth]);
			r = r ? r : sr;
			depth++;
			continue;
		}
		if (depth == 1) {
			close(fd);
			break;
		}
		{
			int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			close(fd);
			fd = parent;
			if (fd < 0)
				r = r ? r : -errno;
			else if (unlinkat(fd, l->name, AT_REMOVEDIR) < 0 && errno != ENOENT)
				r = r ? r : -errno;
			rm_level_free(l);
			depth--;
		}
	}
	while (depth)
		rm_level_free(&stack[--depth]);
	free(stack);
	return r;
}

void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	{
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int r = fd < 0 ? -errno : rm_tree_at(fd);

		if (r < 0)
			return r;
	}
	return rmdir(path) < 0 && errno != ENOENT ? -errno : 0;
}

int rm_contents(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : rm_tree_at(fd);
}

char *path_resolved(const char *path)
{
	_cleanup_free_ char *head = xstrdup(*path ? path : ".");
	char *rest = NULL, *real;

	/* The longest part that exists, resolved; the rest as written. */
	while (!(real = realpath(head, NULL))) {
		char *slash = strrchr(head, '/');
		char *tail;

		if (errno != ENOENT)
			break;
		tail = xstrdup(slash ? slash + 1 : head);
		if (rest) {
			char *both = xasprintf("%s/%s", tail, rest);

			free(rest);
			free(tail);
			rest = both;
		} else {
			rest = tail;
		}
		if (!slash) {
			free(head);
			head = xstrdup(".");
		} else if (slash == head) {
			head[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
	/* The rest by name: "." and "" dropped, ".." taking back a part. */
	for (char *part = rest ? strtok(rest, "/") : NULL; real && part; part = strtok(NULL, "/")) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..")) {
			char *slash = strrchr(real, '/');

			if (slash && slash != real)
				*slash = '\0';
			else
				strcpy(real, "/");
			continue;
		}
		{
			char *both = xasprintf("%s/%s", strcmp(real, "/") ? real : "", part);

			free(real);
			real = both;
		}
	}
	free(rest);
	return real;
}

bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * SIGPIPE too: a reader of stdout or stderr that goes away (`| head`) ends
 * a run as a signal does, with the reports written, not umlrun alone. So
 * does every other signal whose default ends a process and that a user or
 * a limit may send (kill -USR1, setrlimit's SIGXCPU and SIGXFSZ: blocked,
 * a write past RLIMIT_FSIZE fails with EFBIG instead).
 */
const int ending_signals[N_ENDING_SIGNALS] = { SIGINT,	  SIGTERM, SIGHUP,  SIGQUIT,
					       SIGPIPE,	  SIGUSR1, SIGUSR2, SIGALRM,
					       SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };

bool helpers_own_group;
void (*suspend_hook)(void);

/*
 * A helper program (a build's make, tar) runs in a process group of its
 * own. Before a run blocks the ending signals, one of them that comes
 * while a helper runs is passed to the helper's whole group (make and
 * every compiler it started, ^C included: the terminal sends it to
 * umlrun's group alone); once the helper is gone the folders it was
 * writing are removed and umlrun dies of the signal.
 */
static volatile sig_atomic_t helper_signal;
static volatile pid_t helper_pid;
static const char *scratch[4];

static void pass_to_helper(int sig)
{
	int saved = errno;

	if (!helper_signal)
		helper_signal = sig;
	if (helper_pid > 0)
		kill(-helper_pid, sig);
	errno = saved;
}

/* ^Z while a helper runs: it stops with umlrun, and goes on with it. */
static void stop_with_helper(int sig)
{
	int saved = errno;

	(void)sig;
	if (helper_pid > 0)
		kill(-helper_pid, SIGSTOP);
	raise(SIGSTOP);
	if (helper_pid > 0)
		kill(-helper_pid, SIGCONT);
	errno = saved;
}

void scratch_push(const char *path)
{
	for (size_t i = 0; i < sizeof(scratch) / sizeof(scratch[0]); i++)
		if (!scratch[i]) {
			scratch[i] = path;
			return;
		}
	abort(); /* more than four at once: a bug of ours */
}

void scratch_pop(const char *path)
{
	for (size_t i = 0; i < sizeof(scratch) / sizeof(scratch[0]); i++)
		if (scratch[i] == path)
			scratch[i] = NULL;
}

/* The parent of pid, from /proc (0 when it cannot be read). */
static pid_t parent_of(pid_t pid)
{
	_cleanup_free_ char *path = xasprintf("/proc/%d/stat", (int)pid);
	_cleanup_free_ char *stat = NULL;
	const char *paren;
	int ppid;

	/* "PID (COMM) STATE PPID ...": COMM may hold anything but the last ')'. */
	if (read_file(path, &stat, NULL) < 0 || !(paren = strrchr(stat, ')')) ||
	    sscanf(paren + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

bool job_control_stops(void)
{
	pid_t pid = getpid(), group = getpgrp(), session = getsid(0);

	/*
	 * Orphaned unless a process of umlrun's group has its parent in
	 * another group of the same session (the shell that would send
	 * SIGCONT): the kernel drops a SIGTSTP there, and so does umlrun.
	 * umlrun's ancestors within its group stand for the group.
	 */
	for (int depth = 0; depth < 64; depth++) {
		pid_t parent = parent_of(pid);

		if (parent <= 0)
			return false;
		if (getpgid(parent) != group)
			return getsid(parent) == session;
		pid = parent;
	}
	return false;
}

/* What a helper's run changed in umlrun's signal handling, to undo. */
struct helper_signals {
	struct sigaction old[N_ENDING_SIGNALS + 1]; /* the ending signals, then SIGTSTP */
	sigset_t mask;				    /* the mask before */
	sigset_t set;				    /* the ending signals and SIGTSTP */
};

/*
 * Before the fork: the ending signals and SIGTSTP blocked and given to
 * pass_to_helper and stop_with_helper (unless blocked already, as in a
 * run that reads them from its signalfd, or ignored), so that none
 * arriving while the helper starts finds a umlrun that would die of it
 * with its scratch folders left.
 */
static void helper_signals_take(struct helper_signals *h)
{
	struct sigaction sa = { .sa_handler = pass_to_helper };
	struct sigaction stop = { .sa_handler = stop_with_helper, .sa_flags = SA_RESTART };

	sigemptyset(&h->set);
	for (size_t i = 0; i < N_ENDING_SIGNALS; i++)
		sigaddset(&h->set, ending_signals[i]);
	sigaddset(&h->set, SIGTSTP);
	sigprocmask(SIG_BLOCK, &h->set, &h->mask);
	sigemptyset(&sa.sa_mask);
	sigemptyset(&stop.sa_mask);
	for (size_t i = 0; i <= N_ENDING_SIGNALS; i++) {
		int sig = i < N_ENDING_SIGNALS ? ending_signals[i] : SIGTSTP;

		sigaction(sig, NULL, &h->old[i]);
		if (!helpers_own_group && h->old[i].sa_handler != SIG_IGN &&
		    (sig != SIGTSTP || job_control_stops()))
			sigaction(sig, i < N_ENDING_SIGNALS ? &sa : &stop, NULL);
	}
}

/* After the fork, in umlrun: the helper's group known, what came meanwhile is passed on. */
static void helper_started(const struct helper_signals *h, pid_t pid)
{
	/* The group may be set by either side first: a kill must not miss it. */
	if (pid > 0)
		setpgid(pid, pid);
	helper_pid = pid;
	sigprocmask(SIG_SETMASK, &h->mask, NULL);
}

/*
 * The helper is gone (or never started): umlrun's own handling again.
 * Blocked meanwhile, so that a signal comes either before (and ends
 * umlrun here, its scratch folders removed) or after (and takes its
 * default action then), never in between to be lost.
 */
static void helper_reaped(const struct helper_signals *h)
{
	int sig;

	sigprocmask(SIG_BLOCK, &h->set, NULL);
	helper_pid = 0;
	for (size_t i = 0; i <= N_ENDING_SIGNALS; i++)
		sigaction(i < N_ENDING_SIGNALS ? ending_signals[i] : SIGTSTP, &h->old[i], NULL);
	sig = helper_signal;
	helper_signal = 0;
	if (sig) {
		sigset_t one;

		for (size_t i = 0; i < sizeof(scratch) / sizeof(scratch[0]); i++)
			if (scratch[i])
				rm_rf(scratch[i]);
		signal(sig, SIG_DFL);
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	sigprocmask(SIG_SETMASK, &h->mask, NULL);
}

static int helper_wait(pid_t pid, const struct helper_signals *h)
{
	int st, err = 0;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			err = errno;
			break;
		}
	helper_reaped(h);
	return err ? -err : st;
}

/*
 * In a child about to exec a helper program: the signals the parent reads
 * from a signalfd (supervise.c blocks them) are the program's own again,
 * and a umlrun that dies (SIGKILL) takes the program with it: no tar, xz
 * or make left running. ppid is the parent's pid, taken before the fork.
 */
static void child_default_signals(pid_t ppid)
{
	sigset_t none;

	setpgid(0, 0);
	/* Out of the terminal's foreground group: writing to it must not stop it (tostop). */
	signal(SIGTTOU, SIG_IGN);
	for (size_t i = 0; i < N_ENDING_SIGNALS; i++) {
		struct sigaction sa;

		if (sigaction(ending_signals[i], NULL, &sa) == 0 && sa.sa_handler == pass_to_helper)
			signal(ending_signals[i], SIG_DFL);
	}
	{
		struct sigaction sa;

		if (sigaction(SIGTSTP, NULL, &sa) == 0 && sa.sa_handler == stop_with_helper)
			signal(SIGTSTP, SIG_DFL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != ppid)
		_exit(127);
}

int run_argv(char *const argv[], int log_fd)
{
	struct helper_signals h;
	pid_t parent = getpid(), pid;

	helper_signals_take(&h);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		helper_reaped(&h);
		return -err;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		if (log_fd >= 0) {
			dup2(log_fd, 1);
			dup2(log_fd, 2);
		}
		child_default_signals(parent);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", prog_name, argv[0], strerror(errno));
		_exit(127);
	}
	helper_started(&h, pid);
	return helper_wait(pid, &h);
}

int run_argv_watched(char *const argv[], int log_fd, const struct run_watch *w)
{
	struct helper_signals h;
	char buf[8192];
	size_t have = 0;
	int pfd[2];
	pid_t parent = getpid(), pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	helper_signals_take(&h);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(pfd[0]);
		close(pfd[1]);
		helper_reaped(&h);
		return -err;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		if (w->in_child)
			w->in_child();
		child_default_signals(parent);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", prog_name, argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	helper_started(&h, pid);
	for (;;) {
		ssize_t n = read(pfd[0], buf + have, sizeof(buf) - 1 - have);
		char *p, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (log_fd >= 0 && write(log_fd, buf + have, (size_t)n) < 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
			*nl = '\0';
			if (w->on_line)
				w->on_line(w->ctx, p);
		}
		/* A line longer than half the buffer is not watched, only logged. */
		have = strlen(p);
		memmove(buf, p, have + 1);
		if (have > sizeof(buf) / 2)
			have = 0;
		if (w->tick)
			w->tick(w->ctx);
	}
	close(pfd[0]);
	return helper_wait(pid, &h);
}

char *capture_argv(char *const argv[], int *status)
{
	struct strbuf sb = { 0 };
	int pfd[2];
	char buf[4096];
	ssize_t n;
	pid_t parent = getpid(), pid;

	*status = -1;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return NULL;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		dup2(pfd[1], 1);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 2);
		}
		child_default_signals(parent);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	close(pfd[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return sb_detach(&sb);
}

struct hasher {
	EVP_MD_CTX *ctx;
};

struct hasher *hasher_new(void)
{
	struct hasher *h = xmalloc(sizeof(*h));

	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || !EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL))
		die(EXIT_INFRA, "cannot initialise SHA-256");
	return h;
}

void hasher_add(struct hasher *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

void hasher_add_str(struct hasher *h, const char *s)
{
	hasher_add(h, s, strlen(s) + 1);
}

int hasher_add_file(struct hasher *h, const char *path)
{
	_cleanup_close_ int fd = open_regular(path);
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return fd;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		hasher_add(h, buf, (size_t)n);
	}
	return 0;
}

void hasher_final(struct hasher *h, char hex[65])
{
	unsigned char md[32];
	unsigned int len = 0;

	EVP_DigestFinal_ex(h->ctx, md, &len);
	for (unsigned int i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
	EVP_MD_CTX_free(h->ctx);
	free(h);
}

/*
 * ${XDG_CACHE_HOME:-~/.cache}/umlrun. A relative XDG_CACHE_HOME is ignored
 * (the XDG spec says so: it would mean another folder from every working
 * folder), and without an absolute HOME the user's home comes from the
 * password database, never a shared folder such as /tmp. NULL when there
 * is no home at all.
 */
char *cache_path(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct passwd *pw;
	static bool warned;

	if (xdg && xdg[0] == '/')
		return xasprintf("%s/umlrun", xdg);
	if (!home || home[0] != '/')
		home = (pw = getpwuid(geteuid())) && pw->pw_dir ? pw->pw_dir : NULL;
	if (!home || home[0] != '/')
		return NULL;
	/* A CI's cache paths are relative (GitLab): say where the cache went. */
	if (xdg && *xdg && !warned) {
		warned = true;
		warn("XDG_CACHE_HOME=%s is not an absolute path, so it is ignored (the XDG rule): "
		     "the cache is %s/.cache/umlrun; give it as $PWD/%s",
		     xdg, home, xdg);
	}
	return xasprintf("%s/.cache/umlrun", home);
}

/*
 * A cache not made yet is made when first needed, in a folder that is
 * there: XDG_CACHE_HOME, or HOME (whose .cache may be new). Not in one
 * that is not (HOME=/nonexistent, a typo): that made the whole path and
 * built a kernel there, unasked.
 */
static char *cache_parent_problem(const char *root)
{
	_cleanup_free_ char *parent = xstrdup(root);
	char *slash = strrchr(parent, '/');
	struct stat st;

	if (!slash)
		return NULL;	       /* cache_path's are absolute */
	slash[slash == parent] = '\0'; /* "/umlrun": "/" */
	if (stat(parent, &st) == 0)
		return NULL;
	slash = strrchr(parent, '/');
	if (slash && !strcmp(slash, "/.cache")) {
		slash[slash == parent] = '\0';
		if (stat(parent, &st) == 0)
			return NULL;
	}
	return xasprintf("the cache %s cannot be made: %s does not exist (as HOME or "
			 "XDG_CACHE_HOME names it); create it, or set XDG_CACHE_HOME to a folder "
			 "that exists",
			 root, parent);
}

/*
 * umlrun runs what its cache holds (kernels, build trees): a cache that
 * another user (root aside) owns, or that every user may write to, could
 * run code as us. Why the cache folder root (NULL: cache_path found no
 * home) must not be used, or NULL when it is fine.
 */
char *cache_problem(const char *root)
{
	struct stat st;

	if (!root)
		return xstrdup("no folder for the cache: set XDG_CACHE_HOME (or HOME) to an "
			       "absolute path");
	if (stat(root, &st) < 0) {
		if (errno == ENOENT)
			return cache_parent_problem(root);
		return xasprintf("the cache %s cannot be used: %s; set XDG_CACHE_HOME (or HOME) to "
				 "a folder",
				 root, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return xasprintf("the cache %s is not a folder; remove it, or set XDG_CACHE_HOME "
				 "to a folder",
				 root);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return xasprintf("the cache %s belongs to another user (uid %u): umlrun runs what "
				 "its cache holds; use a folder of your own (XDG_CACHE_HOME=DIR)",
				 root, (unsigned)st.st_uid);
	if (st.st_mode & S_IWOTH)
		return xasprintf("the cache %s is writable by every user: umlrun runs what its "
				 "cache holds; 'chmod o-w %s' or use a folder of your own "
				 "(XDG_CACHE_HOME=DIR)",
				 root, root);
	return NULL;
}

char *cache_root(void)
{
	char *root = cache_path();
	char *problem;

	if ((problem = cache_problem(root)))
		die(EXIT_USAGE, "%s", problem);
	return root;
}

size_t utf8_valid_len(const unsigned char *p)
{
	size_t n;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void sb_add_utf8(struct strbuf *sb, const unsigned char **p)
{
	size_t n = utf8_valid_len(*p);

	if (n == 0) {
		sb_adds(sb, "\xef\xbf\xbd"); /* U+FFFD for a byte that is not UTF-8 */
		return;
	}
	sb_add(sb, *p, n);
	*p += n - 1;
}

int sb_write_atomic(const char *path, struct strbuf *sb, struct uerr *e)
{
	int r = write_file_atomic(path, sb->buf ? sb->buf : "", sb->len);

	sb_release(sb);
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
	}
	return 0;
}

double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t splitmix64_mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t splitmix64_next(uint64_t *state)
{
	return splitmix64_mix(*state += 0x9e3779b97f4a7c15ULL);
}

char *compiler_version(void)
{
	char *argv[] = { "gcc", "--version", NULL };
	int st;
	char *out = capture_argv(argv, &st);

	if (!out)
		return xstrdup("unknown");
	out[strcspn(out, "\n")] = '\0';
	return out;
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

const char *first_mark(const char *text, size_t len, const char *const *marks, size_t n)
{
	const char *best = NULL;

	for (size_t m = 0; m < n; m++) {
		const char *p = memmem(text, len, marks[m], strlen(marks[m]));

		if (p && (!best || p < best))
			best = p;
	}
	return best;
}

/* s fit for a one-line message: control and non-ASCII bytes as \n, \r, \t or \xNN. */
char *str_printable(const char *s)
{
	struct strbuf sb = { 0 };

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			sb_adds(&sb, "\\n");
		else if (*p == '\r')
			sb_adds(&sb, "\\r");
		else if (*p == '\t')
			sb_adds(&sb, "\\t");
		else if (*p == '\\')
			sb_adds(&sb, "\\\\");
		else if (*p < 0x20 || *p >= 0x7f)
			sb_printf(&sb, "\\x%02x", *p);
		else
			sb_add(&sb, p, 1);
	}
	return sb.len ? sb_detach(&sb) : xstrdup("");
}

unsigned long long size_bytes(const char *size)
{
	char *end;
	unsigned long long v = strtoull(size, &end, 10);

	return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : *end == 'G' ? v << 30 : v;
}

/*
 * What an interrupted umlrun left in a cache folder (NAME.tmp-PID of a
 * process that is gone, untouched for an hour: a PID that seems gone may
 * be another PID namespace's, sharing the cache): never mistaken for a
 * finished entry, but removed so that it does not pile up (an extracted
 * kernel source is 1.3 GB).
 */

/* This process's PID namespace, as the inode of /proc/self/ns/pid (0: unknown). */
static unsigned long long pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

char *owner_text(void)
{
	return xasprintf("%ld %llu\n", (long)getpid(), pid_ns());
}

bool owner_gone(const char *text)
{
	char *end;
	long pid;
	unsigned long long ns;

	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || pid <= 0)
		return false;
	ns = strtoull(end, NULL, 10);
	/* Another PID namespace's PID says nothing of this one's processes. */
	if (ns && ns != pid_ns())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

char *tmp_suffix(void)
{
	return xasprintf("%ld.ns%llu", (long)getpid(), pid_ns());
}

char *tmp_name(const char *path)
{
	_cleanup_free_ char *suffix = tmp_suffix();

	return xasprintf("%s.tmp-%s", path, suffix);
}

int tmp_staleness(const char *name)
{
	const char *t = strstr(name, ".tmp-");
	char *end;
	long pid;
	unsigned long long ns = 0;

	if (!t)
		return 0;
	errno = 0;
	pid = strtol(t + 5, &end, 10);
	if (errno || pid <= 0)
		return 0;
	if (!strncmp(end, ".ns", 3)) {
		char *nsend;

		ns = strtoull(end + 3, &nsend, 10);
		end = nsend;
	}
	if (*end || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;
	/* The PID is of our namespace: its process is gone for sure. */
	return ns && ns == pid_ns() ? TMP_STALE : TMP_STALE_IF_OLD;
}

void sweep_stale_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		int stale = tmp_staleness(de->d_name);
		_cleanup_free_ char *path = NULL;
		struct stat st;

		if (!stale)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (stale == TMP_STALE ||
		    (lstat(path, &st) == 0 && st.st_mtime < time(NULL) - STALE_TMP_AGE))
			rm_rf(path);
	}
	closedir(d);
}

bool unicode_control(const unsigned char *p, size_t n)
{
	if (n == 2)
		return p[0] == 0xd8 && p[1] == 0x9c; /* U+061C */
	return n == 3 && p[0] == 0xe2 &&
	       ((p[1] == 0x80 &&
		 (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xa8 && p[2] <= 0xae))) ||
		(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

bool host_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

int cpus_usable(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

char *host_cpu_describe(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	_cleanup_free_ char *line = NULL, *model = NULL;
	size_t cap = 0;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	while (f && !model && getline(&line, &cap, f) > 0) {
		char *v = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !v)
			continue;
		v += strspn(v + 1, " \t") + 1;
		v[strcspn(v, "\n")] = '\0';
		if (*v)
			model = str_shown(v);
	}
	if (f)
		fclose(f);
	return xasprintf("%s, %ld CPU%s", model ? model : "unknown CPU", n, n == 1 ? "" : "s");
}

/*
 * s as a run shows what a guest printed (sched.c's escape_byte), a copy:
 * C0 controls but tab, DEL, the C1 controls (U+0080..U+009F, "\xc2\x80"
 * to "\xc2\x9f" in UTF-8), the bidirectional controls (unicode_control) and,
 * here also, any byte that is not UTF-8 become \xHH, one per byte. What a
 * merge writes from it (ktap.txt, junit.xml, messages) then holds nothing
 * a terminal or an XML reader would act on.
 */
char *str_shown(const char *s)
{
	struct strbuf sb = { 0 };

	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_valid_len(p);
		bool control = (*p < 0x20 && *p != '\t') || *p == 0x7f ||
			       (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) || unicode_control(p, n);

		if (n && !control) {
			sb_add(&sb, p, n);
			p += n;
			continue;
		}
		for (size_t i = 0; i < (n ? n : 1); i++)
			sb_printf(&sb, "\\x%02x", p[i]);
		p += n ? n : 1;
	}
	return sb_detach(&sb);
}
