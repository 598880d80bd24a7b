// SPDX-License-Identifier: MIT
/* supervise.c - spawn the guest, read its channels, watch the clock. */
#define _GNU_SOURCE
#include "supervise.h"
#include "gdb.h"
#include "gdbserver.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <sys/file.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/*
 * The signals umlrun reads from its signalfd: SIGCHLD and the ending ones
 * (util/proc.c), not one its parent set to be ignored (nohup's SIGHUP, a
 * script's `&` jobs' SIGINT and SIGQUIT), which blocking would make
 * deliverable again.
 */
static void watched_set(sigset_t *set)
{
	struct sigaction tstp;

	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	/* ^Z: read as the others, to stop the guests too (supervise_suspend). */
	if (sigaction(SIGTSTP, NULL, &tstp) == 0 && tstp.sa_handler != SIG_IGN)
		sigaddset(set, SIGTSTP);
	for (size_t i = 0; i < N_ENDING_SIGNALS; i++) {
		struct sigaction sa;

		if (sigaction(ending_signals[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(set, ending_signals[i]);
	}
}

int supervise_pending_signal(void)
{
	sigset_t pending;

	if (sigpending(&pending) < 0)
		return 0;
	for (size_t i = 0; i < N_ENDING_SIGNALS; i++)
		if (sigismember(&pending, ending_signals[i]) == 1)
			return ending_signals[i];
	return 0;
}

void supervise_block_signals(void)
{
	sigset_t set;

	watched_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	helpers_own_group = true;
	suspend_hook = supervise_suspend;
	/* UML's helpers may outlive the linux process: make them ours to reap. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* Host processes of the guests' user (nobody) at once, when umlrun is root. */
#define GUEST_NPROC_MAX 8192

/* Channels: ttyS0 (out), ttyS1 (control), ttyS2 (err), console pipe. */
enum { CH_OUT, CH_CTL, CH_ERR, CH_CON, CH_N };

struct chan {
	int host; /* our end, -1 once closed */
	int guest;
	char line[4096]; /* partial line (control and console are line-parsed) */
	size_t len;
};

/*
 * A number of a control line, within [lo, hi]. The line is the init's,
 * but the guest is root and can write the same device: what no init
 * writes (nan, inf, 1e999, negative counts) is refused, the line ignored.
 */
static bool field_in(const char *l, const char *key, double lo, double hi, double *v)
{
	const char *s = strstr(l, key);
	char *end;

	if (!s)
		return false;
	errno = 0;
	*v = strtod(s + strlen(key), &end);
	return !errno && end != s + strlen(key) && (*end == ' ' || !*end) && *v >= lo && *v <= hi;
}

/* Reading control lines: "begin ...", "end exit=N sim=S [forks=N pgfault=N]"", "error ...". */
static void control_line(struct guest_outcome *o, bool *ended, const char *l)
{
	long v;
	double sim = 0, n;

	if (!strncmp(l, "begin ", 6))
		o->began = true;
	if (!strncmp(l, "end ", 4)) {
		/* Seconds up to the longest timeout= (100 years) and then some. */
		if (strstr(l, " sim=") && !field_in(l, " sim=", 0, 1e10, &sim))
			return;
		if (field_in(l, " forks=", 0, 9e15, &n))
			o->cost.guest_forks = (long long)n;
		if (field_in(l, " pgfault=", 0, 9e15, &n))
			o->cost.guest_page_faults = (long long)n;
	}
	if (!strncmp(l, "end exit=", 9)) {
		if (!field_in(l, "end exit=", 0, 255, &n))
			return;
		*ended = true;
		o->end = GUEST_REPORTED;
		o->job_exit = (int)n;
		o->sim_seconds = sim;
	} else if (!strncmp(l, "end signal=", 11)) {
		if (!field_in(l, "end signal=", 1, 64, &n))
			return;
		*ended = true;
		o->end = GUEST_REPORTED;
		o->job_signal = (int)n;
		o->sim_seconds = sim;
	} else if (sscanf(l, "end timeout=%ld", &v) == 1) {
		if (v < 1 || v > 3153600000L)
			return;
		*ended = true;
		o->end = GUEST_SIM_TIMEOUT;
		o->sim_seconds = sim;
		snprintf(o->detail, sizeof(o->detail), "simulated-time limit of %ld s", v);
	} else if (!strncmp(l, "setup-error ", 12)) {
		*ended = true;
		o->end = GUEST_INIT_ERROR;
		snprintf(o->detail, sizeof(o->detail), "%.200s", l + 12);
	} else if (!strncmp(l, "end error", 9) || !strncmp(l, "error ", 6)) {
		*ended = true;
		o->end = GUEST_INIT_ERROR;
		if (!o->detail[0])
			snprintf(o->detail, sizeof(o->detail), "guest init: %.200s", l);
	}
}

/*
 * Kernel console lines worth naming as the reason for a crash; and the
 * guest init's own errors from before its control channel was open
 * (rootfs/init.c writes them to the console behind this mark).
 */
#define INIT_CONSOLE_MARK "umlrun-init: "

/*
 * UML's own words when the host let it down, not the test: its memory
 * refused (setup_physmem: ulimit -v), a process of its own on the host
 * gone (a host limit such as ulimit -t, or a kill from outside), after
 * which the guest's processes segfault.
 */
static bool host_fault_line(struct guest_outcome *o, const char *l)
{
	const char *mark;

	if (strstr(l, "setup_physmem - mapping")) {
		snprintf(o->detail, sizeof(o->detail),
			 "the host refused the guest's memory (%.120s): a lower --mem, or a higher "
			 "ulimit -v",
			 strstr(l, "setup_physmem - mapping"));
		return true;
	}
	/* "start_userspace : socketpair failed, errno = 24": no guest process without its host one.
	 */
	if ((mark = strstr(l, "start_userspace : ")) && strstr(mark, " failed, errno = ")) {
		int err = atoi(strstr(mark, " failed, errno = ") + 17);

		snprintf(o->detail, sizeof(o->detail),
			 "the host refused a process to the guest (%.80s: %s): a higher ulimit -n "
			 "(open files) or ulimit -u (processes)",
			 mark, strerror(err));
		return true;
	}
	if (strstr(l, "Unexpectedly lost MM child")) {
		snprintf(o->detail, sizeof(o->detail),
			 "a process of UML's on the host died (Unexpectedly lost MM child): a host "
			 "limit such as ulimit -t, or a kill from outside");
		return true;
	}
	return false;
}

static void console_line(struct guest_outcome *o, bool *crashed, bool *init_failed, bool *panicked,
			 bool *host_fault, const char *l)
{
	const char *mark;

	if (strstr(l, STALL_BREAKER_MARK))
		o->stall_breaks++;
	if (!o->kernel_report[0] && (mark = kernel_report_mark(l, strlen(l))))
		snprintf(o->kernel_report, sizeof(o->kernel_report), "%.200s", mark);
	if (!*panicked && strstr(l, "Kernel panic - not syncing")) {
		*panicked = true;
		snprintf(o->panic, sizeof(o->panic), "%.200s",
			 strstr(l, "Kernel panic - not syncing"));
	}
	if (*crashed || *init_failed || *host_fault)
		return; /* the first reason stands */
	if (host_fault_line(o, l)) {
		*host_fault = true;
		return;
	}
	if (!strncmp(l, INIT_CONSOLE_MARK, strlen(INIT_CONSOLE_MARK))) {
		*init_failed = true;
		snprintf(o->detail, sizeof(o->detail), "guest init: %.200s",
			 l + strlen(INIT_CONSOLE_MARK));
	} else if ((mark = guest_crash_mark(l, strlen(l)))) {
		*crashed = true;
		snprintf(o->detail, sizeof(o->detail), "%.200s", mark);
	}
}

struct run_state {
	const struct guest_io *io;
	struct guest_outcome *o;
	bool ended, crashed, init_failed, panicked, host_fault;
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
			console_line(st->o, &st->crashed, &st->init_failed, &st->panicked,
				     &st->host_fault, c->line);
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
	for (int i = 0; i < CH_N; i++) {
		int p[2];

		if (i == CH_CON && shell)
			continue; /* the shell's console is the terminal */
		if (pipe2(p, O_CLOEXEC) < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot open the guest's channels (pipe)");
		ch[i].host = p[0];
		ch[i].guest = p[1];
		/*
		 * Room for whatever the guest writes before we read it: a
		 * write that would block makes UML wait for a "writable"
		 * interrupt, which comes at a moment of host time, and the
		 * kernel mixes the moment of every interrupt into its random
		 * pool. (Best effort: 1 MiB is the default limit for users.)
		 */
		fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
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

/*
 * UML reads the console from a group of its own (so one kill ends all of
 * it); it must be the terminal's foreground group or reading would stop it.
 */
void terminal_to(pid_t pgid)
{
	sigset_t ttou, old;

	if (!isatty(0))
		return;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	tcsetpgrp(0, pgid);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * As root, the guest starts as PID 1 of a PID namespace of its own: when
 * that process dies the kernel kills every other process in the namespace,
 * so no UML helper survives even a SIGKILLed umlrun (PR_SET_PDEATHSIG ends
 * the linux process itself). Unprivileged, a plain fork: the process group
 * and the subreaper then do that work, short of a SIGKILLed umlrun.
 * As root the guest also gets a network namespace of its own, empty: no
 * UML channel a guest could open (a port, a socket) reaches the host's
 * network, whatever Landlock's ABI covers.
 */
static pid_t clone_flags(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
}

/*
 * The namespaces, with network, System V IPC and hostname namespaces of
 * its own when the host makes them (code run in the linux process would
 * otherwise reach the host's sockets and shared memory): a kernel without
 * CONFIG_NET_NS or CONFIG_IPC_NS (EINVAL) or with no namespaces to spare
 * (ENOSPC, user.max_net_namespaces) runs the guest in the host's, said
 * once.
 */
static pid_t clone_guest(unsigned long flags)
{
	static bool no_netns;
	pid_t pid;

	if (!no_netns) {
		pid = clone_flags(flags | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS);
		if (pid >= 0 || (errno != EINVAL && errno != ENOSPC))
			return pid;
		no_netns = true;
		warn_sys("no network and IPC namespaces for the guests (they share the host's)");
	}
	return clone_flags(flags);
}

static pid_t fork_guest(const struct confine_plan *cp, bool gdb)
{
	/* gdb finds its inferior in /proc by pid: the host's /proc, the host's pids. */
	if (gdb)
		return fork();
	if (cp->mount_ns)
		/* No fallback: the plan promised a jail (confine.h). */
		return clone_guest(CLONE_NEWPID | CLONE_NEWNS | (cp->user_ns ? CLONE_NEWUSER : 0));
	if (geteuid() == 0) {
		pid_t pid = clone_guest(CLONE_NEWPID);

		if (pid >= 0 || errno != EPERM)
			return pid;
	}
	return fork();
}

/*
 * PID 1 of the guest's namespace. UML must not be that process: the
 * kernel shields a namespace's init from its own signals, so the abort()
 * that ends a panicked UML would hang instead. This init runs linux as its
 * child, reaps whatever is orphaned, and exits with linux's status
 * (128+N for a signal, as a shell would say). Its death ends the namespace.
 */
UMLRUN_NORETURN static void be_namespace_init(const char *exe, char **argv)
{
	int st;
	pid_t w, pid = fork();

	if (pid < 0) {
		/* As setup_failed says it: fd 4 is the control channel by now. */
		int err = errno;

		dprintf(4, "\nsetup-error cannot start the guest's process: %s%s\n", strerror(err),
			err == EAGAIN ? " (the process limit: ulimit -u?)" : "");
		_exit(126);
	}
	if (pid == 0) {
		execv(exe, argv);
		dprintf(2, "%s: cannot run %s: %s\n", prog_name, exe, strerror(errno));
		_exit(127);
	}
	for (;;) {
		w = wait(&st);
		if (w == pid)
			_exit(WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_SIGNAL_BASE + WTERMSIG(st));
		if (w < 0 && errno != EINTR)
			_exit(126);
	}
}

/*
 * A guest is kept on one CPU. UML switches between its kernel process and
 * the guest process on every system call and page fault; on different
 * CPUs each switch is a cross-CPU wake-up, several times slower (in
 * ptrace mode a lone unpinned guest ran the rekey test in 23 s, pinned in
 * 3.2 s). The guest is one CPU anyway, so nothing it sees changes.
 *
 * Which CPU: slot INDEX tries the INDEX-th CPU umlrun may use first, then
 * the ones after it, round robin, and takes the first that no other
 * guest holds, of this run or another umlrun's: umlrun holds a CPU for a
 * guest by a lock on CACHE/cpus/N (flock) until the guest has ended, or
 * umlrun has. Without it two runs at once put their first guests on the
 * same CPU and left the other idle: two -j1 runs of 20 hostap cases took
 * 38.7 and 51.1 s side by side, against 21.2 and 25.4 s on a CPU each.
 * When every CPU is held (more guests than CPUs) or there is no cache
 * folder to lock in, the INDEX-th. Returns the CPU, or -1 when umlrun may
 * use one CPU only (nothing to choose); *lock is the lock's descriptor,
 * or -1.
 */
static int claim_cpu(int index, int *lock)
{
	cpu_set_t allowed;
	int cpus[CPU_SETSIZE];
	int n = 0;
	_cleanup_free_ char *cache = cache_path();
	_cleanup_free_ char *dir = cache ? xasprintf("%s/cpus", cache) : NULL;

	*lock = -1;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			cpus[n++] = cpu;
	if (n < 2)
		return -1;
	if (!dir || (mkdir(dir, 0700) < 0 && errno != EEXIST))
		return cpus[index % n];
	for (int k = 0; k < n; k++) {
		int cpu = cpus[(index + k) % n];
		_cleanup_free_ char *path = xasprintf("%s/%d", dir, cpu);
		int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd < 0)
			break;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			*lock = fd;
			return cpu;
		}
		close(fd);
	}
	return cpus[index % n];
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t one;

	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

/*
 * The host system calls linux may not make. Code of the guest's kernel
 * runs in this process (a module a test loads: the guest is root inside;
 * under the seccomp userspace a guest process can write the UML kernel's
 * memory), so what Landlock and the namespaces do not cover is refused
 * here:
 * - namespaces (unshare, setns, clone with a CLONE_NEW* flag: EPERM;
 *   clone3, whose flags a filter cannot read: ENOSYS, and glibc falls back
 *   to clone): in a user namespace of its own, code of the guest's kernel
 *   reached the host's nf_tables and the rest of the kernel code that
 *   only namespace root may call, where host exploits start;
 * - io_uring, ENOSYS: what it does for a process (connect, a socket of
 *   any family, sendmsg) never passes a seccomp filter, so the rules below
 *   would not hold against it; UML does not use it;
 * - getrandom(2), ENOSYS: the UML kernel asks the host for random numbers
 *   whenever it reseeds; refused, it falls back to its clock, which under
 *   time travel is simulated and the same in every run;
 * - the keyrings (keyctl, add_key, request_key), EPERM: a process keeps
 *   its session keyring across exec and namespaces, and a test read and
 *   planted keys in the session keyring of the user running umlrun;
 * - connect(2), EACCES, and sendto(2) to an address: Landlock does not
 *   cover reaching a Unix socket by its path, and a --mount folder may
 *   hold one (an agent's, an editor's); UML connects nowhere here (its
 *   parameters that would are refused, docs/guest.md);
 * - AF_VSOCK sockets, EAFNOSUPPORT: no network namespace covers them, and
 *   under a hypervisor they reach it;
 * - any other ABI (x32, i386 through int 0x80), ENOSYS: the same calls
 *   by other numbers.
 * Guest processes are not affected: their system calls never reach the
 * host (ptrace stops them first; UML's own filter, stacked on this one,
 * traps them under the seccomp userspace).
 */
/* The system call nr (in the accumulator) fails with err; others go on. */
#define DENY(nr, err)                                                                              \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))

/* Every CLONE_NEW* flag clone(2) takes: a namespace of linux's own. */
#define CLONE_NS_FLAGS                                                                             \
	(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |             \
	 CLONE_NEWPID | CLONE_NEWNET)

int deny_host_calls(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		DENY(SYS_getrandom, ENOSYS),
		/* io_uring's operations (connect, socket, sendmsg) pass no filter */
		DENY(SYS_io_uring_setup, ENOSYS),
		DENY(SYS_io_uring_enter, ENOSYS),
		DENY(SYS_io_uring_register, ENOSYS),
		/* clone3's flags are out of a filter's sight: glibc falls back to clone */
		DENY(SYS_clone3, ENOSYS),
		DENY(SYS_unshare, EPERM),
		DENY(SYS_setns, EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NS_FLAGS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		DENY(SYS_keyctl, EPERM),
		DENY(SYS_add_key, EPERM),
		DENY(SYS_request_key, EPERM),
		DENY(SYS_connect, EACCES),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sendto, 0, 6),
		/* sendto(fd, buf, len, flags, addr, addrlen): refused with an address */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[4])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[4]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socketpair, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_VSOCK, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAFNOSUPPORT),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	/* no_new_privs is set already (exec_guest). */
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

/*
 * The child could not set the guest up: one line on the control channel
 * (fd 4 by now), which the parent reports as an infrastructure error.
 */
UMLRUN_NORETURN static void setup_failed(const char *what, int err)
{
	dprintf(4, "\nsetup-error %s: %s\n", what, strerror(err));
	dprintf(2, "%s: %s: %s\n", prog_name, what, strerror(err));
	_exit(126);
}

/*
 * The child could not give linux its file descriptors (a low ulimit -n):
 * said on the control channel, wherever it is by then (ctl).
 */
UMLRUN_NORETURN static void fds_failed(int ctl)
{
	int err = errno;

	dprintf(ctl, "\nsetup-error cannot give the guest its file descriptors: %s (ulimit -n?)\n",
		strerror(err));
	dprintf(2, "%s: cannot give the guest its file descriptors: %s (ulimit -n?)\n", prog_name,
		strerror(err));
	_exit(126);
}

/* The guest has the terminal: an interactive shell, or gdb without a script. */
static bool guest_on_terminal(const struct guest_spec *g)
{
	return g->shell || (g->gdb && !g->gdb_script);
}

/* In the child: fds 0-5 as the command line expects, then exec. */
UMLRUN_NORETURN static void exec_guest(const struct guest_spec *g, char **argv,
				       struct chan ch[CH_N], pid_t parent, int cpu)
{
	const struct confine_plan *cp = &g->stage->confine;
	const char *exe = argv[0];
	int r;
	const int want[] = { -1, -1, -1, ch[CH_OUT].guest, ch[CH_CTL].guest, ch[CH_ERR].guest };
	sigset_t set;
	int fds[6];
	/* Under gdb (gdb.h) the console moves to fd 6 and gdb takes 0-2. */
	int con = g->gdb ? fcntl(ch[CH_CON].guest, F_DUPFD, 10) : -1;
	/* --gdb-guest (never with --gdb): gdbserver's line moves to fd 6. */
	int line = g->gdbserver_master ? fcntl(g->gdbserver_master, F_DUPFD, 10) : -1;

	pin_to_cpu(cpu);
	setpgid(0, 0);
	if (guest_on_terminal(g))
		terminal_to(getpid()); /* before exec: linux reads the terminal at once */
	if (guest_on_terminal(g)) {
		fds[0] = dup(0);
		fds[1] = dup(1);
		fds[2] = dup(2);
	} else if (g->gdb) {
		fds[0] = open("/dev/null", O_RDONLY);
		fds[1] = dup(2);
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
		int f = fds[i] < 0 ? -1 : fcntl(fds[i], F_DUPFD, 10);

		if (f < 0)
			fds_failed(ch[CH_CTL].guest);
		fds[i] = f;
	}
	for (int i = 0; i < 6; i++)
		if (dup2(fds[i], i) < 0)
			fds_failed(ch[CH_CTL].guest);
	if ((g->gdb && con < 0) || (g->gdbserver_master && line < 0) ||
	    (con >= 0 && dup2(con, GDB_CONSOLE_FD) < 0) ||
	    (line >= 0 && dup2(line, GDBSERVER_FD) < 0))
		fds_failed(4);
	closefrom(con >= 0 || line >= 0 ? 7 : 6);
	/*
	 * The jail first, while still root; from here on linux sees only its
	 * stage (and finds it at CONFINE_JAIL_STAGE). getpid() is 1 only in
	 * the namespaces fork_guest made: never mount in the host's.
	 */
	if (cp->mount_ns) {
		if (getpid() != 1)
			setup_failed("cannot confine the guest: no mount namespace", EPERM);
		if ((r = confine_mounts(cp, g->stage->dir, g->index, g->stage->uid, g->stage->gid,
					g->mem ? g->mem : GUEST_MEM_DEFAULT)) < 0)
			setup_failed("cannot build the guest's mount namespace", -r);
		/* argv[0] stays the host's path: ps and pgrep name the stage. */
		exe = CONFINE_JAIL_STAGE "/linux";
	}
	/*
	 * Each guest process is a host process of the guest's user: a fork
	 * bomb in a guest with a large --mem would take the host's PIDs. The
	 * limit counts that user's processes, every guest of the run
	 * together; a wireless test runs about a hundred. In a user namespace
	 * of the guest's own (umlrun not root) it counts that namespace's
	 * processes alone (Linux 5.14 and later: before, all of the user's),
	 * so it is set there too; with Landlock alone it would count the
	 * user's other processes, and is not.
	 */
	if (g->stage->drop) {
		struct rlimit nproc = { GUEST_NPROC_MAX, GUEST_NPROC_MAX };

		setrlimit(RLIMIT_NPROC, &nproc);
	} else if (cp->user_ns && host_kernel_at_least(5, 14)) {
		struct rlimit nproc = { GUEST_NPROC_MAX, GUEST_NPROC_MAX };
		struct rlimit now;

		/* Not root: never above the hard limit, which only root raises. */
		if (getrlimit(RLIMIT_NPROC, &now) == 0 && now.rlim_max < GUEST_NPROC_MAX)
			nproc.rlim_cur = nproc.rlim_max = now.rlim_max;
		setrlimit(RLIMIT_NPROC, &nproc);
	}
	/*
	 * UML holds host descriptors for each guest process (a socket pair in
	 * seccomp mode): the usual soft limit of 1024 stopped a guest at about
	 * a thousand processes. Up to the hard limit, which is the host's.
	 */
	{
		struct rlimit nofile;

		if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
			nofile.rlim_cur = nofile.rlim_max;
			setrlimit(RLIMIT_NOFILE, &nofile);
		}
	}
	/* gdb stays root to read the sources; its exec-wrapper drops linux's (gdb.h). */
	if (g->stage->drop && !g->gdb) {
		if (setgroups(0, NULL) < 0 || setgid(g->stage->gid) < 0 ||
		    setuid(g->stage->uid) < 0) {
			dprintf(2, "%s: cannot drop privileges: %s\n", prog_name, strerror(errno));
			_exit(126);
		}
	}
	/* After setuid, which clears it; and if umlrun died already, stop. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* In a PID namespace of its own the parent is outside: getppid() is 0. */
	if (getppid() != parent && getppid() != 0)
		_exit(126);
	{
		/*
		 * Its own folder: the command line and TMPDIR (its memory file)
		 * name everything relative to it, so what the guest is told is
		 * the same whichever run and slot. Host address-space
		 * randomisation off: UML sizes its physical memory by where the
		 * host put its binary.
		 */
		char *dir = xasprintf("%s/g%d", g->stage->dir, g->index);

		if (!cp->mount_ns && chdir(dir) < 0)
			setup_failed("cannot enter the guest's folder", errno);
		setenv("TMPDIR", "uml", 1);
		/*
		 * --profile=gcov: the libgcov linked into linux writes its
		 * counters when it exits, each .gcda at its build folder path
		 * below this prefix: in the guest's results, so the test's
		 * artifacts (the guest itself is long gone by then).
		 */
		if (g->gcov) {
			_cleanup_free_ char *prefix =
			    cp->mount_ns ? xstrdup(CONFINE_JAIL_GUEST "/results/gcov")
					 : xasprintf("%s/results/gcov", dir);

			setenv("GCOV_PREFIX", prefix, 1);
		}
		personality((unsigned long)personality(0xffffffff) | ADDR_NO_RANDOMIZE);
	}
	/* Landlock and seccomp both need it when unprivileged; linux never gains any. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		setup_failed("cannot set no_new_privs", errno);
	if ((r = confine_landlock(cp, g->stage->dir, g->index)) < 0)
		setup_failed("cannot confine the guest with Landlock", -r);
	if (deny_host_calls() < 0)
		setup_failed("cannot install the seccomp filter that keeps the guest's kernel from "
			     "host keyrings, sockets and randomness",
			     errno);
	watched_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (g->gdb) {
		argv = gdb_argv(g->gdb, g->gdb_script, g->stage->drop, g->stage->uid, g->stage->gid,
				argv);
		exe = g->gdb;
	}
	if (getpid() == 1)
		be_namespace_init(exe, argv);
	execv(exe, argv);
	dprintf(2, "%s: cannot run %s: %s\n", prog_name, exe, strerror(errno));
	_exit(127);
}

struct guest {
	const struct guest_spec *spec;
	struct chan ch[CH_N];
	int tfd;	   /* wall-clock watchdog */
	int cpu, cpu_lock; /* the CPU it is kept on and its lock (claim_cpu), or -1 */
	pid_t pid;
	double t0, wall_timeout;
	bool rearmed;		  /* the limit is per result now (guest_rearm) */
	unsigned long long limit; /* of /results, when results_full */
	double next_walk;	  /* when guest_results_full may walk /results again */
	bool reaped, wall_expired, results_full, results_deep, results_many, aborted;
	bool saved_tty; /* tty: the terminal's settings before the shell's guest took it */
	struct termios tty;
	struct guest_outcome o;
	struct run_state st;
	struct guest *next_live;  /* the guests running now (live_guests) */
	struct itimerspec paused; /* the wall-clock limit's rest, while umlrun is stopped */
	pid_t linux_pid;	  /* linux's host pid, once known (guest_linux) */
	pid_t stopped;		  /* what ^Z stopped: linux's pid, or its group as -pgid */
};

/* The guests started and not yet finished: ^Z stops them with umlrun. */
static struct guest *live_guests;

static void live_remove(struct guest *g)
{
	for (struct guest **p = &live_guests; *p; p = &(*p)->next_live)
		if (*p == g) {
			*p = g->next_live;
			return;
		}
}

int guest_start(const struct guest_spec *g, char **argv, const struct guest_io *io,
		double wall_timeout, struct guest **out, struct uerr *e)
{
	struct guest *gu = xcalloc(1, sizeof(*gu));
	pid_t parent;

	if (!argv)
		argv = guest_cmdline(g, e);

	*out = NULL;
	gu->tfd = gu->cpu_lock = -1;
	gu->o.cost.guest_forks = gu->o.cost.guest_page_faults = -1;
	if (!argv) {
		free(gu);
		return -1;
	}
	gu->spec = g;
	gu->wall_timeout = wall_timeout;
	gu->st = (struct run_state){ .io = io, .o = &gu->o };
	gu->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (gu->tfd < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot make the guest's wall-clock timer (timerfd)");
		goto fail;
	}
	if (open_channels(gu->ch, g->shell, e) < 0)
		goto fail;
	if (wall_timeout > 0) {
		struct itimerspec its = { 0 };

		its.it_value.tv_sec = (time_t)wall_timeout;
		its.it_value.tv_nsec = (long)((wall_timeout - (double)(time_t)wall_timeout) * 1e9);
		/* Without it a busy loop under inf-cpu would run for ever. */
		if (timerfd_settime(gu->tfd, 0, &its, NULL) < 0) {
			uerr_sys(e, EXIT_INFRA, "cannot arm the wall-clock limit");
			goto fail;
		}
	}
	gu->t0 = monotonic_now();
	parent = getpid();
	/* The terminal's settings, before the guest can change them (guest_finish). */
	if (guest_on_terminal(g))
		gu->saved_tty = tcgetattr(STDIN_FILENO, &gu->tty) == 0;
	gu->cpu = claim_cpu(g->index, &gu->cpu_lock);
	gu->pid = fork_guest(&g->stage->confine, g->gdb != NULL);
	if (gu->pid < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot start the guest (fork)");
		goto fail;
	}
	if (gu->pid == 0)
		exec_guest(g, argv, gu->ch, parent, gu->cpu);
	gu->next_live = live_guests;
	live_guests = gu;
	/* Also here: whichever of parent and child runs first, the group exists. */
	setpgid(gu->pid, gu->pid);
	/*
	 * The shell's guest owns the terminal while it runs (see guest_finish),
	 * and sets it raw: its settings come back however the guest ends (a
	 * panic left the terminal without echo).
	 */
	if (guest_on_terminal(g))
		terminal_to(gu->pid);
	for (int i = 0; i < CH_N; i++)
		closep(&gu->ch[i].guest), gu->ch[i].guest = -1;
	strv_free(argv);
	*out = gu;
	return 0;
fail:
	strv_free(argv);
	close_channels(gu->ch);
	closep(&gu->tfd);
	closep(&gu->cpu_lock);
	free(gu);
	return -1;
}

int guest_pollfds(const struct guest *g, struct pollfd *pf)
{
	int n = 0;

	pf[n++] = (struct pollfd){ .fd = g->tfd, .events = POLLIN };
	for (int i = 0; i < CH_N; i++)
		if (g->ch[i].host >= 0)
			pf[n++] = (struct pollfd){ .fd = g->ch[i].host, .events = POLLIN };
	/* The shell's terminal: only its hangup matters (events 0). */
	if (g->spec->shell)
		pf[n++] = (struct pollfd){ .fd = 0, .events = 0 };
	return n;
}

/* The guest's process group: the linux process and all it started. */
static void kill_guest(struct guest *g)
{
	kill(-g->pid, SIGKILL);
}

void guest_handle(struct guest *g, const struct pollfd *pf, int n)
{
	for (int i = 0; i < n; i++) {
		if (!pf[i].revents)
			continue;
		if (pf[i].fd == 0) {
			/* The terminal went away: nobody will type "exit". */
			if (pf[i].revents & (POLLHUP | POLLERR | POLLNVAL))
				guest_interrupt(g, SIGHUP);
			continue;
		}
		if (pf[i].fd == g->tfd) {
			uint64_t ticks;

			/*
			 * A guest that has ended already did not run out of
			 * time: umlrun may have been stopped (^Z, SIGSTOP) while
			 * the limit passed and the guest finished.
			 */
			if (read(g->tfd, &ticks, sizeof(ticks)) > 0 && !guest_check_exit(g)) {
				g->wall_expired = true;
				kill_guest(g);
			}
			continue;
		}
		for (int c = 0; c < CH_N; c++) {
			if (g->ch[c].host != pf[i].fd)
				continue;
			if (!pump(&g->ch[c], c, &g->st)) {
				closep(&g->ch[c].host);
				g->ch[c].host = -1;
			}
		}
	}
}

/*
 * The bytes of the files below the folder dfd (closes dfd), by their size:
 * a sparse file counts whole, as a copy or an archive of it would. Deeper
 * than RESULTS_MAX_DEPTH it stops and sets *deep.
 */
#define RESULTS_MAX_DEPTH 256
/*
 * And at most this many entries: files and folders of no size fill the
 * results disk's inodes and the report just as well.
 */
#define RESULTS_MAX_ENTRIES 100000

/* a + b, or ULLONG_MAX: sizes of sparse files can add up past 2^64. */
static unsigned long long sat_add(unsigned long long a, unsigned long long b)
{
	return a + b < a ? ULLONG_MAX : a + b;
}

struct measure {
	unsigned long long bytes;
	unsigned long long entries;
	bool deep, many;
};

static enum walk_step measure(int dfd, const char *name, const struct stat *st, int depth,
			      void *ctx)
{
	struct measure *m = ctx;

	if (S_ISREG(st->st_mode))
		m->bytes = sat_add(m->bytes, (unsigned long long)st->st_size);
	if (++m->entries > RESULTS_MAX_ENTRIES) {
		m->many = true;
		return WALK_STOP;
	}
	if (!S_ISDIR(st->st_mode))
		return WALK_NEXT;
	if (depth >= RESULTS_MAX_DEPTH)
		m->deep = true;
	/*
	 * Not root, the guest's files are the user's, and a guest can take
	 * its own rights away (chmod 300) to hide a folder from this walk:
	 * give them back. A folder it cannot measure counts as too much.
	 */
	/* Never through a link the guest swapped in since (RENAME_EXCHANGE). */
	else if ((st->st_mode & 0700) != 0700 &&
		 fchmodat(dfd, name, (st->st_mode & 0777) | 0700, AT_SYMLINK_NOFOLLOW) < 0)
		m->deep = true;
	return m->deep ? WALK_STOP : WALK_ENTER;
}

/*
 * The host pid of linux: the guest's process, or, when that is the init of
 * a PID namespace (be_namespace_init), its child. 0 once it is gone.
 */
static pid_t linux_pid(const struct guest *g)
{
	_cleanup_free_ char *status = NULL;
	_cleanup_free_ char *children = NULL;
	_cleanup_free_ char *path = xasprintf("/proc/%d/status", g->pid);
	const char *ns;
	bool init = false;

	if (read_file(path, &status, NULL) < 0)
		return 0;
	/* "NSpid:\t4242\t1": pid 1 of a namespace of its own. */
	ns = strstr(status, "\nNSpid:");
	if (ns) {
		const char *end = strchr(ns + 1, '\n');
		_cleanup_free_ char *line =
		    end ? xstrndup(ns + 7, (size_t)(end - ns - 7)) : xstrdup(ns + 7);
		const char *last = strrchr(line, '\t');

		init = last && last != strchr(line, '\t') && atol(last + 1) == 1;
	}
	if (!init)
		return g->pid;
	free(path);
	path = xasprintf("/proc/%d/task/%d/children", g->pid, g->pid);
	if (read_file(path, &children, NULL) == 0)
		return atol(children) > 0 ? (pid_t)atol(children) : 0;
	/* A host kernel without CONFIG_PROC_CHILDREN: the process whose parent is the init. */
	{
		DIR *d = opendir("/proc");
		struct dirent *de;
		pid_t found = 0;

		while (d && !found && (de = readdir(d))) {
			_cleanup_free_ char *stat_path = NULL;
			_cleanup_free_ char *stat = NULL;
			const char *paren;
			int ppid;

			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			stat_path = xasprintf("/proc/%s/stat", de->d_name);
			/* "PID (COMM) STATE PPID ...": COMM may hold anything but the last ')'. */
			if (read_file(stat_path, &stat, NULL) == 0 &&
			    (paren = strrchr(stat, ')')) &&
			    sscanf(paren + 1, " %*c %d", &ppid) == 1 && ppid == g->pid)
				found = (pid_t)atol(de->d_name);
		}
		if (d)
			closedir(d);
		return found;
	}
}

/* linux's host pid, found once (it does not change), or 0 while it is not there. */
static pid_t guest_linux(struct guest *g)
{
	if (!g->linux_pid && !g->reaped)
		g->linux_pid = linux_pid(g);
	return g->reaped ? 0 : g->linux_pid;
}

/* Whether ino is a file pid maps (UML's memory file: unlinked, and not the test's). */
static bool mapped(const char *maps, ino_t ino)
{
	for (const char *l = maps; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned long long i = 0;

		/* "start-end perms offset dev inode path" */
		if (sscanf(l, "%*s %*s %*s %*s %llu", &i) == 1 && i == (unsigned long long)ino)
			return true;
	}
	return false;
}

/*
 * The bytes of files on the results' device that linux holds open after
 * they were removed: a test that writes to an unlinked file fills the
 * disk out of the walk's sight (exec 3>/results/f; rm /results/f).
 */
static unsigned long long unlinked_bytes(struct guest *g, dev_t dev)
{
	pid_t pid = guest_linux(g);
	_cleanup_free_ char *fds = NULL;
	_cleanup_free_ char *maps_path = NULL;
	_cleanup_free_ char *maps = NULL;
	unsigned long long bytes = 0;
	struct dirent *de;
	DIR *d;

	if (pid <= 0)
		return 0;
	fds = xasprintf("/proc/%d/fd", pid);
	maps_path = xasprintf("/proc/%d/maps", pid);
	if (!(d = opendir(fds)))
		return 0;
	if (read_file(maps_path, &maps, NULL) < 0)
		maps = NULL;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, 0) < 0)
			continue;
		if (S_ISREG(st.st_mode) && st.st_nlink == 0 && st.st_dev == dev &&
		    !mapped(maps, st.st_ino))
			bytes = sat_add(bytes, (unsigned long long)st.st_size);
	}
	closedir(d);
	return bytes;
}

bool guest_results_full(struct guest *g, unsigned long long limit, bool last)
{
	_cleanup_free_ char *dir = NULL;
	double t0 = monotonic_now(), took;
	struct stat st;
	int fd;

	if (!g->spec->stage || (!last && (g->reaped || g->results_full || t0 < g->next_walk)))
		return g->results_full;
	dir = xasprintf("%s/g%d/results", g->spec->stage->dir, g->spec->index);
	if (!g->results_full) {
		_cleanup_free_ char *uml =
		    xasprintf("%s/g%d/uml", g->spec->stage->dir, g->spec->index);
		struct measure m = { 0 };

		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && walk_at(fd, measure, &m) < 0)
			m.deep = true;
		/*
		 * UML's own folder (its pid file, its sockets): the guest can
		 * mount it with hostfs where Landlock alone confines it, and it
		 * is on the same disk. It counts with /results.
		 */
		fd = open(uml, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && walk_at(fd, measure, &m) < 0)
			m.deep = true;
		if (!g->reaped && stat(dir, &st) == 0)
			m.bytes = sat_add(m.bytes, unlinked_bytes(g, st.st_dev));
		if (m.bytes > limit || m.deep || m.many) {
			g->results_full = true;
			g->results_deep = m.deep;
			g->results_many = m.many;
			g->limit = limit;
			if (!g->reaped)
				kill_guest(g);
		}
	}
	/*
	 * The guest has ended: what it wrote past the limit does not stay.
	 * What cannot be removed is moved aside (the stage goes with the
	 * run), so none of it reaches the run folder.
	 */
	if (last && g->results_full && rm_contents(dir) < 0) {
		_cleanup_free_ char *aside = xasprintf("%s.dropped", dir);

		if (rename(dir, aside) == 0 && mkdir(dir, 0755) < 0) {
			/* collect_artifacts finds no folder: no artifacts, as meant */
		}
	}
	/* About every second; a folder of many files, less often (a tenth of the time). */
	took = monotonic_now() - t0;
	g->next_walk = t0 + (took * 10 > 1 ? took * 10 : 1);
	return g->results_full;
}

/* Adds what a reaped host process used to the guest's cost. */
static void add_rusage(struct guest_cost *c, const struct rusage *ru)
{
	c->host_user_seconds += (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6;
	c->host_system_seconds += (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
	c->host_page_faults += ru->ru_minflt + ru->ru_majflt;
	c->host_context_switches += ru->ru_nvcsw + ru->ru_nivcsw;
}

bool guest_check_exit(struct guest *g)
{
	struct rusage ru;

	if (!g->reaped && wait4(g->pid, &g->o.uml_status, WNOHANG, &ru) == g->pid) {
		g->reaped = true;
		add_rusage(&g->o.cost, &ru);
	}
	return g->reaped;
}

void guest_rearm(struct guest *g, double seconds)
{
	struct itimerspec its = { 0 };

	if (g->tfd < 0 || g->wall_expired || seconds <= 0)
		return;
	its.it_value.tv_sec = (time_t)seconds;
	its.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (timerfd_settime(g->tfd, 0, &its, NULL) == 0) {
		g->wall_timeout = seconds;
		g->rearmed = true;
	}
}

void guest_interrupt(struct guest *g, int sig)
{
	if (!g->o.host_signal)
		g->o.host_signal = sig;
	if (!g->reaped)
		kill_guest(g);
}

void guest_abort(struct guest *g)
{
	g->aborted = true;
	if (!g->reaped)
		kill_guest(g);
}

/* The signal that ended linux: directly, or as 128+N from the namespace init. */
static int killed_by(int status)
{
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	if (WIFEXITED(status) && WEXITSTATUS(status) > EXIT_SIGNAL_BASE)
		return WEXITSTATUS(status) - EXIT_SIGNAL_BASE;
	return 0;
}

/* Names the outcome from what init said, the clock, the console, the status. */
static void decide(struct guest *g)
{
	struct guest_outcome *o = &g->o;

	o->wall_seconds = monotonic_now() - g->t0;
	if (o->host_signal) {
		o->end = GUEST_INTERRUPTED;
		snprintf(o->detail, sizeof(o->detail), "umlrun received %s",
			 sigabbrev_np(o->host_signal) ? sigabbrev_np(o->host_signal) : "a signal");
	} else if (g->aborted) {
		o->end = GUEST_INTERRUPTED;
		snprintf(o->detail, sizeof(o->detail), "the run failed (see above)");
	} else if (g->results_full) {
		o->end = GUEST_CRASH;
		if (g->results_many)
			snprintf(o->detail, sizeof(o->detail),
				 "the test made more than %d files and folders in /results: "
				 "stopped, its artifacts dropped",
				 RESULTS_MAX_ENTRIES);
		else if (g->results_deep)
			snprintf(o->detail, sizeof(o->detail),
				 "the test made folders more than %d levels deep in /results: "
				 "stopped, its artifacts dropped",
				 RESULTS_MAX_DEPTH);
		else
			snprintf(o->detail, sizeof(o->detail),
				 "the test wrote more than %llu MiB to /results: stopped, its "
				 "artifacts dropped",
				 g->limit >> 20);
	} else if (g->wall_expired) {
		/*
		 * Before the init's word: a guest still running at the limit
		 * did not end, whatever "end" line the test (root in the guest,
		 * with the control line's device) wrote to fake one.
		 */
		o->end = GUEST_WALL_TIMEOUT;
		if (g->rearmed)
			snprintf(o->detail, sizeof(o->detail),
				 "no result for %g s of wall time (the limit after each result)",
				 g->wall_timeout);
		else
			snprintf(o->detail, sizeof(o->detail), "wall-clock limit of %g s",
				 g->wall_timeout);
	} else if (g->st.host_fault) {
		/* Whatever the test reported after it: its processes were lost. */
		o->end = GUEST_CRASH;
	} else if (g->st.ended && (g->st.panicked || killed_by(o->uml_status))) {
		/*
		 * The kernel died after an end line: the test (root in the
		 * guest) may have written that line itself before a panic.
		 */
		o->end = GUEST_CRASH;
		if (g->st.panicked)
			snprintf(o->detail, sizeof(o->detail), "%s", o->panic);
		else
			snprintf(o->detail, sizeof(o->detail),
				 "linux killed by signal %d (%s) after the end of the test",
				 killed_by(o->uml_status), strsignal(killed_by(o->uml_status)));
	} else if (g->st.ended) {
		; /* init's word stands: reported, sim-timeout or init-error */
	} else if (g->st.crashed) {
		o->end = GUEST_CRASH;
	} else if (g->st.init_failed) {
		o->end = GUEST_INIT_ERROR;
	} else if (killed_by(o->uml_status)) {
		o->end = GUEST_KILLED;
		snprintf(o->detail, sizeof(o->detail), "linux killed by signal %d (%s)",
			 killed_by(o->uml_status), strsignal(killed_by(o->uml_status)));
	} else {
		o->end = GUEST_CRASH;
		snprintf(o->detail, sizeof(o->detail),
			 "the guest ended (exit status %d) without reporting",
			 WIFEXITED(o->uml_status) ? WEXITSTATUS(o->uml_status) : -1);
	}
}

void guest_finish(struct guest *g, struct guest_outcome *o)
{
	live_remove(g);
	if (guest_on_terminal(g->spec)) {
		terminal_to(getpgrp());
		if (g->saved_tty)
			tcsetattr(STDIN_FILENO, TCSADRAIN, &g->tty);
	}
	{
		/*
		 * UML's helpers may outlive the linux process. They are in its
		 * process group, and as subreaper we inherit them: reap by
		 * group, so another guest's processes are never touched.
		 */
		kill(-g->pid, SIGKILL);
		/*
		 * Block until the whole group is gone: the linux process is
		 * reaped already, so its children were all handed to us before
		 * it died, and a WNOHANG loop could return while they still die.
		 */
		for (;;) {
			struct rusage ru;

			if (wait4(-g->pid, NULL, 0, &ru) > 0)
				add_rusage(&g->o.cost, &ru);
			else if (errno != EINTR)
				break;
		}
	}
	/* The writers are gone: what is still buffered is the last word. */
	for (int i = 0; i < CH_N; i++) {
		if (g->ch[i].host < 0)
			continue;
		fcntl(g->ch[i].host, F_SETFL, O_NONBLOCK);
		for (;;) {
			errno = 0;
			if (!pump(&g->ch[i], i, &g->st) || errno == EAGAIN)
				break;
		}
	}
	decide(g);
	*o = g->o;
	close_channels(g->ch);
	closep(&g->tfd);
	/* Its processes are all gone: the CPU is free for the next guest. */
	closep(&g->cpu_lock);
	free(g);
}

int supervise_signalfd(void)
{
	static int sfd = -1;
	sigset_t set;

	if (sfd < 0) {
		watched_set(&set);
		sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	}
	return sfd;
}

int guest_run(const struct guest_spec *g, const struct guest_io *io, double wall_timeout,
	      struct guest_outcome *o, struct uerr *e)
{
	int sfd = supervise_signalfd();
	struct guest *gu;

	memset(o, 0, sizeof(*o));
	if (sfd < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read signals (signalfd)");
	if (guest_start(g, NULL, io, wall_timeout, &gu, e) < 0)
		return -1;
	while (!guest_check_exit(gu)) {
		struct pollfd pf[1 + GUEST_MAX_FDS + 2];
		int n, nout = 0;

		pf[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		n = 1 + guest_pollfds(gu, pf + 1);
		/*
		 * A reader far behind (exec's output queued for it): with time
		 * travel off the guest's output waits in its own line, and the
		 * guest with it. Under time travel a guest that waits idles, and
		 * its clock would jump on (its simulated time limit too): there
		 * the output waits in umlrun's queue (OUTQ_MAX, then lost, exit 3).
		 */
		for (int k = 1; g->mode == TT_OFF && k < n; k++)
			if ((pf[k].fd == gu->ch[CH_OUT].host &&
			     outq_backlog(&outq_stdout) > OUTQ_HIGH) ||
			    (pf[k].fd == gu->ch[CH_ERR].host &&
			     outq_backlog(&outq_stderr) > OUTQ_HIGH))
				pf[k].fd = -1;
		/* Output waiting for its reader (the io callbacks queue it): woken when it takes
		 * more. */
		if (outq_waiting(&outq_stdout))
			pf[n + nout++] = (struct pollfd){ .fd = outq_stdout.fd, .events = POLLOUT };
		if (outq_waiting(&outq_stderr))
			pf[n + nout++] = (struct pollfd){ .fd = outq_stderr.fd, .events = POLLOUT };
		if (poll(pf, (nfds_t)(n + nout), 1000) < 0) {
			if (errno == EINTR)
				continue;
			uerr_sys(e, EXIT_INFRA, "poll");
			guest_abort(gu);
			guest_check_exit(gu);
			guest_finish(gu, o);
			return -1;
		}
		if (pf[0].revents) {
			int sig;

			while ((sig = supervise_read_signal(sfd)) > 0)
				/* The interactive shell gets ^C itself. */
				if (sig != SIGCHLD && !(guest_on_terminal(g) && sig == SIGINT))
					guest_interrupt(gu, sig);
		}
		guest_handle(gu, pf + 1, n - 1);
		outq_flush(&outq_stdout);
		outq_flush(&outq_stderr);
		/* exec keeps no /results, but a test may not fill the disk with it. */
		guest_results_full(gu, GUEST_RESULTS_MAX_BYTES, false);
	}
	guest_results_full(gu, GUEST_RESULTS_MAX_BYTES, true);
	guest_finish(gu, o);
	return 0;
}

int supervise_read_signal(int sfd)
{
	struct signalfd_siginfo si;

	do {
		if (read(sfd, &si, sizeof(si)) != sizeof(si))
			return 0;
		if (si.ssi_signo == SIGTSTP)
			supervise_suspend();
	} while (si.ssi_signo == SIGTSTP);
	return (int)si.ssi_signo;
}

/*
 * ^Z (SIGTSTP): umlrun stops, and its guests with it, their wall-clock
 * limits waiting: a run suspended and resumed (fg) ends as it would have.
 * Back from SIGCONT, the limits run on with what they had left. In an
 * orphaned process group (setsid, a service) nobody would send SIGCONT:
 * the SIGTSTP is dropped, as the kernel drops it there.
 */
void supervise_suspend(void)
{
	double t0 = monotonic_now(), stopped;

	if (!job_control_stops())
		return;

	for (struct guest *g = live_guests; g; g = g->next_live) {
		struct itimerspec off = { 0 };
		pid_t pid = guest_linux(g);

		/*
		 * Under the seccomp userspace nothing is traced: linux's whole
		 * group stops, guest processes too. Under ptrace a SIGSTOP to a traced
		 * stub would reach UML as the guest process's own signal: linux
		 * alone, and its stubs wait for it.
		 */
		g->stopped = pid;
		/* UML makes linux a session of its own (setsid): its group is its stubs'. */
		if (pid > 0 && g->spec->stage && g->spec->stage->seccomp && getpgid(pid) > 0)
			g->stopped = -getpgid(pid);
		if (g->stopped)
			kill(g->stopped, SIGSTOP);
		memset(&g->paused, 0, sizeof(g->paused));
		/* A limit already past stays so: its expiry is still to be read. */
		if (timerfd_gettime(g->tfd, &g->paused) == 0 &&
		    (g->paused.it_value.tv_sec || g->paused.it_value.tv_nsec))
			timerfd_settime(g->tfd, 0, &off, NULL);
	}
	raise(SIGSTOP);
	stopped = monotonic_now() - t0;
	for (struct guest *g = live_guests; g; g = g->next_live) {
		g->t0 += stopped;
		g->next_walk += stopped;
		if (g->paused.it_value.tv_sec || g->paused.it_value.tv_nsec)
			timerfd_settime(g->tfd, 0, &g->paused, NULL);
		if (g->stopped)
			kill(g->stopped, SIGCONT);
		g->stopped = 0;
	}
}
