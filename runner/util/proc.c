// SPDX-License-Identifier: MIT
/*
 * proc.c - child processes: helper programs run, watched and captured,
 * in a process group of their own, the ending signals passed on to
 * them, job control, the scratch folders they leave.
 */
#define _GNU_SOURCE
#include "proc.h"

#include "alloc.h"
#include "fs.h"
#include "msg.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

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
