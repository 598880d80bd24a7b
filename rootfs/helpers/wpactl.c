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
 *   wpactl -P PID [OPTIONS] monitor SOCKET LOG
 *       The daemon's event monitor, for as long as it runs: ATTACH (the
 *       control socket waited for with -w), then append every event to LOG,
 *       one line each, in one write:
 *           SECONDS.NANOSECONDS <N>TEXT   an event, as the daemon sent it
 *           SECONDS.NANOSECONDS # TEXT    a note: "attached ...", a
 *                                         client's mark, "end: ..." last
 *       The time is CLOCK_BOOTTIME at the event's arrival; a newline inside
 *       an event becomes a space; an event starts with "<", so none reads
 *       as a note.  Once attached it listens on SOCKET (unix seqpacket)
 *       for clients (-M), then prints "attached" on stdout and closes it:
 *       a caller reading a fifo knows it is ready without waiting for
 *       SOCKET to appear.  It keeps a cursor into LOG, where the next wait
 *       without -c, -x or -s starts, and sends "+" to its clients whenever
 *       it logs an event.  It ends when the daemon exits (-P), or detaches
 *       first (DETACH, answered) on SIGTERM or a client's `detach`:
 *       wpa_supplicant waits 100 ms before it exits while a monitor is
 *       attached, which would add that much simulated time to every stop.
 *
 *   wpactl -M SOCKET [OPTIONS] wait|CMD|cursor|detach ...
 *       Through the daemon's monitor at SOCKET:
 *         wait       reads the events from the monitor's LOG instead of
 *                    attaching: from the cursor, or with -c, -x or -s from
 *                    now (a mark), as an attached wait would; then moves
 *                    the cursor past the last match (to now when a -s
 *                    reply matched, or at a timeout).  So `CMD` then
 *                    `wait EVENT` cannot miss what CMD caused.
 *         CMD        marks LOG (the cursor moves to the send), then sends.
 *         cursor     prints the cursor (a byte offset in LOG).
 *         detach     the monitor detaches and ends; returns once the
 *                    daemon has taken the DETACH.
 *       The monitor's protocol: a request, one answer "OK OFFSET" (with
 *       LOG's descriptor for CURSOR and MARK), "+" news skipped.  CURSOR
 *       [TEXT]: TEXT noted, with the cursor.  MARK [TEXT]: the events
 *       queued so far are logged, then TEXT as a note, and the cursor
 *       moves to the end.  SEEN OFFSET: the cursor moves forward to
 *       OFFSET.  DETACH.  A wait reads LOG when news comes, not through
 *       inotify: closing an inotify instance that watched something waits
 *       for an SRCU grace period, a tick (10 ms) of simulated time on an
 *       idle guest.
 *
 *   OPTIONS:
 *     -p DIR      control socket folder (default /run/wpa_supplicant)
 *     -i IFACE    socket name in DIR (default: the only socket in DIR)
 *     -w SECONDS  wait up to SECONDS for the socket to appear (inotify):
 *                 lets a caller start a daemon in the background and talk
 *                 to it as soon as it is up, without polling; with -M, the
 *                 monitor's socket
 *     -P PID      the daemon's pid: if it exits while we wait, fail at
 *                 once instead of waiting out the timeout (pidfd)
 *     -M SOCKET   the daemon's monitor (above)
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
 * Our socket files (and a monitor's SOCKET) are removed on every exit
 * path: normal returns, die() (through atexit) and SIGINT/SIGTERM/SIGHUP,
 * which are blocked from the start and read from a signalfd inside the
 * same poll() as the sockets.
 *
 * Exit codes: 0 success, 1 FAIL reply or timeout, 2 usage,
 * 3 cannot reach the daemon or it exited, 128+N killed by signal N.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include <sys/stat.h>
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
#define HISTORY		   12	       /* events kept for the timeout report */
#define MONITOR_CLIENTS	   8	       /* a monitor's clients at once */
#define MONITOR_REQ_MAX	   (4096 + 64) /* a MARK of the longest command */

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
 * The monitor's side (wpactl monitor) and a client's (-M).  -1 is "no fd".
 */
static struct {
	int srv;		   /* SOCKET, listening */
	int conn[MONITOR_CLIENTS]; /* clients */
	int log;		   /* LOG, appended to */
	int log_rd;		   /* LOG again, read-only: handed to clients */
	off_t cursor;		   /* where a wait without -c, -x, -s starts */
	const char *why;	   /* the reason of the end note */
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* removed at exit */
	int fd;	   /* a client's connection to SOCKET */
	int logfd; /* the LOG its monitor handed over */
	const char *path;
} mon = { -1, { 0 }, -1, -1, 0, NULL, "", -1, -1, NULL };

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

/* The longest line of LOG, its newline included. */
#define LOG_LINE_MAX (MSG_MAX + 64)

/*
 * A line of a monitor's LOG in line (LOG_LINE_MAX + 1 bytes), newline and
 * all, NUL-terminated:
 * "SECONDS.NANOSECONDS TEXT" for an event (TEXT as the daemon sent it,
 * "<N>" first), "SECONDS.NANOSECONDS # TEXT" for a note.  A newline inside
 * TEXT becomes a space, and TEXT is cut to fit.  Returns the length.
 */
static size_t format_log_line(char *line, bool note, const char *text, const struct timespec *ts)
{
	size_t n, i;

	n = (size_t)snprintf(line, LOG_LINE_MAX, "%lld.%09ld %s", (long long)ts->tv_sec,
			     ts->tv_nsec, note ? "# " : "");
	for (i = 0; text[i] && n < LOG_LINE_MAX - 1; i++)
		line[n++] = text[i] == '\n' ? ' ' : text[i];
	line[n++] = '\n';
	line[n] = '\0';
	return n;
}

/*
 * One line of LOG, now, in one write(2), so that a reader sees it whole or
 * not at all.  False when it could not be written.
 */
static bool log_line(bool note, const char *text)
{
	static char line[LOG_LINE_MAX + 1];
	struct timespec ts;
	size_t n;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	n = format_log_line(line, note, text, &ts);
	return write(mon.log, line, n) == (ssize_t)n;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	static char text[MONITOR_REQ_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!log_line(true, text))
		die_sys("cannot write the monitor log");
}

/*
 * The monitor's end (atexit, from cmd_monitor on): the last line of LOG
 * says why, then SOCKET goes, and with it every client's connection.
 */
static void monitor_close(void)
{
	int i;

	if (mon.log >= 0) {
		/* No die() here: this runs on the way out. */
		if (!log_line(true, mon.why ? mon.why : "end: the monitor failed"))
			warn_sys("cannot write the monitor log");
	}
	if (mon.sock[0])
		unlink(mon.sock);
	mon.sock[0] = '\0';
	close_fd(&mon.srv);
	for (i = 0; i < MONITOR_CLIENTS; i++)
		close_fd(&mon.conn[i]);
	close_fd(&mon.log);
	close_fd(&mon.log_rd);
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
	close_fd(&mon.fd);
	close_fd(&mon.logfd);
}

static void usage(void)
{
	printf("usage: %s [OPTIONS] CMD [ARG...]\n"
	       "       %s [OPTIONS] wait [-t S] [-n N] [-T] [-c CMD] [-x SH] "
	       "[-s CMD] EVENT...\n"
	       "       %s -P PID [OPTIONS] monitor SOCKET LOG\n"
	       "       %s -M SOCKET [OPTIONS] wait|CMD|cursor|detach ...\n"
	       "\n"
	       "  -p DIR       control socket folder (default " DEFAULT_DIR ")\n"
	       "  -i IFACE     socket name in DIR (default: the only one)\n"
	       "  -w SECONDS   wait that long for the socket to appear\n"
	       "  -P PID       fail at once if the daemon PID exits\n"
	       "  -M SOCKET    through the daemon's monitor: wait reads its log "
	       "from the\n"
	       "               cursor (from now with -c, -x, -s), CMD marks the "
	       "log first\n"
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
	       "  monitor      attach until PID exits, log every event to LOG, "
	       "serve SOCKET\n"
	       "  cursor       (-M) print the monitor's cursor\n"
	       "  detach       (-M) the monitor detaches from the daemon and "
	       "ends\n"
	       "  --help       this text\n"
	       "\n"
	       "Exit: 0 ok, 1 FAIL reply or timeout, 2 usage, 3 daemon "
	       "unreachable or gone, 128+N signal N.\n",
	       DIE_PROG, DIE_PROG, DIE_PROG, DIE_PROG, DEFAULT_WAIT_S);
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

/* The folder that holds path: "." for a bare name, "/" for one in the root. */
static void parent_dir(char *out, size_t n, const char *path)
{
	char *slash;

	snprintf(out, n, "%s", path);
	slash = strrchr(out, '/');
	if (!slash)
		snprintf(out, n, ".");
	else if (slash == out)
		out[1] = '\0';
	else
		*slash = '\0';
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

	if (inotify_add_watch(ifd, dir, IN_CREATE | IN_MOVED_TO) >= 0)
		return;
	if (errno != ENOENT)
		die_sys("cannot watch %s", dir);
	parent_dir(parent, sizeof(parent), dir);
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
 * second event comes.  (A monitor's SOCKET is renamed into place once it
 * listens: no such window.)
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
 * Count and print a match, at its arrival (a monitor's LOG says when), or
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

/*
 * Send a command whose reply must not be FAIL (wait -c, -s); on an
 * attached socket the events that come first are taken.
 */
static void attached_request(const char *cmd, char *buf, size_t len)
{
	ctrl_request(cmd, buf, len, ctrl.attached ? take_event : NULL);
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

/* What main parsed, for a connection made later (after a monitor's mark). */
struct options {
	const char *dir;
	const char *iface;
	const char *monitor; /* -M */
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

/* ---- The monitor ------------------------------------------------------ */

/* LOG's size: where the next line goes. */
static off_t log_size(void)
{
	struct stat st;

	if (fstat(mon.log, &st) < 0)
		die_sys("cannot stat the monitor log");
	return st.st_size;
}

/*
 * Tell every client that LOG has grown: a waiter polls its connection
 * for this, not LOG (an inotify instance costs a tick of simulated time
 * when it is closed: the kernel waits for an SRCU grace period).  A
 * client that does not read now (running -x) finds them queued; one whose
 * queue is full has one to read already.
 */
static void monitor_notify(void)
{
	int i;

	for (i = 0; i < MONITOR_CLIENTS; i++) {
		if (mon.conn[i] < 0)
			continue;
		if (send(mon.conn[i], "+", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN &&
		    errno != EWOULDBLOCK)
			close_fd(&mon.conn[i]); /* it has gone */
	}
}

/* Log what the daemon sent, if it is an event (a late reply is not). */
static void log_event(const char *msg)
{
	if (!is_event(msg))
		return;
	if (!log_line(false, msg))
		die_sys("cannot write the monitor log");
	monitor_notify();
}

/*
 * Log every event queued on the control socket, without waiting: what
 * the daemon sent before a client's request (or before it exited) is in
 * LOG before the answer (or the end).
 */
static void monitor_drain(void)
{
	static char buf[MSG_MAX];
	ssize_t n;

	for (;;) {
		n = recv(ctrl.fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* Nothing more; or the daemon is gone, which its pidfd tells. */
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNREFUSED ||
			    errno == ECONNRESET)
				return;
			die_sys("cannot read from the daemon");
		}
		datagram_text(buf, (size_t)n);
		log_event(buf);
	}
}

/*
 * DETACH, and its answer awaited: once we return, the daemon has dropped
 * us, and does not wait for us when it exits.  The events that come
 * first are logged.  A daemon gone meanwhile needs no DETACH.
 */
static void monitor_detach(void)
{
	static char buf[MSG_MAX];
	long long deadline = now_ms() + COMMAND_TIMEOUT_MS;

	monitor_drain();
	ctrl.attached = false;
	if (send(ctrl.fd, "DETACH", 6, 0) < 0)
		return;
	while (ctrl_recv(buf, sizeof(buf), deadline) >= 0) {
		if (!is_event(buf))
			return;
		log_event(buf);
	}
}

/*
 * The answer to a client's request, "OK CURSOR" or "FAIL ...": *pass when
 * LOG's descriptor goes along (CURSOR, MARK).  Returns true for DETACH,
 * which the caller carries out before it answers.
 */
static bool monitor_answer(const char *req, char *reply, size_t len, bool *pass)
{
	*pass = false;
	if (!strcmp(req, "CURSOR") || !strncmp(req, "CURSOR ", 7)) {
		/* The note says where the wait starts, which is above it. */
		if (req[6])
			note("%s, from byte %lld", req + 7, (long long)mon.cursor);
		*pass = true;
	} else if (!strcmp(req, "MARK") || !strncmp(req, "MARK ", 5)) {
		/* Drained already: the events that came before are above it. */
		if (req[4])
			note("%s", req + 5);
		mon.cursor = log_size();
		*pass = true;
	} else if (!strncmp(req, "SEEN ", 5)) {
		char *end;
		long long at;

		errno = 0;
		at = strtoll(req + 5, &end, 10);
		if (errno || *end || end == req + 5 || at < 0 || at > (long long)log_size()) {
			snprintf(reply, len, "FAIL bad offset");
			return false;
		}
		/* Forward only: a mark made meanwhile stays. */
		if (at > (long long)mon.cursor)
			mon.cursor = (off_t)at;
	} else if (!strcmp(req, "DETACH")) {
		return true;
	} else {
		snprintf(reply, len, "FAIL unknown request");
		return false;
	}
	snprintf(reply, len, "OK %lld", (long long)mon.cursor);
	return false;
}

/* Answer client i, with LOG's descriptor when pass. */
static void monitor_reply(int i, const char *reply, bool pass)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} c;
	struct iovec iov = { (void *)reply, strlen(reply) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (pass) {
		memset(&c, 0, sizeof(c));
		msg.msg_control = c.buf;
		msg.msg_controllen = sizeof(c.buf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &mon.log_rd, sizeof(int));
	}
	/* A client that went away, or does not read: its loss, not ours. */
	if (sendmsg(mon.conn[i], &msg, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		close_fd(&mon.conn[i]);
}

/* A request of client i; true when it asked us to detach (done). */
static bool monitor_serve(int i)
{
	static char req[MONITOR_REQ_MAX + 1];
	char reply[96];
	bool pass, detach;
	ssize_t n;

	n = recv(mon.conn[i], req, sizeof(req) - 1, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return false;
	if (n <= 0) {
		close_fd(&mon.conn[i]); /* it has gone */
		return false;
	}
	req[n] = '\0';
	detach = monitor_answer(req, reply, sizeof(reply), &pass);
	if (detach) {
		mon.why = "end: the monitor detached, as a client asked";
		monitor_detach();
		snprintf(reply, sizeof(reply), "OK %lld", (long long)mon.cursor);
	}
	monitor_reply(i, reply, pass);
	return detach;
}

static void monitor_accept(void)
{
	int fd, i;

	fd = accept4(mon.srv, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
		    errno == ECONNABORTED)
			return;
		die_sys("accept");
	}
	for (i = 0; i < MONITOR_CLIENTS; i++) {
		if (mon.conn[i] < 0) {
			mon.conn[i] = fd;
			return;
		}
	}
	warn("more than %d clients at once: one refused", MONITOR_CLIENTS);
	close(fd);
}

/*
 * SOCKET, made once attached: bound under a name of its own, then renamed
 * into place once it listens, so that a client waiting for it (-w) never
 * finds a socket that refuses (connect(2) to one bound but not listening
 * yet is refused, and no second inotify event would come).
 */
static void monitor_listen(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char dir[sizeof(a.sun_path)];

	if ((size_t)snprintf(a.sun_path, sizeof(a.sun_path), "%s.new", path) >= sizeof(a.sun_path))
		die_status(EXIT_USAGE, "socket path %s is too long", path);
	/* Its folder, made by the first monitor of a boot. */
	parent_dir(dir, sizeof(dir), path);
	if (strcmp(dir, ".") && strcmp(dir, "/") && mkdir(dir, 0755) < 0 && errno != EEXIST)
		die_sys("cannot make %s", dir);
	mon.srv = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (mon.srv < 0)
		die_sys("socket");
	unlink(a.sun_path); /* a killed monitor's */
	if (bind(mon.srv, (struct sockaddr *)&a, sizeof(a)) < 0)
		die_sys("cannot bind %s", a.sun_path);
	if (listen(mon.srv, MONITOR_CLIENTS) < 0 || rename(a.sun_path, path) < 0) {
		warn_sys("cannot listen at %s", path);
		unlink(a.sun_path);
		finish(EXIT_INFRA);
	}
	snprintf(mon.sock, sizeof(mon.sock), "%s", path);
}

/*
 * Until the daemon exits, or we are told to detach: events first, at
 * every wake-up, then the ending, then the clients.
 */
static int monitor_loop(void)
{
	struct pollfd pfd[4 + MONITOR_CLIENTS];
	static char why[96];
	int i;

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = ctrl.fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = mon.srv, .events = POLLIN };
		pfd[2] = (struct pollfd){ .fd = ctrl.sigfd, .events = POLLIN };
		pfd[3] = (struct pollfd){ .fd = ctrl.pidfd, .events = POLLIN };
		for (i = 0; i < MONITOR_CLIENTS; i++)
			pfd[4 + i] = (struct pollfd){ .fd = mon.conn[i], .events = POLLIN };
		if (poll(pfd, 4 + MONITOR_CLIENTS, -1) < 0) {
			if (errno == EINTR)
				continue;
			die_sys("poll");
		}
		monitor_drain();
		if (pfd[3].revents & POLLIN) {
			snprintf(why, sizeof(why), "end: the daemon (pid %d) exited",
				 (int)ctrl.pid);
			mon.why = why;
			ctrl.attached = false; /* nobody to DETACH from */
			return 0;
		}
		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(ctrl.sigfd, &si, sizeof(si)) != sizeof(si))
				die_sys("read signalfd");
			snprintf(why, sizeof(why), "end: the monitor detached on signal %u",
				 si.ssi_signo);
			mon.why = why;
			monitor_detach();
			return 0;
		}
		for (i = 0; i < MONITOR_CLIENTS; i++)
			if (mon.conn[i] >= 0 && pfd[4 + i].revents && monitor_serve(i))
				return 0;
		if (pfd[1].revents & POLLIN)
			monitor_accept();
	}
}

/*
 * One line on stdout, "attached", once clients may come; then stdout is
 * closed (/dev/null), so that a reader waiting on it (a fifo) gets its
 * end.  A monitor that fails before says nothing there: the reader gets
 * the end of the file alone.
 */
static void monitor_ready(void)
{
	int null;

	printf("attached\n");
	if (fflush(stdout))
		die_sys("cannot write to stdout");
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		die_sys("cannot close stdout");
	close(null);
}

static int cmd_monitor(int argc, char **argv, const struct options *o)
{
	static char buf[MSG_MAX];
	int i;

	if (argc != 2)
		usage_error("monitor needs SOCKET and LOG");
	if (o->pid <= 0)
		usage_error("monitor needs -P PID: it ends when the daemon does");
	for (i = 0; i < MONITOR_CLIENTS; i++)
		mon.conn[i] = -1;
	/* After ctrl_close in main: runs before it. */
	if (atexit(monitor_close))
		die_status(EXIT_INFRA, "atexit failed");
	daemon_connect(o, o->wait_s);
	ctrl_request("ATTACH", buf, sizeof(buf), NULL);
	if (strcmp(buf, "OK"))
		die_status(EXIT_INFRA, "ATTACH refused: %s", buf);
	ctrl.attached = true;
	mon.log = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (mon.log < 0)
		die_sys("cannot open %s", argv[1]);
	mon.log_rd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (mon.log_rd < 0)
		die_sys("cannot open %s", argv[1]);
	note("attached to %s/%s, the daemon's pid %d", o->dir, o->iface ? o->iface : "",
	     (int)o->pid);
	mon.cursor = log_size();
	monitor_listen(argv[0]);
	monitor_ready();
	return monitor_loop();
}

/* ---- A client of the monitor (-M) -------------------------------------- */

/*
 * Connect to the monitor's SOCKET, waiting up to wait_s for it: it is
 * made once the monitor has attached.
 */
static void mon_connect(const char *path, int wait_s)
{
	char dir[PATH_MAX];

	parent_dir(dir, sizeof(dir), path);
	mon.path = path;
	mon.fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (mon.fd < 0)
		die_sys("socket");
	sock_connect(mon.fd, path, dir, "monitor socket", wait_s);
}

/* An answer of the monitor, "OK OFFSET": true and the offset, or false. */
static bool parse_answer(const char *answer, long long *at)
{
	char *end;

	if (strncmp(answer, "OK ", 3))
		return false;
	errno = 0;
	*at = strtoll(answer + 3, &end, 10);
	return !errno && !*end && end != answer + 3 && *at >= 0;
}

/*
 * Ask the monitor: true and the OFFSET it answers in *at (when not NULL),
 * LOG's descriptor kept when one comes along; false when it has ended
 * (its socket closed).  Anything else ends the program.
 */
static bool mon_ask(const char *req, long long *at)
{
	static char buf[256];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} c;
	struct iovec iov = { buf, sizeof(buf) - 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = c.buf,
			      .msg_controllen = sizeof(c.buf) };
	long long deadline = now_ms() + COMMAND_TIMEOUT_MS, off;
	struct cmsghdr *cm;
	ssize_t n;

	if (send(mon.fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
		if (errno == EPIPE || errno == ECONNRESET)
			return false;
		die_sys("cannot ask the monitor at %s", mon.path);
	}
	/* Its news of events ("+") may come first: skipped. */
	do {
		if (!wait_readable(mon.fd, deadline))
			die_status(EXIT_INFRA, "no answer from the monitor at %s within %d s",
				   mon.path, COMMAND_TIMEOUT_MS / 1000);
		msg.msg_controllen = sizeof(c.buf);
		n = recvmsg(mon.fd, &msg, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == ECONNRESET)
			return false;
		if (n < 0)
			die_sys("cannot read from the monitor at %s", mon.path);
	} while (n == 1 && buf[0] == '+');
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		int fd;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
		if (mon.logfd < 0)
			mon.logfd = fd;
		else
			close(fd);
	}
	if (n == 0)
		return false;
	buf[n] = '\0';
	if (!parse_answer(buf, &off))
		die_status(EXIT_INFRA, "the monitor at %s answered '%s' to %.40s", mon.path, buf,
			   req);
	if (at)
		*at = off;
	return true;
}

/* mon_ask, where a monitor that has ended is an error (EXIT_INFRA). */
static off_t mon_request(const char *req)
{
	long long at;

	if (!mon_ask(req, &at))
		die_status(EXIT_INFRA, "the monitor at %s has ended", mon.path);
	return (off_t)at;
}

/*
 * The cursor moves forward to at: everything before it has been seen.  A
 * monitor that has ended meanwhile (its daemon exited after the event)
 * has no cursor to move.
 */
static void mon_seen(off_t at)
{
	char req[64];

	snprintf(req, sizeof(req), "SEEN %lld", (long long)at);
	mon_ask(req, NULL);
}

enum log_kind { LOG_OTHER, LOG_EVENT, LOG_NOTE };

/*
 * A line of a monitor's LOG (NUL-terminated, without its newline): an
 * event (its text without "<N>", as a wait matches it) or a note, with its
 * time in *at and its text in *text; LOG_OTHER for anything else (the
 * monitor's own error messages go to LOG too, through its stderr).
 */
static enum log_kind parse_log_line(const char *line, struct timespec *at, const char **text)
{
	const char *p = line;
	long long sec = 0;
	long nsec = 0;
	int digits;

	for (digits = 0; *p >= '0' && *p <= '9' && digits < 18; digits++, p++)
		sec = sec * 10 + (*p - '0');
	if (!digits || *p++ != '.')
		return LOG_OTHER;
	for (digits = 0; *p >= '0' && *p <= '9' && digits < 9; digits++, p++)
		nsec = nsec * 10 + (*p - '0');
	if (digits != 9 || *p++ != ' ')
		return LOG_OTHER;
	at->tv_sec = (time_t)sec;
	at->tv_nsec = nsec;
	if (p[0] == '#' && p[1] == ' ') {
		*text = p + 2;
		return LOG_NOTE;
	}
	if (!is_event(p))
		return LOG_OTHER;
	*text = event_text(p);
	return LOG_EVENT;
}

/*
 * A client's reading of LOG: the bytes from the file offset pos on, in
 * buf; used of them taken as lines already.  The monitor writes a line in
 * one write(2) and never one longer than MSG_MAX + 64 bytes; a line that
 * fills buf anyway is cut.
 */
static struct {
	char buf[2 * MSG_MAX + 128];
	size_t have;
	size_t used;
	off_t pos;
} lr;

/* The next whole line, NUL-terminated in place, and the offset after it. */
static char *log_next(off_t *after)
{
	char *start = lr.buf + lr.used;
	char *nl = memchr(start, '\n', lr.have - lr.used);

	if (!nl) {
		if (lr.used || lr.have < sizeof(lr.buf))
			return NULL;
		nl = lr.buf + lr.have - 1; /* a line that fills buf: cut */
	}
	*nl = '\0';
	lr.used = (size_t)(nl - lr.buf) + 1;
	*after = lr.pos + (off_t)lr.used;
	return start;
}

/* Read what LOG holds past buf: false when there was nothing new. */
static bool log_fill(void)
{
	ssize_t n;

	if (lr.used) {
		memmove(lr.buf, lr.buf + lr.used, lr.have - lr.used);
		lr.have -= lr.used;
		lr.pos += (off_t)lr.used;
		lr.used = 0;
	}
	if (lr.have == sizeof(lr.buf))
		return true; /* log_next cuts it */
	n = pread(mon.logfd, lr.buf + lr.have, sizeof(lr.buf) - lr.have, lr.pos + (off_t)lr.have);
	if (n < 0)
		die_sys("cannot read the monitor log");
	lr.have += (size_t)n;
	return n > 0;
}

enum { SCAN_TIMEOUT = -1, SCAN_END = -2 };

/*
 * Read the monitor's news ("+": LOG has grown) that has come: false when
 * its socket has closed, the monitor ended.
 */
static bool mon_news(void)
{
	char buf[64];
	ssize_t n;

	for (;;) {
		n = recv(mon.fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
	}
}

/*
 * The events of LOG from start on, taken as they come (the monitor's news
 * on our connection wakes us), until enough have matched: the offset
 * after the last match.  Or SCAN_TIMEOUT at the deadline, SCAN_END when
 * the monitor has ended (its last note, or its socket closed), with why
 * in *why.
 */
static off_t scan_log(off_t start, long long deadline, const char **why)
{
	static char ended[256];
	bool gone = false;

	if (mon.logfd < 0)
		die_status(EXIT_INFRA, "the monitor at %s handed over no log", mon.path);
	memset(&lr, 0, sizeof(lr));
	lr.pos = start;
	for (;;) {
		const char *text;
		struct timespec at;
		off_t after;
		char *line;

		while ((line = log_next(&after))) {
			switch (parse_log_line(line, &at, &text)) {
			case LOG_EVENT:
				remember_event(text);
				take_if_match(text, &at);
				if (ev.done)
					return after;
				break;
			case LOG_NOTE:
				if (strncmp(text, "end: ", 5))
					break;
				snprintf(ended, sizeof(ended), "%s", text + 5);
				*why = ended;
				return SCAN_END;
			case LOG_OTHER:
				break;
			}
		}
		/* News that came before this read is for what it read. */
		if (log_fill())
			continue;
		if (gone) {
			*why = "the monitor has ended";
			return SCAN_END;
		}
		if (!wait_readable(mon.fd, deadline))
			return SCAN_TIMEOUT;
		gone = !mon_news();
	}
}

/*
 * The wait of -M: from the cursor, or with -c, -x or -s from a mark made
 * now (what an attached wait would see), through the monitor's LOG.
 */
static int wait_log(const struct wait_opts *w, const char *what, const struct options *o)
{
	static char buf[MSG_MAX], mark[MONITOR_REQ_MAX];
	const char *why = "";
	long long deadline;
	off_t start, after;

	if (w->action || w->shell || w->query) {
		snprintf(mark, sizeof(mark), "MARK %s", what);
		start = mon_request(mark);
	} else {
		snprintf(mark, sizeof(mark), "CURSOR %s", what);
		start = mon_request(mark);
	}
	deadline = now_ms() + (long long)w->seconds * 1000;
	if (w->action || w->query)
		daemon_connect(o, 0);
	if (w->action)
		attached_request(w->action, buf, sizeof(buf));
	if (w->shell)
		run_shell(w->shell);
	if (w->query) {
		attached_request(w->query, buf, sizeof(buf));
		match_reply_lines(buf);
		if (ev.done) {
			mon_ask("MARK", NULL); /* the state held: past is past */
			return 0;
		}
	}
	/* From here the monitor tells the daemon's end, after its last events. */
	close_fd(&ctrl.pidfd);
	after = scan_log(start, deadline, &why);
	if (after == SCAN_END)
		die_status(EXIT_INFRA, "%s", why);
	if (after == SCAN_TIMEOUT) {
		report_timeout(w->seconds);
		mon_seen(lr.pos + (off_t)lr.used);
		return EXIT_FAIL;
	}
	mon_seen(after);
	return 0;
}

static int cmd_wait(int argc, char **argv, const struct options *o)
{
	static char what[MONITOR_REQ_MAX - 16];
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
	if (mon.fd < 0) {
		daemon_connect(o, o->wait_s);
		return wait_attached(&w);
	}
	/* The mark says what waits, for the reader of LOG. */
	snprintf(what, sizeof(what), "wait");
	join_args(argc, argv, what + 5, sizeof(what) - 5);
	what[4] = ' ';
	return wait_log(&w, what, o);
}

static int cmd_send(int argc, char **argv, const struct options *o)
{
	static char cmd[4096], buf[MSG_MAX], mark[MONITOR_REQ_MAX];

	join_args(argc, argv, cmd, sizeof(cmd));
	if (mon.fd >= 0) {
		/* The cursor moves to the send: what CMD causes comes after it. */
		snprintf(mark, sizeof(mark), "MARK > %s", cmd);
		(void)mon_request(mark);
		daemon_connect(o, 0);
	} else {
		daemon_connect(o, o->wait_s);
	}
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
		else if (!strcmp(a, "-M"))
			o->monitor = argv[++i];
		else if (!strcmp(a, "-L"))
			record.path = argv[++i];
		else
			usage_error("bad option '%s'", a);
	}
	if (i >= argc)
		usage_error("missing command");
	o->first = i;
	if (!strcmp(argv[i], "monitor") && o->monitor)
		usage_error("monitor takes no -M: it is the monitor");
	if ((!strcmp(argv[i], "cursor") || !strcmp(argv[i], "detach")) && !o->monitor)
		usage_error("%s needs -M SOCKET", argv[i]);
}

int main(int argc, char **argv)
{
	struct options o = { DEFAULT_DIR, NULL, NULL, 0, 0, 0 };
	const char *cmd;
	int status;

	parse_options(argc, argv, &o);
	cmd = argv[o.first];
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
	if (!strcmp(cmd, "monitor"))
		return cmd_monitor(argc - o.first - 1, argv + o.first + 1, &o);
	if (o.monitor)
		mon_connect(o.monitor, o.wait_s);
	if (!strcmp(cmd, "wait")) {
		status = cmd_wait(argc - o.first - 1, argv + o.first + 1, &o);
	} else if (!strcmp(cmd, "cursor")) {
		printf("%lld\n", (long long)mon_request("CURSOR"));
		status = 0;
	} else if (!strcmp(cmd, "detach")) {
		(void)mon_request("DETACH");
		status = 0;
	} else {
		status = cmd_send(argc - o.first, argv + o.first, &o);
	}
	fflush(stdout);
	record.status = status;
	return status;
}
