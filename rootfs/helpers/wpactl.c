/*
 * wpactl - talk to the control socket of hostapd or wpa_supplicant.
 *
 * A small, static stand-in for wpa_cli/hostapd_cli made for tests:
 *
 *   wpactl [OPTIONS] CMD [ARG...]
 *       Send "CMD ARG..." and print the reply.  Exit 1 when the daemon
 *       answers FAIL... or UNKNOWN COMMAND, so a test's && chain stops.
 *
 *   wpactl [OPTIONS] wait [-t SECONDS] [-n COUNT] [-T] [-c CMD] [-x SHELLCMD]
 *                         [-s CMD] EVENT [EVENT...]
 *       ATTACH as a monitor, then wait until COUNT (default 1) events whose
 *       text contains one of the EVENT strings have arrived; print each
 *       (without its "<level>" prefix) as it comes and exit 0.  After
 *       SECONDS (default 30) exit 1 and print the last events seen to
 *       stderr.  Because the monitor is attached first, nothing it causes
 *       can slip by:
 *         -c CMD   send CMD once attached (an action: its reply must not
 *                  be FAIL);
 *         -x SHELLCMD  run "sh -c SHELLCMD" once attached and wait for
 *                  it (an action on another daemon, e.g. kill the AP and
 *                  wait for the station's disconnection); it must exit 0;
 *         -s CMD   send CMD once attached and match the lines of its reply
 *                  too (a state query: "-s STATUS wpa_state=COMPLETED
 *                  CTRL-EVENT-CONNECTED" is true whether the connection
 *                  came before or after we attached).
 *       The three run in that order.  -T prefixes each printed match with
 *       the uptime (CLOCK_BOOTTIME, seconds.milliseconds) at its arrival,
 *       so a test can check the spacing of timer-driven events.
 *
 *   OPTIONS:
 *     -p DIR      control socket folder (default /run/wpa_supplicant)
 *     -i IFACE    socket name in DIR (default: the only socket in DIR)
 *     -w SECONDS  wait up to SECONDS for the socket to appear (inotify):
 *                 lets a caller start a daemon in the background and talk
 *                 to it as soon as it is up, without polling
 *     -P PID      the daemon's pid: if it exits while we wait, fail at
 *                 once instead of waiting out the timeout (pidfd)
 *     -L FILE     append a record of the exchange to FILE: a "# " line
 *                 with the command, its exit status and the uptime, then
 *                 what went to stdout and stderr.  The test library keeps
 *                 one such file per daemon, so a test needs no tee or cat
 *                 (each process costs tens of milliseconds in the guest).
 *
 * The protocol is hostap's wpa_ctrl one: a unix datagram socket bound to a
 * path of our own (/tmp/wpactl-PID-N) connected to DIR/IFACE; replies come
 * back as single datagrams, unsolicited events start with "<N>".
 *
 * Every timeout is a poll() timeout on CLOCK_MONOTONIC, so under UML time
 * travel it is simulated time: a 120 s wait for a protocol timer costs no
 * wall time.  There is no sleep-and-retry anywhere.
 *
 * Our socket file is removed on every exit path: normal returns, die()
 * (through atexit) and SIGINT/SIGTERM/SIGHUP, which are blocked from the
 * start and read from a signalfd inside the same poll() as the socket.
 *
 * Exit codes: 0 success, 1 FAIL reply or timeout, 2 usage,
 * 3 cannot reach the daemon or it exited, 128+N killed by signal N.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_FAIL  1
#define EXIT_USAGE 2
#define EXIT_INFRA 3

#define DEFAULT_DIR	   "/run/wpa_supplicant"
#define DEFAULT_WAIT_S	   30
#define COMMAND_TIMEOUT_MS 10000 /* wpa_cli's own bound for a reply */
#define MSG_MAX		   16384
#define HISTORY		   12 /* events kept for the timeout report */

/* die.h: die() and die_sys() end as a failure of ours (3), through finish(). */
#define DIE_PROG   "wpactl"
#define DIE_STATUS EXIT_INFRA
#define DIE_EXIT   finish
__attribute__((noreturn)) static void finish(int status);
#include "../die.h"

/*
 * Everything we hold, global so every exit path (atexit, signals) can
 * release it.  -1 is "no fd".
 */
static struct ctrl {
	int fd;	   /* our datagram socket */
	int sigfd; /* SIGINT/SIGTERM/SIGHUP */
	int pidfd; /* the daemon, with -P */
	pid_t pid; /* the daemon's pid, for messages */
	bool attached;
	char local[sizeof(((struct sockaddr_un *)0)->sun_path)];
} ctrl = { -1, -1, -1, 0, false, "" };

/*
 * -L: stdout and stderr are copied into a memory stream, written to the
 * record file in one append on exit, whichever way we exit.
 */
static struct {
	const char *path;
	char *what; /* the command line, for the header */
	char *text;
	size_t len;
	FILE *f;
	int status;
} record = { NULL, NULL, NULL, 0, NULL, 0 };

static void record_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record_printf(const char *fmt, ...)
{
	va_list ap;

	if (!record.f)
		return;
	va_start(ap, fmt);
	vfprintf(record.f, fmt, ap);
	va_end(ap);
}

static void record_write(void)
{
	struct timespec ts;
	FILE *out;

	if (!record.f)
		return;
	die_copy = NULL;
	fclose(record.f);
	record.f = NULL;
	out = fopen(record.path, "a");
	if (!out) {
		warn_sys("cannot append to %s", record.path);
		return;
	}
	clock_gettime(CLOCK_BOOTTIME, &ts);
	fprintf(out, "# %s (status %d at %lld.%02ld s)\n%.*s", record.what, record.status,
		(long long)ts.tv_sec, ts.tv_nsec / 10000000, (int)record.len, record.text);
	if (fclose(out))
		warn_sys("cannot write %s", record.path);
	free(record.text);
	record.text = NULL;
}

/* Exit with status, recorded with -L. */
__attribute__((noreturn)) static void finish(int status)
{
	record.status = status;
	exit(status); /* atexit: ctrl_close(), record_write() */
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void ctrl_close(void)
{
	if (ctrl.attached && ctrl.fd >= 0) {
		/* Best effort: a daemon we vanish from drops us itself. */
		(void)send(ctrl.fd, "DETACH", 6, MSG_DONTWAIT);
		ctrl.attached = false;
	}
	close_fd(&ctrl.fd);
	if (ctrl.local[0])
		unlink(ctrl.local);
	ctrl.local[0] = '\0';
	close_fd(&ctrl.sigfd);
	close_fd(&ctrl.pidfd);
}

static void usage(void)
{
	printf("usage: %s [OPTIONS] CMD [ARG...]\n"
	       "       %s [OPTIONS] wait [-t S] [-n N] [-T] [-c CMD] [-x SH] "
	       "[-s CMD] EVENT...\n"
	       "\n"
	       "  -p DIR       control socket folder (default " DEFAULT_DIR ")\n"
	       "  -i IFACE     socket name in DIR (default: the only one)\n"
	       "  -w SECONDS   wait that long for the socket to appear\n"
	       "  -P PID       fail at once if the daemon PID exits\n"
	       "  -L FILE      append what was sent and what came back to FILE\n"
	       "  CMD ARG...   send the command, print the reply; FAIL exits 1\n"
	       "  wait         attach, wait for events containing an EVENT\n"
	       "    -t SECONDS   give up after SECONDS (default %d), exit 1\n"
	       "    -n COUNT     wait for COUNT matching events (default 1)\n"
	       "    -T           prefix each match with the uptime in seconds\n"
	       "    -c CMD       send CMD once attached (reply must not be "
	       "FAIL)\n"
	       "    -x SHELLCMD  run it with sh -c once attached; must exit 0\n"
	       "    -s CMD       send CMD once attached, match its reply lines "
	       "too\n"
	       "  --help       this text\n"
	       "\n"
	       "Exit: 0 ok, 1 FAIL reply or timeout, 2 usage, 3 daemon "
	       "unreachable or gone, 128+N signal N.\n",
	       DIE_PROG, DIE_PROG, DEFAULT_WAIT_S);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int parse_number(const char *s, const char *what, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > max)
		usage_error("%s: bad number '%s'", what, s);
	return (int)v;
}

/* Seconds, small enough to count in milliseconds. */
static int parse_seconds(const char *s, const char *what)
{
	return parse_number(s, what, INT_MAX / 1000);
}

/*
 * Wait until fd or fd2 (-1: none) is readable, or has hung up, or the
 * monotonic deadline passes: 1 fd, 2 fd2, 0 timeout.  A signal ends the
 * program (128+N) and so does the death of the daemon named with -P
 * (EXIT_INFRA), both after cleanup.
 */
static int wait_either(int fd, int fd2, long long deadline)
{
	struct pollfd pfd[4] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = ctrl.sigfd, .events = POLLIN },
		{ .fd = ctrl.pidfd, .events = POLLIN },
		{ .fd = fd2, .events = POLLIN },
	};

	for (;;) {
		long long left = deadline - now_ms();
		int r;

		if (left <= 0)
			return 0;
		r = poll(pfd, 4, left > INT_MAX ? INT_MAX : (int)left);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die_sys("poll");
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(ctrl.sigfd, &si, sizeof(si)) != sizeof(si))
				die_sys("read signalfd");
			warn("killed by signal %u", si.ssi_signo);
			finish(128 + (int)si.ssi_signo);
		}
		/* Data already queued wins over the news of the death. */
		if (pfd[0].revents)
			return 1;
		if (pfd[3].revents)
			return 2;
		if (pfd[2].revents & POLLIN)
			die_status(EXIT_INFRA, "the daemon (pid %d) exited", (int)ctrl.pid);
	}
}

/* Wait until fd is readable or the deadline passes: 1 readable, 0 timeout. */
static int wait_readable(int fd, long long deadline)
{
	return wait_either(fd, -1, deadline);
}

/* The only entry of dir that is a socket, as wpa_cli picks its default. */
static void default_iface(const char *dir, char *out, size_t outlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		die_sys("cannot open %s", dir);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (e->d_type != DT_SOCK && e->d_type != DT_UNKNOWN)
			continue;
		if (n++ == 0)
			snprintf(out, outlen, "%s", e->d_name);
	}
	closedir(d);
	if (n != 1)
		die_status(EXIT_INFRA, "%s holds %d control sockets: name one with -i", dir, n);
}

static void block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	/* Blocked before the socket file exists: no window where a signal
	 * kills us and leaves the file behind. */
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		die_sys("sigprocmask");
	ctrl.sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (ctrl.sigfd < 0)
		die_sys("signalfd");
}

static void watch_daemon(pid_t pid)
{
	ctrl.pid = pid;
	ctrl.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (ctrl.pidfd < 0) {
		if (errno == ESRCH)
			die_status(EXIT_INFRA, "the daemon (pid %d) is not running", (int)pid);
		die_sys("pidfd_open %d", (int)pid);
	}
}

static void bind_local(void)
{
	struct sockaddr_un local = { .sun_family = AF_UNIX };
	int tries;

	ctrl.fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (ctrl.fd < 0)
		die_sys("socket");
	/* A stale file of a killed wpactl with our pid: take the next name. */
	for (tries = 0;; tries++) {
		snprintf(local.sun_path, sizeof(local.sun_path), "/tmp/wpactl-%d-%d", (int)getpid(),
			 tries);
		if (bind(ctrl.fd, (struct sockaddr *)&local, sizeof(local)) == 0)
			break;
		if (errno != EADDRINUSE || tries >= 100)
			die_sys("cannot bind %s", local.sun_path);
	}
	snprintf(ctrl.local, sizeof(ctrl.local), "%s", local.sun_path);
}

/*
 * Watch dir for new entries, or, while dir does not exist (wpa_supplicant
 * removes its empty control folder when it exits), its parent for the
 * folder's creation.  Adding a watch that exists is a no-op, so this is
 * called again after every wake-up.
 */
static void arm_watch(int ifd, const char *dir)
{
	char parent[PATH_MAX];
	char *slash;

	if (inotify_add_watch(ifd, dir, IN_CREATE | IN_MOVED_TO) >= 0)
		return;
	if (errno != ENOENT)
		die_sys("cannot watch %s", dir);
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (inotify_add_watch(ifd, parent, IN_CREATE | IN_MOVED_TO) < 0)
		die_sys("cannot watch %s (for %s)", parent, dir);
}

/* Connect: 0, or the errno worth waiting on (ENOENT, ECONNREFUSED). */
static int try_connect(int fd, const struct sockaddr_un *remote, int wait_s)
{
	if (connect(fd, (const struct sockaddr *)remote, sizeof(*remote)) == 0)
		return 0;
	if ((errno != ENOENT && errno != ECONNREFUSED) || wait_s <= 0)
		die_sys("cannot reach %s", remote->sun_path);
	return errno;
}

/*
 * Connect fd to the socket at path, in the folder dir.  With wait_s > 0 a
 * missing socket (or a stale one nobody listens on) is waited for: each
 * connect attempt comes after the inotify watch is armed, so a socket
 * created in between is not missed.  A socket that exists but refuses is
 * retried every CONNECT_RETRY_MS as well: bind(2) makes the file (and its
 * inotify event) before the socket is reachable through it, and a kernel
 * that preempts (UML is preemptible from 6.12) can run us in between; no
 * second event comes.
 */
#define CONNECT_RETRY_MS 10
static void sock_connect(int fd, const char *path, const char *dir, const char *what, int wait_s)
{
	struct sockaddr_un remote = { .sun_family = AF_UNIX };
	long long deadline = now_ms() + (long long)wait_s * 1000;
	char events[4096] __attribute__((aligned(8)));
	int ifd = -1;

	if ((size_t)snprintf(remote.sun_path, sizeof(remote.sun_path), "%s", path) >=
	    sizeof(remote.sun_path))
		die_status(EXIT_USAGE, "socket path %s is too long", path);
	if (try_connect(fd, &remote, wait_s) == 0)
		return;
	ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ifd < 0)
		die_sys("inotify_init1");
	for (;;) {
		long long until;
		int err;

		arm_watch(ifd, dir);
		err = try_connect(fd, &remote, wait_s);
		if (err == 0)
			break;
		until = deadline;
		if (err == ECONNREFUSED && now_ms() + CONNECT_RETRY_MS < deadline)
			until = now_ms() + CONNECT_RETRY_MS;
		if (!wait_readable(ifd, until) && until == deadline) {
			close(ifd);
			die_status(EXIT_INFRA, "no %s %s within %d s", what, remote.sun_path,
				   wait_s);
		}
		/* Which name appeared does not matter: just try again. */
		while (read(ifd, events, sizeof(events)) > 0)
			;
	}
	close_fd(&ifd);
}

/* Connect to the daemon's socket dir/iface. */
static void ctrl_connect(const char *dir, const char *iface, int wait_s)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, iface) >= sizeof(path))
		die_status(EXIT_USAGE, "socket path %s/%s is too long", dir, iface);
	sock_connect(ctrl.fd, path, dir, "control socket", wait_s);
}

/*
 * The n bytes of a datagram in buf (which has room for n + 1) as text:
 * NUL-terminated, trailing newlines dropped.  Returns its length.
 */
static size_t datagram_text(char *buf, size_t n)
{
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

/*
 * Receive one datagram into buf (see datagram_text) before the deadline.
 * Returns its length, -1 on timeout.
 */
static int ctrl_recv(char *buf, size_t len, long long deadline)
{
	ssize_t n;

	for (;;) {
		if (!wait_readable(ctrl.fd, deadline))
			return -1;
		n = recv(ctrl.fd, buf, len - 1, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			die_sys("cannot read from the daemon");
		}
		return (int)datagram_text(buf, (size_t)n);
	}
}

static bool is_event(const char *msg)
{
	return msg[0] == '<';
}

/*
 * The event text without its "<level>" prefix (wpa_msg's "<%d>"): only
 * that prefix goes, not everything up to the first '>' in the text.
 */
static const char *event_text(const char *msg)
{
	size_t digits = msg[0] == '<' ? strspn(msg + 1, "0123456789") : 0;

	return digits && msg[1 + digits] == '>' ? msg + 2 + digits : msg;
}

static bool is_failure(const char *reply)
{
	return !strncmp(reply, "FAIL", 4) || !strncmp(reply, "UNKNOWN COMMAND", 15);
}

/* Events and how many matched, for wait and for its timeout report. */
static struct {
	char text[HISTORY][512];
	int seen;
	int matched;
	int want;
	int npat;
	char **pat;
	bool stamp; /* -T: prefix printed matches with the uptime */
	bool done;
} ev;

static void remember_event(const char *text)
{
	/* Truncation is fine: the report only has to name the event. */
	snprintf(ev.text[ev.seen % HISTORY], sizeof(ev.text[0]), "%.*s",
		 (int)sizeof(ev.text[0]) - 1, text);
	ev.seen++;
}

static bool matches(const char *text)
{
	int i;

	for (i = 0; i < ev.npat; i++)
		if (strstr(text, ev.pat[i]))
			return true;
	return false;
}

/*
 * Count and print a match, at its arrival (when the caller knows it), or
 * now (NULL); sets ev.done once enough have come.
 */
static void take_if_match(const char *text, const struct timespec *at)
{
	struct timespec ts;

	if (ev.done || !matches(text))
		return;
	if (ev.stamp) {
		/* CLOCK_BOOTTIME is what /proc/uptime shows in the guest. */
		if (at)
			ts = *at;
		else
			clock_gettime(CLOCK_BOOTTIME, &ts);
		printf("%lld.%03ld ", (long long)ts.tv_sec, ts.tv_nsec / 1000000);
		record_printf("%lld.%03ld ", (long long)ts.tv_sec, ts.tv_nsec / 1000000);
	}
	printf("%s\n", text);
	fflush(stdout);
	record_printf("%s\n", text);
	if (++ev.matched >= ev.want)
		ev.done = true;
}

/* An event, while we wait for events or for a reply. */
static void take_event(const char *msg)
{
	remember_event(event_text(msg));
	take_if_match(event_text(msg), NULL);
}

/*
 * Send cmd and return its reply in buf.  Events that arrive in between
 * (we may be attached) go to on_event, which may be NULL.
 */
static void ctrl_request(const char *cmd, char *buf, size_t len, void (*on_event)(const char *msg))
{
	long long deadline = now_ms() + COMMAND_TIMEOUT_MS;

	if (send(ctrl.fd, cmd, strlen(cmd), 0) < 0)
		die_sys("cannot send '%s'", cmd);
	for (;;) {
		if (ctrl_recv(buf, len, deadline) < 0)
			die_status(EXIT_INFRA, "no reply to '%s' within %d s", cmd,
				   COMMAND_TIMEOUT_MS / 1000);
		if (!is_event(buf))
			return;
		if (on_event)
			on_event(buf);
	}
}

/* Send an attached-mode command whose reply must not be FAIL. */
static void attached_request(const char *cmd, char *buf, size_t len)
{
	ctrl_request(cmd, buf, len, take_event);
	if (is_failure(buf))
		die_status(EXIT_FAIL, "'%s' answered %s", cmd, buf);
}

/* Match the reply of a -s query line by line. */
static void match_reply_lines(char *reply)
{
	char *save = NULL, *line;

	for (line = strtok_r(reply, "\n", &save); line && !ev.done;
	     line = strtok_r(NULL, "\n", &save))
		take_if_match(line, NULL);
}

/*
 * Run "sh -c cmd" and wait for it.  Its stdout goes to our stderr: our
 * stdout carries the matched events only.  Events arriving meanwhile
 * queue up in the socket.
 */
static void run_shell(const char *cmd)
{
	sigset_t none;
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die_sys("fork");
	if (pid == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_sys("waitpid");
	if (WIFSIGNALED(status))
		die_status(EXIT_FAIL, "'%s' was killed by signal %d", cmd, WTERMSIG(status));
	if (WEXITSTATUS(status))
		die_status(EXIT_FAIL, "'%s' failed with status %d", cmd, WEXITSTATUS(status));
}

/* To stderr and, with -L, to the record. */
static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (record.f) {
		va_start(ap, fmt);
		vfprintf(record.f, fmt, ap);
		va_end(ap);
	}
}

static void report_timeout(int seconds)
{
	int i, first = ev.seen > HISTORY ? ev.seen - HISTORY : 0;

	report("%s: %d of %d event(s) matching", DIE_PROG, ev.matched, ev.want);
	for (i = 0; i < ev.npat; i++)
		report(" '%s'", ev.pat[i]);
	report(" within %d s; %d event(s) seen%s\n", seconds, ev.seen,
	       ev.seen ? ", the last ones:" : "");
	for (i = first; i < ev.seen; i++)
		report("  %s\n", ev.text[i % HISTORY]);
}

struct wait_opts {
	int seconds;
	const char *action; /* -c */
	const char *shell;  /* -x */
	const char *query;  /* -s */
};

/* Parse wait's own options; returns the index of the first EVENT. */
static int parse_wait(int argc, char **argv, struct wait_opts *w)
{
	int i;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--"))
			return i + 1;
		if (!strcmp(o, "-T")) {
			ev.stamp = true;
			continue;
		}
		if (i + 1 >= argc)
			usage_error("wait %s needs a value", o);
		if (!strcmp(o, "-t"))
			w->seconds = parse_seconds(argv[++i], "wait -t");
		else if (!strcmp(o, "-n"))
			ev.want = parse_number(argv[++i], "wait -n", 100000);
		else if (!strcmp(o, "-c"))
			w->action = argv[++i];
		else if (!strcmp(o, "-x"))
			w->shell = argv[++i];
		else if (!strcmp(o, "-s"))
			w->query = argv[++i];
		else
			usage_error("wait: bad option '%s'", o);
	}
	return i;
}

/* What main parsed, for a connection made after the command's own checks. */
struct options {
	const char *dir;
	const char *iface;
	int wait_s;
	pid_t pid;
	int first; /* index of the command in argv */
};

/* Bind our socket and connect it to the daemon's. */
static void daemon_connect(const struct options *o, int wait_s)
{
	static char found[NAME_MAX + 1];
	const char *iface = o->iface;

	if (!iface) {
		default_iface(o->dir, found, sizeof(found));
		iface = found;
	}
	bind_local();
	ctrl_connect(o->dir, iface, wait_s);
}

/* Join argv with single spaces, as wpa_cli does. */
static void join_args(int argc, char **argv, char *out, size_t len)
{
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < argc; i++) {
		int n = snprintf(out + used, len - used, "%s%s", i ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= len - used)
			usage_error("command too long");
		used += (size_t)n;
	}
}

/* The wait of an attached socket: ATTACH, act, read the events. */
static int wait_attached(const struct wait_opts *w)
{
	static char buf[MSG_MAX];
	long long deadline;

	ctrl_request("ATTACH", buf, sizeof(buf), NULL);
	if (strcmp(buf, "OK"))
		die_status(EXIT_INFRA, "ATTACH refused: %s", buf);
	ctrl.attached = true;
	deadline = now_ms() + (long long)w->seconds * 1000;

	/* Attached: whatever these cause is seen below. */
	if (w->action)
		attached_request(w->action, buf, sizeof(buf));
	if (w->shell)
		run_shell(w->shell);
	if (w->query && !ev.done) {
		attached_request(w->query, buf, sizeof(buf));
		match_reply_lines(buf);
	}

	while (!ev.done) {
		if (ctrl_recv(buf, sizeof(buf), deadline) < 0) {
			report_timeout(w->seconds);
			return EXIT_FAIL;
		}
		if (!is_event(buf))
			continue; /* a late reply: not an event */
		take_event(buf);
	}
	return 0;
}

static int cmd_wait(int argc, char **argv, const struct options *o)
{
	struct wait_opts w = { DEFAULT_WAIT_S, NULL, NULL, NULL };
	int first;

	ev.want = 1;
	first = parse_wait(argc, argv, &w);
	if (first >= argc)
		usage_error("wait needs at least one EVENT");
	if (ev.want < 1)
		usage_error("wait -n: COUNT must be at least 1");
	ev.npat = argc - first;
	ev.pat = argv + first;
	daemon_connect(o, o->wait_s);
	return wait_attached(&w);
}

static int cmd_send(int argc, char **argv, const struct options *o)
{
	static char cmd[4096], buf[MSG_MAX];

	join_args(argc, argv, cmd, sizeof(cmd));
	daemon_connect(o, o->wait_s);
	ctrl_request(cmd, buf, sizeof(buf), NULL);
	printf("%s\n", buf);
	record_printf("%s\n", buf);
	if (!is_failure(buf))
		return 0;
	report("%s: '%s' answered %s\n", DIE_PROG, cmd, buf);
	return EXIT_FAIL;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			exit(0);
		}
		if (i + 1 >= argc)
			usage_error("%s needs a value", a);
		if (!strcmp(a, "-p"))
			o->dir = argv[++i];
		else if (!strcmp(a, "-i"))
			o->iface = argv[++i];
		else if (!strcmp(a, "-w"))
			o->wait_s = parse_seconds(argv[++i], "-w");
		else if (!strcmp(a, "-P"))
			o->pid = (pid_t)parse_number(argv[++i], "-P", INT_MAX);
		else if (!strcmp(a, "-L"))
			record.path = argv[++i];
		else
			usage_error("bad option '%s'", a);
	}
	if (i >= argc)
		usage_error("missing command");
	o->first = i;
}

int main(int argc, char **argv)
{
	struct options o = { DEFAULT_DIR, NULL, 0, 0, 0 };
	int status;

	parse_options(argc, argv, &o);
	if (record.path) {
		static char what[4096];

		join_args(argc - o.first, argv + o.first, what, sizeof(what));
		record.what = what;
		record.f = open_memstream(&record.text, &record.len);
		if (!record.f)
			die_sys("open_memstream");
		die_copy = record.f;
		if (atexit(record_write))
			die_status(EXIT_INFRA, "atexit failed");
	}
	if (atexit(ctrl_close))
		die_status(EXIT_INFRA, "atexit failed");
	block_signals();
	if (o.pid > 0)
		watch_daemon(o.pid);
	if (!strcmp(argv[o.first], "wait"))
		status = cmd_wait(argc - o.first - 1, argv + o.first + 1, &o);
	else
		status = cmd_send(argc - o.first, argv + o.first, &o);
	fflush(stdout);
	record.status = status;
	return status;
}
