// SPDX-License-Identifier: MIT
/*
 * init.c - the guest's PID 1 (static; /init in the rootfs).
 *
 * It runs one job and powers the guest off. The job arrives on the kernel
 * command line (read from /proc/cmdline, quoting honoured):
 *   umlrun.test=SUITE/tNNNN-name.sh   run a test file under /suite
 *   umlrun.sh=PATH                    with this shell (settings' shell=;
 *                                     default /bin/sh, busybox ash)
 *   umlrun.argv=HEX                   or run NUL-separated argv (umlrun exec)
 *   umlrun.shell=1                    or an interactive shell on the console
 *   umlrun.mode=inf-cpu|basic|off umlrun.start=SECS umlrun.timeout=SECS
 *   umlrun.suite=HOSTPATH umlrun.results=HOSTPATH  (relative to hostfs=)
 *   umlrun.harness="-x --run=1,3"     HARNESS_OPTIONS for the test file
 *   umlrun.seed=N                     credited to the random pool
 *   umlrun.trace=1                    tracing from boot (trace_event=): the
 *                                     buffer becomes /results/trace.txt
 *
 * Channels (serial lines the host binds to its own fds):
 *   /dev/ttyS0  the job's stdout: KTAP for tests, raw output for exec
 *   /dev/ttyS1  control: "begin ..." and "end ..." lines from this init
 *   /dev/ttyS2  the job's stderr
 * The host reads them as they are written, so a crash loses nothing already
 * reported; an "end" line that never comes is how the host knows it crashed.
 *
 * Whatever happens to the job, init reports and powers off: if init itself
 * exited, the kernel would panic ("Attempted to kill init").
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/random.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define DIE_PROG "init"
#include "die.h"

#define MAX_ARGS   256
#define MAX_MOUNTS 16

static struct {
	const char *test, *mode, *start, *suite, *results, *argv_hex, *try;
	const char *sh;	     /* umlrun.sh: the test file's shell */
	const char *harness; /* umlrun.harness: HARNESS_OPTIONS */
	long timeout;
	bool shell;
	const char *seed; /* umlrun.seed: credited to the random pool */
	bool trace;	  /* umlrun.trace=1: save the trace buffer when the job ends */
	char *argv[MAX_ARGS + 1];
	const char *mount[MAX_MOUNTS]; /* umlrun.mount=SRC_HEX,DST_HEX,ro|rw */
	size_t nmounts;
} param = { .mode = "off", .start = "", .suite = "suite", .sh = "/bin/sh", .timeout = 600 };

/* What the host's supervise.c looks for on the console (guest_console_mark). */
#define CONSOLE_MARK "umlrun-init: "

static int ctl_fd = -1;
static pid_t job_pid = -1;
static double job_t0;

static void ctl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ctl(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (ctl_fd >= 0) {
		/*
		 * A newline first: the test (root) can write to this line too,
		 * and half a line of its own would have spoilt ours.
		 */
		if (write(ctl_fd, "\n", 1) < 0 || write(ctl_fd, buf, (size_t)n) < 0)
			return;
		return;
	}
	/*
	 * Before the serial lines are open: on the console, marked so that the
	 * host reports an init error rather than a guest that died silently.
	 */
	dprintf(2, "\n" CONSOLE_MARK "%.*s", n, buf);
}

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int mount_one(const char *src, const char *dst, const char *type, unsigned long flags,
		     const char *data)
{
	mkdir(dst, 0755); /* fails on the read-only root when it exists: fine */
	if (mount(src, dst, type, flags, data) < 0 && errno != EBUSY) {
		ctl("error mount %s on %s: %s", type, dst, strerror(errno));
		return -1;
	}
	return 0;
}

static int mount_kernel_fs(void)
{
	static const char *const var_dirs[] = { "/var/tmp",   "/var/log", "/var/lib", "/var/cache",
						"/run/netns", "/dev/shm", "/dev/pts" };
	int r = 0;

	r |= mount_one("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	r |= mount_one("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	r |= mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	r |= mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	r |= mount_one("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
	r |= mount_one("tmpfs", "/var", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
	for (size_t i = 0; i < sizeof(var_dirs) / sizeof(var_dirs[0]); i++)
		mkdir(var_dirs[i], 0755);
	r |= mount_one("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "ptmxmode=0666");
	r |= mount_one("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	if (symlink("/run", "/var/run") < 0 && errno != EEXIST)
		r = -1;
	/* debugfs is where mac80211_hwsim and cfg80211 expose their state. */
	mount_one("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	return r;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* umlrun.argv: hex of the arguments, each followed by a NUL. */
static int decode_argv(const char *hex)
{
	size_t len = strlen(hex), n = 0;
	char *buf, *p;

	if (len % 2)
		return -1;
	buf = calloc(len / 2 + 1, 1);
	if (!buf)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);

		if (hi < 0 || lo < 0) {
			free(buf);
			return -1;
		}
		buf[i / 2] = (char)(hi << 4 | lo);
	}
	for (p = buf; p < buf + len / 2 && n < MAX_ARGS; p += strlen(p) + 1)
		param.argv[n++] = p;
	param.argv[n] = NULL;
	if (!n)
		free(buf);
	return n ? 0 : -1;
}

/* The text of hex (two digits a byte) into out (size n): 0, or -1 if malformed. */
static int unhex(const char *hex, size_t len, char *out, size_t n)
{
	if (len % 2 || len / 2 >= n)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);

		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
			return -1;
		out[i / 2] = (char)(hi << 4 | lo);
	}
	out[len / 2] = '\0';
	return 0;
}

/* Seconds, 0 for none (a shell); -1, so refused, for anything else. */
static long parse_timeout(const char *val)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*val))
		return -1;
	errno = 0;
	v = strtol(val, &end, 10);
	return errno || *end ? -1 : v;
}

static void set_param(char *key, char *val)
{
	if (strncmp(key, "umlrun.", 7))
		return;
	key += 7;
	if (!strcmp(key, "test"))
		param.test = val;
	else if (!strcmp(key, "sh"))
		param.sh = val;
	else if (!strcmp(key, "mode"))
		param.mode = val;
	else if (!strcmp(key, "start"))
		param.start = val;
	else if (!strcmp(key, "suite"))
		param.suite = val;
	else if (!strcmp(key, "results"))
		param.results = val;
	else if (!strcmp(key, "argv"))
		param.argv_hex = val;
	else if (!strcmp(key, "try"))
		param.try = val;
	else if (!strcmp(key, "harness"))
		param.harness = val;
	else if (!strcmp(key, "seed"))
		param.seed = val;
	else if (!strcmp(key, "timeout"))
		param.timeout = parse_timeout(val);
	else if (!strcmp(key, "shell"))
		param.shell = !strcmp(val, "1");
	else if (!strcmp(key, "trace"))
		param.trace = !strcmp(val, "1");
	else if (!strcmp(key, "mount") && param.nmounts < MAX_MOUNTS)
		param.mount[param.nmounts++] = val;
}

/*
 * Split the command line the way the kernel does (lib/cmdline.c
 * next_arg): whitespace separates, double quotes group, and a quoted
 * value has its quotes removed. The values point into line, which is
 * rewritten in place.
 */
static int parse_cmdline(char *line)
{
	char *p;

	for (p = line; *p;) {
		char *key, *val = NULL, *out;
		bool quoted = false;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		key = out = p;
		for (; *p && (quoted || !isspace((unsigned char)*p)); p++) {
			if (*p == '"') {
				quoted = !quoted;
				continue;
			}
			if (*p == '=' && !val) {
				*out++ = '\0';
				val = out;
				continue;
			}
			*out++ = *p;
		}
		if (*p)
			p++;
		*out = '\0';
		if (val)
			set_param(key, val);
	}
	if (param.argv_hex && decode_argv(param.argv_hex) < 0) {
		ctl("error umlrun.argv is malformed");
		return -1;
	}
	/* A timeout of 0 is none: junk must not turn the limit off. */
	if (param.timeout < 0) {
		ctl("error umlrun.timeout is malformed");
		return -1;
	}
	if (!param.test && !param.argv[0] && !param.shell) {
		ctl("error no job: umlrun.test, umlrun.argv or umlrun.shell is required");
		return -1;
	}
	return 0;
}

static int read_params(void)
{
	static char line[8192];
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	line[n] = '\0';
	return parse_cmdline(line);
}

/*
 * Credits the seed umlrun chose (umlrun.seed=) to the kernel's random
 * pool: it is ready at once, and the same in every run. umlrun keeps the
 * host's randomness out (runner/guest/supervise.c), and the rest of what the
 * kernel mixed in (its command line, the simulated clock) is the same too,
 * so every random number the guest draws is.
 */
static int seed_random(void)
{
	struct {
		int entropy_count;
		int buf_size;
		uint64_t buf[4];
	} pool = { 8 * sizeof(pool.buf), sizeof(pool.buf), { 0 } };
	uint64_t x;
	int fd, r;

	if (!param.seed)
		return 0;
	x = strtoull(param.seed, NULL, 10);
	for (int i = 0; i < 4; i++) {
		/* splitmix64: 256 well-spread bits from the 64 of the seed */
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		pool.buf[i] = z ^ (z >> 31);
	}
	fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	r = fd < 0 ? -1 : ioctl(fd, RNDADDENTROPY, &pool);
	if (r < 0)
		ctl("error cannot seed the random pool: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	return r < 0 ? -1 : 0;
}

/* mkdir -p path: for a --mount point under one of the guest's tmpfs. */
static void make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

/* umlrun.mount: a host folder (--mount) the host made reachable. */
static int mount_extra(const char *spec)
{
	char src[4096], dst[4096];
	const char *c1 = strchr(spec, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	bool rw;

	if (!c1 || !c2 || unhex(spec, (size_t)(c1 - spec), src, sizeof(src)) < 0 ||
	    unhex(c1 + 1, (size_t)(c2 - c1 - 1), dst, sizeof(dst)) < 0 || dst[0] != '/' ||
	    (strcmp(c2 + 1, "ro") && strcmp(c2 + 1, "rw"))) {
		ctl("error umlrun.mount is malformed");
		return -1;
	}
	rw = !strcmp(c2 + 1, "rw");
	make_dirs(dst);
	return mount_one("none", dst, "hostfs", (rw ? 0 : MS_RDONLY) | MS_NOSUID | MS_NODEV, src);
}

static int mount_host(void)
{
	if (mount_one("none", "/suite", "hostfs", MS_RDONLY | MS_NOSUID | MS_NODEV, param.suite))
		return -1;
	if (param.results &&
	    mount_one("none", "/results", "hostfs", MS_NOSUID | MS_NODEV, param.results))
		return -1;
	for (size_t i = 0; i < param.nmounts; i++)
		if (mount_extra(param.mount[i]) < 0)
			return -1;
	return 0;
}

/*
 * Raw: no \n -> \r\n, no echo, no case mapping; the host sees exactly the
 * bytes. Also the terminal line discipline, and output not stopped: the
 * test (root) may have changed either (TIOCSETD, tcflow TCOOFF).
 */
static void line_raw(int fd)
{
	struct termios t, unlocked = { 0 };
	int ldisc = N_TTY;

	ioctl(fd, TIOCSLCKTRMIOS, &unlocked); /* no settings locked (TIOCSLCKTRMIOS) */
	ioctl(fd, TIOCSETD, &ldisc);
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	tcflow(fd, TCOON);
}

static int open_line(const char *path)
{
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0)
		line_raw(fd);
	return fd;
}

static int out_fd = -1, err_fd = -1;

static int open_channels(void)
{
	ctl_fd = open_line("/dev/ttyS1");
	out_fd = open_line("/dev/ttyS0");
	err_fd = open_line("/dev/ttyS2");
	if (ctl_fd < 0 || out_fd < 0 || err_fd < 0) {
		ctl("error cannot open the serial lines: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void setup_env(void)
{
	clearenv();
	setenv("PATH", "/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", "/tmp", 1);
	setenv("TMPDIR", "/tmp", 1);
	setenv("LANG", "C", 1);
	setenv("TERM", param.shell ? "linux" : "dumb", 1);
	setenv("UMLRUN_MODE", param.mode, 1);
	setenv("UMLRUN_START", param.start, 1);
	setenv("UMLRUN_TRY", param.try ? param.try : "1", 1);
	if (param.harness)
		setenv("HARNESS_OPTIONS", param.harness, 1);
	setenv("UMLRUN_ARTIFACTS", "/results", 1);
	if (param.test)
		setenv("UMLRUN_TEST", param.test, 1);
}

static void exec_job(void)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	setup_env();
	if (param.shell) {
		int fd = open("/dev/console", O_RDWR);

		if (fd >= 0) {
			ioctl(fd, TIOCSCTTY, 1);
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (chdir("/suite") < 0 && chdir("/") < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-i", (char *)NULL);
	} else {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		if (param.test) {
			char dir[512];
			const char *slash = strrchr(param.test, '/');

			snprintf(dir, sizeof(dir), "/suite/%.*s",
				 slash ? (int)(slash - param.test) : 0, param.test);
			if (chdir(dir) < 0) {
				warn_sys("cannot enter %s", dir);
				_exit(127);
			}
			{
				const char *name = strrchr(param.sh, '/');

				execl(param.sh, name ? name + 1 : param.sh,
				      slash ? slash + 1 : param.test, (char *)NULL);
				warn_sys("cannot run the test file with %s", param.sh);
				_exit(127);
			}
		} else {
			if (chdir("/tmp") < 0)
				_exit(127);
			execvp(param.argv[0], param.argv);
			dprintf(2, "%s: %s\n", param.argv[0], strerror(errno));
			_exit(errno == ENOENT ? 127 : 126);
		}
	}
	warn_sys("cannot run the job");
	_exit(127);
}

/*
 * Wait for the job, reaping every orphan that reparents to us, until the
 * job ends or the simulated-time budget runs out. SIGCHLD is blocked from
 * before the fork, so an exit between fork and sigtimedwait is not lost.
 */
static int wait_job(int *status)
{
	double deadline = job_t0 + (double)param.timeout;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (;;) {
		struct timespec ts;
		double left;
		pid_t pid;

		while ((pid = waitpid(-1, status, WNOHANG)) > 0)
			if (pid == job_pid)
				return 0;
		left = deadline - monotonic();
		if (param.timeout <= 0 || param.shell)
			left = 1e9;
		if (left <= 0)
			return -1;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sigtimedwait(&set, NULL, &ts);
	}
}

/*
 * A counter of the guest kernel's: the number after "KEY " on a line of
 * FILE (/proc/stat, /proc/vmstat), -1 when missing.
 */
static long long proc_counter(const char *file, const char *key)
{
	char line[256];
	long long v = -1;
	size_t klen = strlen(key);
	FILE *f = fopen(file, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* What the job cost the guest: processes created and page faults. */
struct job_cost {
	long long forks, pgfault;
};

static struct job_cost job_cost_now(void)
{
	return (struct job_cost){ proc_counter("/proc/stat", "processes"),
				  proc_counter("/proc/vmstat", "pgfault") };
}

static int run_job(void)
{
	sigset_t set;
	int status = 0, timed_out;
	struct job_cost c0, c1;
	char cost[96];

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	c0 = job_cost_now();
	job_t0 = monotonic();
	ctl("begin sim=%.9f", job_t0);
	job_pid = fork();
	if (job_pid < 0) {
		ctl("error fork: %s", strerror(errno));
		return -1;
	}
	if (job_pid == 0)
		exec_job();
	timed_out = wait_job(&status) < 0;
	/* Nothing the job started may outlive it: daemons, stray children. */
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	c1 = job_cost_now();
	snprintf(cost, sizeof(cost), " forks=%lld pgfault=%lld", c1.forks - c0.forks,
		 c1.pgfault - c0.pgfault);
	/*
	 * The test may have changed the line's settings (stty olcuc, locked
	 * ones) or hung it up (a session of its own on it, killed above: the
	 * old descriptor then only fails): a fresh one, raw again.
	 */
	{
		/* The same line, not what the test may have put at /dev/ttyS1. */
		int fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		struct stat was, now;

		if (fd >= 0 && fstat(ctl_fd, &was) == 0 && fstat(fd, &now) == 0 &&
		    S_ISCHR(now.st_mode) && now.st_rdev == was.st_rdev &&
		    fcntl(fd, F_SETFL, 0) == 0) {
			close(ctl_fd);
			ctl_fd = fd;
		} else if (fd >= 0) {
			close(fd);
		}
		line_raw(ctl_fd);
	}
	if (timed_out)
		ctl("end timeout=%ld sim=%.9f%s", param.timeout, monotonic() - job_t0, cost);
	else if (WIFSIGNALED(status))
		ctl("end signal=%d sim=%.9f%s", WTERMSIG(status), monotonic() - job_t0, cost);
	else
		ctl("end exit=%d sim=%.9f%s", WEXITSTATUS(status), monotonic() - job_t0, cost);
	return 0;
}

#define TRACEFS "/sys/kernel/tracing"

/*
 * tracefs for the shell's user, when tracing from boot. A test file's
 * guest mounts it only once the job is over (save_trace): a mount reads the
 * clock (inode times), and under time travel each read moves it 256 ns,
 * so the traced job keeps the timings it has untraced.
 */
static int mount_tracefs(void)
{
	if (param.trace && param.shell)
		mount_one("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	return 0;
}

/* Copies src to a new dest (what was there is removed first): 0, or -1 with errno set. */
static int copy_file(const char *src, const char *dest)
{
	char buf[65536];
	ssize_t n = 0;
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, saved;

	/*
	 * The test may have left anything at dest (a fifo would block this
	 * open forever): a new file, or an error.
	 */
	if (in >= 0 && (unlink(dest) == 0 || errno == ENOENT))
		out = open(dest, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	saved = errno;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	errno = saved;
	return in < 0 || out < 0 || n < 0 ? -1 : 0;
}

/*
 * The trace buffer, once the job is over: tracing stops first, so that
 * copying it adds nothing, then /results/trace.txt (artifacts/trace.txt on
 * the host). A failure is noted on the console; the job's result stands.
 */
static int save_trace(void)
{
	int off;

	if (!param.trace || !param.results || param.shell)
		return 0;
	mount_one("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	off = open(TRACEFS "/tracing_on", O_WRONLY | O_CLOEXEC);
	if (off >= 0) {
		if (write(off, "0", 1) < 0)
			warn_sys("cannot stop tracing");
		close(off);
	}
	if (copy_file(TRACEFS "/trace", "/results/trace.txt") < 0)
		warn_sys("cannot save the trace");
	return 0;
}

static int power_off(void)
{
	sync();
	umount2("/results", MNT_DETACH);
	reboot(RB_POWER_OFF);
	return -1; /* not reached */
}

/*
 * Writes text to a kernel setting; a setting the kernel lacks (no such
 * file) is left alone, a write it refuses said on the control channel.
 */
static void set_knob(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t n = strlen(text);

	if (fd < 0)
		return;
	if (write(fd, text, n) != (ssize_t)n)
		ctl("error cannot write %s: %s", path, strerror(errno));
	close(fd);
}

/*
 * The kernel has what the guest needs built in, and the root holds no
 * modules: a request_module() (a netdev, protocol or crypto name the
 * kernel does not know) would start /sbin/modprobe only for it to fail,
 * 4 to 5 times per wireless test file, each a process on the host's CPU.
 * An empty modprobe path makes the kernel give up at once (-ENOENT).
 * Without CONFIG_MODULES there is nothing to turn off.
 */
static int no_modprobe(void)
{
	set_knob("/proc/sys/kernel/modprobe", "\n");
	return 0;
}

/*
 * Each page fault of a guest process is a round trip between two host
 * processes (its stub and the kernel), then a host mmap: about 90 us,
 * four system calls' worth. On a fault in a file's page the kernel maps
 * the pages around it that are in the page cache already, 64 KB by
 * default; 1 MB brings a small program's or library's text in at once.
 * Twenty hostap cases took 19 % fewer faults (docs/guest.md). Simulated
 * time does not move on a fault, so no simulated second changes. Without
 * debugfs: the kernel's default.
 */
static int fault_around(void)
{
	set_knob("/sys/kernel/debug/fault_around_bytes", "1048576\n");
	return 0;
}

static const struct step {
	const char *name;
	int (*fn)(void);
} steps[] = {
	{ "mount kernel filesystems", mount_kernel_fs },
	/* First thing after /dev: every later error then reaches the host's control channel. */
	{ "open channels", open_channels },
	{ "read parameters", read_params },
	{ "turn module loading off", no_modprobe },
	{ "map file pages around a fault", fault_around },
	{ "seed the random pool", seed_random },
	{ "mount host folders", mount_host },
	{ "mount tracefs", mount_tracefs },
	{ "run the job", run_job },
	{ "save the trace", save_trace },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].fn() < 0) {
			ctl("end error step=\"%s\"", steps[i].name);
			break;
		}
	}
	power_off();
	return 0;
}
