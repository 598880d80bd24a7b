// SPDX-License-Identifier: MIT
/* supervise.c - spawn the guest, read its channels, watch the clock. */
#define _GNU_SOURCE
#include "supervise.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>

const char *guest_end_name(enum guest_end e)
{
	static const char *const names[] = { "reported", "sim-timeout", "wall-timeout", "crash",
					     "killed",	 "interrupted", "init-error" };

	return names[e];
}

static const int watched_signals[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void watched_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(watched_signals) / sizeof(watched_signals[0]); i++)
		sigaddset(set, watched_signals[i]);
}

void supervise_block_signals(void)
{
	sigset_t set;

	watched_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* UML's helpers may outlive the linux process: make them ours to reap. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Channels: ttyS0 (out), ttyS1 (control), ttyS2 (err), console pipe. */
enum { CH_OUT, CH_CTL, CH_ERR, CH_CON, CH_N };

struct chan {
	int host; /* our end, -1 once closed */
	int guest;
	char line[4096]; /* partial line (control and console are line-parsed) */
	size_t len;
};

/* Reading control lines: "begin ...", "end exit=N sim=S", "error ...". */
static void control_line(struct guest_outcome *o, bool *ended, const char *l)
{
	long v;
	double sim = 0;
	const char *s = strstr(l, " sim=");

	if (s)
		sim = strtod(s + 5, NULL);
	if (!strncmp(l, "end exit=", 9)) {
		*ended = true;
		o->end = GUEST_REPORTED;
		o->job_exit = (int)strtol(l + 9, NULL, 10);
		o->sim_seconds = sim;
	} else if (!strncmp(l, "end signal=", 11)) {
		*ended = true;
		o->end = GUEST_REPORTED;
		o->job_signal = (int)strtol(l + 11, NULL, 10);
		o->sim_seconds = sim;
	} else if (sscanf(l, "end timeout=%ld", &v) == 1) {
		*ended = true;
		o->end = GUEST_SIM_TIMEOUT;
		o->sim_seconds = sim;
		snprintf(o->detail, sizeof(o->detail), "simulated-time limit of %ld s", v);
	} else if (!strncmp(l, "end error", 9) || !strncmp(l, "error ", 6)) {
		*ended = true;
		o->end = GUEST_INIT_ERROR;
		if (!o->detail[0])
			snprintf(o->detail, sizeof(o->detail), "guest init: %.200s", l);
	}
}

/* Kernel console lines worth naming as the reason for a crash. */
static void console_line(struct guest_outcome *o, bool *crashed, const char *l)
{
	static const char *const marks[] = { "Kernel panic - not syncing", "Oops",
					     "BUG: ", "general protection fault" };

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		if (!*crashed && strstr(l, marks[i])) {
			*crashed = true;
			snprintf(o->detail, sizeof(o->detail), "%.200s", strstr(l, marks[i]));
		}
	}
}

struct run_state {
	const struct guest_io *io;
	struct guest_outcome *o;
	bool ended, crashed;
};

static void split_lines(struct chan *c, const char *buf, size_t n, struct run_state *st, int which)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n' && c->len < sizeof(c->line) - 1) {
			if (buf[i] != '\r')
				c->line[c->len++] = buf[i];
			continue;
		}
		c->line[c->len] = '\0';
		if (which == CH_CTL)
			control_line(st->o, &st->ended, c->line);
		else
			console_line(st->o, &st->crashed, c->line);
		c->len = 0;
	}
}

/* Returns false at end of file. */
static bool pump(struct chan *c, int which, struct run_state *st)
{
	char buf[16384];
	ssize_t n = read(c->host, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	switch (which) {
	case CH_OUT:
		if (st->io->out)
			st->io->out(st->io->ctx, buf, (size_t)n);
		break;
	case CH_ERR:
		if (st->io->err)
			st->io->err(st->io->ctx, buf, (size_t)n);
		break;
	case CH_CTL:
		split_lines(c, buf, (size_t)n, st, which);
		break;
	case CH_CON:
		if (st->io->console)
			st->io->console(st->io->ctx, buf, (size_t)n);
		split_lines(c, buf, (size_t)n, st, which);
		break;
	}
	return true;
}

static int open_channels(struct chan ch[CH_N], bool shell, struct uerr *e)
{
	memset(ch, 0, sizeof(struct chan) * CH_N);
	for (int i = 0; i < CH_N; i++)
		ch[i].host = ch[i].guest = -1;
	for (int i = CH_OUT; i <= CH_ERR; i++) {
		int sv[2];

		/* UML reads and writes a serial line's fd: a socket does both. */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
			return uerr_sys(e, EXIT_INFRA, "socketpair");
		ch[i].host = sv[0];
		ch[i].guest = sv[1];
	}
	if (!shell) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0)
			return uerr_sys(e, EXIT_INFRA, "pipe");
		ch[CH_CON].host = p[0];
		ch[CH_CON].guest = p[1];
	}
	return 0;
}

static void close_channels(struct chan ch[CH_N])
{
	for (int i = 0; i < CH_N; i++) {
		closep(&ch[i].host);
		closep(&ch[i].guest);
		ch[i].host = ch[i].guest = -1;
	}
}

/* In the child: fds 0-5 as the command line expects, then exec. */
UMLRUN_NORETURN static void exec_guest(const struct guest_spec *g, char **argv,
				       struct chan ch[CH_N], pid_t parent)
{
	const int want[] = { -1, -1, -1, ch[CH_OUT].guest, ch[CH_CTL].guest, ch[CH_ERR].guest };
	sigset_t set;
	int fds[6];

	if (!g->shell)
		setpgid(0, 0);
	if (g->shell) {
		fds[0] = dup(0);
		fds[1] = dup(1);
		fds[2] = dup(2);
	} else {
		fds[0] = open("/dev/null", O_RDONLY);
		fds[1] = dup(ch[CH_CON].guest);
		fds[2] = dup(ch[CH_CON].guest);
	}
	for (int i = 3; i < 6; i++)
		fds[i] = dup(want[i]);
	/* Move everything above 5 first, so the dup2s below cannot collide. */
	for (int i = 0; i < 6; i++) {
		int f = fcntl(fds[i], F_DUPFD, 10);

		if (f < 0)
			_exit(126);
		fds[i] = f;
	}
	for (int i = 0; i < 6; i++)
		if (dup2(fds[i], i) < 0)
			_exit(126);
	closefrom(6);
	if (g->stage->drop) {
		if (setgroups(0, NULL) < 0 || setgid(g->stage->gid) < 0 ||
		    setuid(g->stage->uid) < 0) {
			dprintf(2, "%s: cannot drop privileges: %s\n", prog_name, strerror(errno));
			_exit(126);
		}
	}
	/* After setuid, which clears it; and if umlrun died already, stop. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	{
		char *tmp = xasprintf("%s/g%d/uml", g->stage->dir, g->index);

		setenv("TMPDIR", tmp, 1);
	}
	watched_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	execv(argv[0], argv);
	dprintf(2, "%s: cannot run %s: %s\n", prog_name, argv[0], strerror(errno));
	_exit(127);
}

static void reap_all(pid_t pgid)
{
	if (pgid > 0)
		kill(-pgid, SIGKILL);
	/* As subreaper, orphans of the guest are our children now. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

int guest_run(const struct guest_spec *g, const struct guest_io *io, double wall_timeout,
	      struct guest_outcome *o, struct uerr *e)
{
	struct chan ch[CH_N];
	_cleanup_close_ int sfd = -1;
	_cleanup_close_ int tfd = -1;
	struct run_state st = { .io = io, .o = o };
	char **argv;
	sigset_t set;
	double t0 = now();
	bool reaped = false, wall_expired = false;
	pid_t pid, parent = getpid();
	int r = -1;

	memset(o, 0, sizeof(*o));
	argv = guest_cmdline(g, e);
	if (!argv)
		return -1;
	watched_set(&set);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (sfd < 0 || tfd < 0) {
		uerr_sys(e, EXIT_INFRA, "signalfd/timerfd");
		goto out_argv;
	}
	if (open_channels(ch, g->shell, e) < 0)
		goto out;
	if (wall_timeout > 0) {
		struct itimerspec its = { 0 };

		its.it_value.tv_sec = (time_t)wall_timeout;
		its.it_value.tv_nsec = (long)((wall_timeout - (double)(time_t)wall_timeout) * 1e9);
		timerfd_settime(tfd, 0, &its, NULL);
	}
	pid = fork();
	if (pid < 0) {
		uerr_sys(e, EXIT_INFRA, "fork");
		goto out;
	}
	if (pid == 0)
		exec_guest(g, argv, ch, parent);
	/* Also here: whichever of parent and child runs first, the group exists. */
	if (!g->shell)
		setpgid(pid, pid);
	for (int i = 0; i < CH_N; i++)
		closep(&ch[i].guest), ch[i].guest = -1;

	while (!reaped) {
		struct pollfd pf[CH_N + 2];
		int n = 0, map[CH_N + 2];

		pf[n] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		map[n++] = -1;
		pf[n] = (struct pollfd){ .fd = tfd, .events = POLLIN };
		map[n++] = -2;
		for (int i = 0; i < CH_N; i++) {
			if (ch[i].host < 0)
				continue;
			pf[n] = (struct pollfd){ .fd = ch[i].host, .events = POLLIN };
			map[n++] = i;
		}
		if (poll(pf, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			uerr_sys(e, EXIT_INFRA, "poll");
			reap_all(g->shell ? 0 : pid);
			goto out;
		}
		for (int i = 0; i < n; i++) {
			if (!pf[i].revents)
				continue;
			if (map[i] == -1) {
				struct signalfd_siginfo si;

				while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
					if (si.ssi_signo == SIGCHLD)
						continue;
					/* The interactive shell gets ^C itself. */
					if (g->shell && si.ssi_signo == SIGINT)
						continue;
					o->host_signal = (int)si.ssi_signo;
					kill(g->shell ? pid : -pid, SIGKILL);
				}
				/* Reap after draining: SIGCHLD may merge with others. */
				if (waitpid(pid, &o->uml_status, WNOHANG) == pid)
					reaped = true;
			} else if (map[i] == -2) {
				uint64_t ticks;

				if (read(tfd, &ticks, sizeof(ticks)) > 0) {
					wall_expired = true;
					kill(g->shell ? pid : -pid, SIGKILL);
				}
			} else if (!pump(&ch[map[i]], map[i], &st)) {
				closep(&ch[map[i]].host);
				ch[map[i]].host = -1;
			}
		}
	}
	reap_all(g->shell ? 0 : pid);
	/* The writers are gone: what is still buffered is the last word. */
	for (int i = 0; i < CH_N; i++) {
		if (ch[i].host < 0)
			continue;
		fcntl(ch[i].host, F_SETFL, O_NONBLOCK);
		for (;;) {
			errno = 0;
			if (!pump(&ch[i], i, &st) || errno == EAGAIN)
				break;
		}
	}
	o->wall_seconds = now() - t0;
	if (o->host_signal) {
		o->end = GUEST_INTERRUPTED;
		snprintf(o->detail, sizeof(o->detail), "umlrun received %s",
			 sigabbrev_np(o->host_signal) ? sigabbrev_np(o->host_signal) : "a signal");
	} else if (st.ended) {
		; /* init's word stands: reported, sim-timeout or init-error */
	} else if (wall_expired) {
		o->end = GUEST_WALL_TIMEOUT;
		snprintf(o->detail, sizeof(o->detail), "wall-clock limit of %g s", wall_timeout);
	} else if (st.crashed) {
		o->end = GUEST_CRASH;
	} else if (WIFSIGNALED(o->uml_status)) {
		o->end = GUEST_KILLED;
		snprintf(o->detail, sizeof(o->detail), "linux killed by signal %d (%s)",
			 WTERMSIG(o->uml_status), strsignal(WTERMSIG(o->uml_status)));
	} else {
		o->end = GUEST_CRASH;
		snprintf(o->detail, sizeof(o->detail),
			 "the guest ended (exit status %d) without reporting",
			 WIFEXITED(o->uml_status) ? WEXITSTATUS(o->uml_status) : -1);
	}
	r = 0;
out:
	close_channels(ch);
out_argv:
	strv_free(argv);
	return r;
}
