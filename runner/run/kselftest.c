// SPDX-License-Identifier: MIT
/* kselftest.c - build the kernel's selftests and make a suite of them. */
#define _GNU_SOURCE
#include "kselftest.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * How every target is built. Static: the guest's root has none of the
 * host's libraries. --allow-multiple-definition: valid-adjtimex defines
 * its own clock_adjtime() (a raw system call); linked dynamically the
 * program's copy wins, linked statically it collides with libc.a's, and
 * the option lets the first definition, the program's, win as it would.
 * Part of the cache key: a changed recipe rebuilds.
 */
#define KSFT_CFLAGS  "-static"
#define KSFT_LDFLAGS "-static -Wl,--allow-multiple-definition"

/* ---- the one list of what does not run, and why ------------------- */

/*
 * Reasons, one per cause (docs/kselftest.md tells each story). A program
 * is skipped only for one of these: a UML limitation, or an option the
 * kernel umlrun builds does not have.
 */
#define WHY_ITIMER_VIRTUAL                                                                         \
	"UML limitation: every timer tick is accounted to the kernel, never to user mode "         \
	"(the tick comes from a host signal the UML kernel takes for itself), so user CPU time "   \
	"stays 0 and ITIMER_VIRTUAL never fires; the program waits for it forever (in every "      \
	"time-travel mode)"
/* What the programs that poll the clock need, said after each reason. */
#define WHY_NO_COST                                                                                \
	"; it runs under --time-travel=inf-cpu on a kernel with umlrun's syscall-cost patch "      \
	"(uml-config/patches; not applied to a --kernel-src tree), each system call then "         \
	"taking simulated time"
#define WHY_THREADTEST                                                                             \
	"UML limitation: 8 threads poll clock_gettime() while the main thread sleeps a second "    \
	"at a time; under time travel a read advances the clock by 256 ns, so that second is 3.9 " \
	"million system calls (about 7 minutes of wall time)" WHY_NO_COST                          \
	", and with -t 1 under --time-travel=off"
#define WHY_TICK_CLOCKS                                                                            \
	"UML limitation: they move only with the tick, and under time travel a timer (the tick "   \
	"too) fires only when the guest idles, which a program polling them never "                \
	"does" WHY_NO_COST
#define WHY_RUNS_INCONSISTENCY                                                                     \
	"UML limitation: runs ./inconsistency-check with budgets of its own "                      \
	"(10 s per clock, 20 s, 600 s); under time travel each second of it is 3.9 million "       \
	"clock reads" WHY_NO_COST
#define WHY_LEAPCRASH                                                                              \
	"UML limitation: calls adjtimex() in a loop until 3 s of clock have passed, 20 times; "    \
	"under time travel a call advances the clock by 256 ns: 230 million system "               \
	"calls" WHY_NO_COST
#define WHY_GETTIME_PERF                                                                           \
	"UML limitation: reads each of 8 clocks through the vDSO until 3 s have passed; UML's "    \
	"vDSO makes a system call per read, and under time travel a read advances the clock by "   \
	"256 ns: 94 million system calls" WHY_NO_COST
#define WHY_REAL_TIME                                                                              \
	"it polls the clock for budgets of its own, which with time travel off take real time "    \
	"(over 40 minutes for the timers target's pollers); it runs under --time-travel=inf-cpu, " \
	"where each system call takes simulated time"
#define WHY_NO_RTC                                                                                 \
	"missing kernel option: no RTC (CONFIG_RTC_CLASS and CONFIG_UML_RTC are off), so there "   \
	"is no /dev/rtc0; --config=uml-config/kselftest/rtc.config adds them"
#define WHY_NO_ALARM                                                                               \
	"missing kernel option: CLOCK_REALTIME_ALARM needs an RTC (CONFIG_RTC_CLASS and "          \
	"CONFIG_UML_RTC are off; --config=uml-config/kselftest/rtc.config adds them); the "        \
	"program then tests nothing and exits 0"

/*
 * The reasons above go into generated shell scripts, inside double quotes
 * (an apostrophe, as in "umlrun's", ended a single-quoted echo): they may
 * hold no '"', '$', '`' or '\\' (the unit tests run the script through sh -n).
 *
 * inconsistency-check under basic time travel or on a kernel without the
 * cost: its -t 1 polls until tv_sec moves on, so started 2 ms before a
 * second boundary it polls about 8000 reads instead of up to 3.9 million.
 * The sleep there is free under time travel (timerprobe, in the guest's
 * root). One clock per run, as each run ends past the boundary the next
 * one needs, each aligned on its own clock (with an RTC, REALTIME starts
 * at the RTC's fraction of a second, not MONOTONIC's; TAI is REALTIME plus
 * whole seconds, MONOTONIC_RAW moves with MONOTONIC in a guest nothing
 * adjusts before).
 */
#define INCONSISTENCY_BY_CLOCK                                                                     \
	"\techo \"# CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, CLOCK_REALTIME_COARSE, "    \
	"CLOCK_MONOTONIC_COARSE not run: " WHY_TICK_CLOCKS "\"\n"                                  \
	"\trc=0\n"                                                                                 \
	"\tfor clock in 0 1 4 7 11; do\n"                                                          \
	"\t\tcase $clock in 0 | 11) at=realtime_ns ;; 7) at=boottime_ns ;; *) at=monotonic_ns ;; " \
	"esac\n"                                                                                   \
	"\t\tnow=$(timerprobe now | sed -n \"s/^$at=//p\") &&\n"                                   \
	"\t\t\ttimerprobe --slack=1ns nanosleep \\\n"                                              \
	"\t\t\t    $(((2000000000 - now % 1000000000 - 2000000) % 1000000000)) >/dev/null &&\n"    \
	"\t\t\t\"./$prog\" -t 1 -c \"$clock\" || { rc=$?; break; }\n"                              \
	"\tdone\n"                                                                                 \
	"\t(exit $rc)\n"

/*
 * The simulated time each system call takes while a program that polls
 * the clock runs as written (uml_syscall_cost_ns, our kernel patch): its
 * budget of N seconds is then N / COST system calls. 10 ms keeps inside
 * the 40 ms latency bound of nsleep-lat (which set-2038 runs): a relative
 * sleep there measures about 1.1 cost, an absolute one 1 cost. 50 ms for
 * the programs whose children check no upper bound: fewer calls, less
 * wall time (the timers target: 75 simulated minutes in 19 s at -j2).
 */
#define COST_LATENCY_MS 10
#define COST_POLL_MS	50

static const struct ksft_rule {
	const char *id;	  /* TARGET/PROG */
	const char *skip; /* why it does not run under time travel, or NULL */
	bool real_time;	  /* it runs with time travel off (with args) */
	const char *args; /* what it runs with, or NULL */
	/* Under time travel without the cost: shell commands that run it ($prog). */
	const char *tt_script;
	/* The kernel option whose absence is the reason (skip applies only then). */
	const char *needs;
	/* Under inf-cpu with the cost: it runs as written, each call taking this. */
	unsigned cost_ms;
	/*
	 * Under inf-cpu on a kernel with the stall breaker (patch 0007): it
	 * runs as written, with no cost; its polling moves the clock on.
	 */
	bool breaker;
} rules[] = {
	{ "timers/posix_timers", WHY_ITIMER_VIRTUAL, false, NULL, NULL, NULL, 0, false },
	/* Their own budgets are 10 s per clock and 30 s: -t 1 keeps them short. */
	{ "timers/inconsistency-check", NULL, true, "-t 1", INCONSISTENCY_BY_CLOCK, NULL,
	  COST_POLL_MS, true },
	{ "timers/threadtest", WHY_THREADTEST, true, "-t 1", NULL, NULL, COST_POLL_MS, true },
	{ "timers/change_skew", WHY_RUNS_INCONSISTENCY, false, NULL, NULL, NULL, COST_POLL_MS,
	  true },
	{ "timers/set-2038", WHY_RUNS_INCONSISTENCY, false, NULL, NULL, NULL, COST_LATENCY_MS,
	  true },
	{ "timers/skew_consistency", WHY_RUNS_INCONSISTENCY, false, NULL, NULL, NULL, COST_POLL_MS,
	  true },
	{ "timers/clocksource-switch", WHY_RUNS_INCONSISTENCY, false, NULL, NULL, NULL,
	  COST_POLL_MS, true },
	{ "timers/leapcrash", WHY_LEAPCRASH, false, NULL, NULL, NULL, COST_POLL_MS, true },
	/* 24 s of polling: with time travel off it takes that, as written. */
	{ "timens/gettime_perf", WHY_GETTIME_PERF, true, NULL, NULL, NULL, COST_POLL_MS, true },
	{ "timers/rtcpie", WHY_NO_RTC, false, NULL, NULL, "CONFIG_UML_RTC", 0, false },
	{ "timers/alarmtimer-suspend", WHY_NO_ALARM, false, NULL, NULL, "CONFIG_UML_RTC", 0,
	  false },
};

/* Whether the kernel config text sets OPTION=y. */
static bool kconfig_has(const char *kconfig, const char *option)
{
	size_t l = strlen(option);

	for (const char *p = kconfig; p && (p = strstr(p, option)); p += l)
		if ((p == kconfig || p[-1] == '\n') && !strncmp(p + l, "=y\n", 3))
			return true;
	return false;
}

const char *kselftest_rule(const char *target, const char *prog, enum tt_mode mode,
			   const char *kconfig, bool cost, bool breaker, struct ksft_how *how)
{
	memset(how, 0, sizeof(*how));
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct ksft_rule *r = &rules[i];
		size_t tl = strlen(target);

		if (strncmp(r->id, target, tl) || r->id[tl] != '/' || strcmp(r->id + tl + 1, prog))
			continue;
		if (r->needs && kconfig_has(kconfig, r->needs))
			return NULL;
		if (mode == TT_OFF) {
			how->args = r->args;
			if (r->real_time)
				return NULL;
			/* A program that polls the clock: here its budgets take real time. */
			return r->cost_ms ? WHY_REAL_TIME : r->skip;
		}
		if (mode == TT_INF_CPU && breaker && r->breaker)
			return NULL;
		if (mode == TT_INF_CPU && cost && r->cost_ms) {
			how->cost_ns = r->cost_ms * 1000000UL;
			return NULL;
		}
		how->args = r->args;
		how->script = r->tt_script;
		return r->skip;
	}
	return NULL;
}

/* ---- parsing ------------------------------------------------------- */

bool kselftest_target_name_ok(const char *t)
{
	if (!*t || *t == '/' || *t == '-' || t[strlen(t) - 1] == '/' || strstr(t, "..") ||
	    strstr(t, "//"))
		return false;
	return strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") ==
	       strlen(t);
}

long kselftest_timeout(const char *settings)
{
	const char *p = settings;

	while (p && *p) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, "timeout=", 8)) {
			char *end;
			long v;

			errno = 0;
			v = strtol(p + 8, &end, 10);
			if (errno || end == p + 8 || end != nl || v < 0)
				return -1;
			return v == 0 ? KSELFTEST_TIMEOUT_NONE : v;
		}
		p = *nl ? nl + 1 : nl;
	}
	return KSELFTEST_TIMEOUT_DEFAULT;
}

/* What gcc, ld and make say when a program does not build. */
static bool is_error_line(const char *line, size_t len)
{
	static const char *const marks[] = { ": error:",
					     ": fatal error:",
					     "undefined reference",
					     "multiple definition",
					     ": not found",
					     "No such file or directory" };
	_cleanup_free_ char *l = xstrndup(line, len);

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(l, marks[i]))
			return true;
	return false;
}

char *kselftest_error_lines(const char *log, size_t max)
{
	struct strbuf sb = { 0 };
	size_t n = 0;

	for (const char *p = log; p && *p && n < max;) {
		const char *nl = strchrnul(p, '\n');

		if (is_error_line(p, (size_t)(nl - p))) {
			if (n++)
				sb_adds(&sb, " | ");
			sb_add(&sb, p, (size_t)(nl - p));
		}
		p = *nl ? nl + 1 : nl;
	}
	return n ? sb_detach(&sb) : NULL;
}

char *kselftest_suite_name(const char *target)
{
	char *s = xasprintf("kselftest-%s", target);

	for (char *p = s; *p; p++)
		if (*p == '/')
			*p = '-';
	return s;
}

/* ---- the source tree ----------------------------------------------- */

int kselftest_source(const char *kernel_dir, char **tree, char **identity, struct uerr *e)
{
	_cleanup_free_ char *path = xasprintf("%s/inputs.txt", kernel_dir);
	_cleanup_free_ char *text = NULL;
	struct strbuf id = { 0 };
	const char *first;
	size_t flen;

	*tree = *identity = NULL;
	if (read_file(path, &text, NULL) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read %s (run 'umlrun build' again)", path);
	first = text;
	flen = strcspn(first, "\n");
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, "source: ", 8) || !strncmp(p, "tree-content: ", 14) ||
		    !strncmp(p, "compiler: ", 10)) {
			sb_add(&id, p, (size_t)(nl - p));
			sb_adds(&id, "\n");
		}
		p = *nl ? nl + 1 : nl;
	}
	if (!strncmp(first, "source: tree ", 13)) {
		*tree = xstrndup(first + 13, flen - 13);
	} else if (!strncmp(first, "source: tarball ", 16)) {
		/*
		 * kernel_cache.c extracts the tarball once into src/ID, ID
		 * being the first 16 hex digits of the SHA-256 of the inputs
		 * that name the patched tree: the source line and the patch
		 * lines after it, everything before "base: ".
		 */
		_cleanup_free_ char *root = cache_root();
		_cleanup_free_ char *dir = NULL;
		struct hasher *h = hasher_new();
		struct dirent *de;
		char hex[65];
		DIR *d;

		const char *base = strstr(text, "\nbase: ");
		_cleanup_free_ char *named =
		    xstrndup(text, base ? (size_t)(base + 1 - text) : strlen(text));

		hasher_add_str(h, named); /* as kernel_cache.c does: with the NUL */
		hasher_final(h, hex);
		dir = xasprintf("%s/src/%.16s", root, hex);
		d = opendir(dir);
		if (!d) {
			sb_release(&id);
			return uerr_sys(
			    e, EXIT_INFRA,
			    "the kernel's extracted source %s is gone; remove %s and run "
			    "'umlrun build' to extract it again",
			    dir, kernel_dir);
		}
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && !*tree)
				*tree = xasprintf("%s/%s", dir, de->d_name);
		closedir(d);
	}
	if (!*tree) {
		sb_release(&id);
		return uerr_set(e, EXIT_INFRA, "%s names no kernel source I can find", path);
	}
	*identity = sb_detach(&id);
	return 0;
}

int kselftest_check_target(const char *tree, const char *target, struct uerr *e)
{
	_cleanup_free_ char *mk = NULL;

	if (!kselftest_target_name_ok(target))
		return uerr_set(e, EXIT_USAGE,
				"kselftest: '%s' is not a target name (a folder of "
				"tools/testing/selftests, e.g. timers)",
				target);
	mk = xasprintf("%s/tools/testing/selftests/%s/Makefile", tree, target);
	if (!path_exists(mk))
		return uerr_set(e, EXIT_USAGE,
				"kselftest: unknown target '%s': %s/tools/testing/selftests has no "
				"%s/Makefile (e.g. timers, futex)",
				target, tree, target);
	return 0;
}

/* ---- building ------------------------------------------------------ */

/* Progress through the caller's callback (util.h, say_through). */
#define tell(o, transient, ...) say_through((o)->say, (o)->say_ctx, transient, __VA_ARGS__)

/* The program a compiler line makes: the word after " -o ", its last part. */
static void program_of(const char *line, char *out, size_t size)
{
	const char *o = strstr(line, " -o ");
	const char *end, *slash;

	if (!o)
		return;
	o += 4;
	end = o + strcspn(o, " ");
	for (slash = o; (o = memchr(o, '/', (size_t)(end - o))); slash = ++o)
		;
	snprintf(out, size, "%.*s", (int)(end - slash), slash);
}

static void child_env(void)
{
	/* The selftests Makefile must not see umlrun's own make, nor build for ARCH=um. */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("ARCH");
	unsetenv("O");
	unsetenv("KBUILD_OUTPUT");
	unsetenv("CROSS_COMPILE");
	unsetenv("LLVM");
	setenv("CFLAGS", KSFT_CFLAGS, 1);
	setenv("LDFLAGS", KSFT_LDFLAGS, 1);
}

/* The selftests build's progress: the programs linked so far. */
struct ksft_progress {
	const struct kselftest_build_opts *o;
	time_t t0, last;
	unsigned long programs;
	char cur[80];
};

static void ksft_line(void *ctx, const char *line)
{
	struct ksft_progress *kp = ctx;

	if (strstr(line, " -o ") && strstr(line, "-static")) {
		kp->programs++;
		program_of(line, kp->cur, sizeof(kp->cur));
	}
}

static void ksft_tick(void *ctx)
{
	struct ksft_progress *kp = ctx;
	const struct kselftest_build_opts *o = kp->o;

	if (o->progress) {
		tell(o, true, "building kselftest %s [%lu programs, %lds] %s", o->target,
		     kp->programs, (long)(time(NULL) - kp->t0), kp->cur);
	} else if (time(NULL) - kp->last >= 60) {
		kp->last = time(NULL);
		tell(o, false, "building kselftest %s: %lu programs, %lds", o->target, kp->programs,
		     (long)(kp->last - kp->t0));
	}
}

/* make, its output in log, with a progress line as the kernel build has. */
static int run_make(const struct kselftest_build_opts *o, char *const argv[], const char *log,
		    struct uerr *e)
{
	_cleanup_close_ int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct ksft_progress kp = { .o = o, .t0 = time(NULL), .last = time(NULL) };
	struct run_watch w = {
		.on_line = ksft_line, .tick = ksft_tick, .in_child = child_env, .ctx = &kp
	};
	int st;

	if (fd < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", log);
	st = run_argv_watched(argv, fd, &w);
	if (o->progress && o->say)
		o->say(o->say_ctx, true, NULL);
	if (st < 0) {
		errno = -st;
		return uerr_sys(e, EXIT_INFRA, "cannot run make");
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		_cleanup_free_ char *text = NULL;
		_cleanup_free_ char *lines = NULL;

		if (read_file(log, &text, NULL) == 0)
			lines = kselftest_error_lines(text, 3);
		return uerr_set(e, EXIT_INFRA, "kselftest %s does not build: %s (full log: %s)",
				o->target, lines ? lines : "make failed", log);
	}
	return 0;
}

int kselftest_build(const struct kselftest_build_opts *o, char **dir, bool *built, struct uerr *e)
{
	_cleanup_free_ char *root = cache_root();
	_cleanup_free_ char *cc = compiler_version();
	_cleanup_free_ char *tmp = NULL;
	_cleanup_free_ char *failed_log = NULL;
	_cleanup_free_ char *inputs = NULL;
	_cleanup_free_ char *log = NULL;
	struct hasher *h;
	char key[65];
	int r = -1;

	*dir = NULL;
	*built = false;
	inputs = xasprintf("%starget: %s\nrecipe: make -C tools/testing/selftests TARGETS=%s O=DIR "
			   "all, CFLAGS=%s LDFLAGS=%s\ncompiler: %s\n",
			   o->identity, o->target, o->target, KSFT_CFLAGS, KSFT_LDFLAGS, cc);
	h = hasher_new();
	hasher_add_str(h, inputs);
	hasher_final(h, key);
	*dir = xasprintf("%s/kselftest/%.16s", root, key);
	if (is_dir(*dir)) {
		/* Used now: a later prune may spare what was used lately. */
		utimensat(AT_FDCWD, *dir, NULL, 0);
		return 0;
	}
	{
		_cleanup_free_ char *base = xasprintf("%s/kselftest", root);

		sweep_stale_tmp(base);
	}
	tmp = tmp_name(*dir);
	failed_log = xasprintf("%s.failed.log", *dir);
	log = xasprintf("%s/build.log", tmp);
	if (rm_rf(tmp) < 0 || mkdir_p(tmp, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot create %s", tmp);
		goto out;
	}
	{
		_cleanup_free_ char *path = xasprintf("%s/inputs.txt", tmp);
		_cleanup_free_ char *c_arg = xasprintf("%s/tools/testing/selftests", o->tree);
		_cleanup_free_ char *t_arg = xasprintf("TARGETS=%s", o->target);
		_cleanup_free_ char *o_arg = xasprintf("O=%s/o", tmp);
		_cleanup_free_ char *j_arg = xasprintf("-j%d", o->jobs > 0 ? o->jobs : 1);
		_cleanup_free_ char *out = xasprintf("%s/o/kselftest/%s", tmp, o->target);
		_cleanup_free_ char *programs = xasprintf("%s/programs", tmp);
		char *argv[] = { "make", "-C", c_arg, t_arg, o_arg, j_arg, "all", NULL };
		int w = write_file_atomic(path, inputs, strlen(inputs));

		if (w < 0) {
			errno = -w;
			uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
			goto out;
		}
		/* On a terminal only: a failed build must stay one line in CI logs. */
		if (o->progress)
			tell(o, false, "building kselftest %s from %s", o->target, o->tree);
		scratch_push(tmp);
		w = run_make(o, argv, log, e);
		scratch_pop(tmp);
		if (w < 0) {
			/* Only the log stays, beside where the build would have gone. */
			if (rename(log, failed_log) == 0) {
				_cleanup_free_ char *msg = xstrdup(e->msg);
				char *at = strstr(msg, log);

				if (at)
					snprintf(e->msg, sizeof(e->msg), "%.*s%s%s",
						 (int)(at - msg), msg, failed_log,
						 at + strlen(log));
			}
			goto out;
		}
		if (rename(out, programs) < 0) {
			uerr_sys(e, EXIT_INFRA, "the build made no %s", out);
			goto out;
		}
	}
	{
		_cleanup_free_ char *o_dir = xasprintf("%s/o", tmp);

		rm_rf(o_dir);
	}
	unlink(failed_log);
	if (rename(tmp, *dir) < 0) {
		/* Another umlrun finished the same build first: use its. */
		if ((errno == EEXIST || errno == ENOTEMPTY) && is_dir(*dir)) {
			r = 0;
			goto out;
		}
		uerr_sys(e, EXIT_INFRA, "cannot install %s", *dir);
		goto out;
	}
	*built = true;
	r = 0;
out:
	rm_rf(tmp);
	if (r < 0) {
		free(*dir);
		*dir = NULL;
	}
	return r;
}

/* ---- the suite ------------------------------------------------------ */

static bool is_elf_program(const char *path)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	char magic[4];

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd >= 0 && read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);
}

/*
 * The programs the build made, as paths relative to base, in name order.
 * Scripts (TEST_PROGS) are left out: they are the targets' bash runners,
 * and the guest has no bash.
 */
static void find_programs(const char *base, const char *rel, char ***v, size_t *n)
{
	_cleanup_free_ char *dir = *rel ? xasprintf("%s/%s", base, rel) : xstrdup(base);
	struct dirent **names;
	int count = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < count; i++) {
		const char *name = names[i]->d_name;
		_cleanup_free_ char *sub = *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name);
		_cleanup_free_ char *path = xasprintf("%s/%s", base, sub);

		if (name[0] != '.') {
			if (is_dir(path)) {
				find_programs(base, sub, v, n);
			} else if (is_elf_program(path)) {
				*v = xrealloc(*v, (*n + 2) * sizeof(**v));
				(*v)[(*n)++] = steal_ptr(&sub);
				(*v)[*n] = NULL;
			}
		}
		free(names[i]);
	}
	if (count > 0)
		free(names);
}

/* Shell single quotes around s. */
static void sb_quoted(struct strbuf *sb, const char *s)
{
	sb_adds(sb, "'");
	for (; *s; s++)
		*s == '\'' ? sb_adds(sb, "'\\''") : sb_add(sb, s, 1);
	sb_adds(sb, "'");
}

/* The file name part: letters, digits, '.', '_' and '-'. */
static char *file_part(const char *rel)
{
	char *r = xstrdup(strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel);

	for (char *p = r; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    *p))
			*p = '_';
	return r;
}

/*
 * One test file. Its stdout is the result channel: the program's TAP
 * lines go there as a subtest (indented four spaces), its other lines as
 * diagnostics; its stderr stays on the console.
 */
static void wrapper_text(struct strbuf *sb, const char *target, const char *suite, const char *rel,
			 const struct ksft_how *how, const char *skip)
{
	_cleanup_free_ char *prog = file_part(rel);
	_cleanup_free_ char *dir = xstrdup(rel);
	char *slash = strrchr(dir, '/');

	if (slash)
		*slash = '\0';
	sb_printf(sb,
		  "#!/bin/sh\n"
		  "# Made by umlrun kselftest for %s/%s (runner/run/kselftest.c):\n"
		  "# kselftest's exit status 0 passes, 4 skips, anything else fails.\n"
		  "echo 'KTAP version 1'\n"
		  "prog=",
		  target, rel);
	sb_quoted(sb, prog);
	sb_adds(sb, "\n");
	if (skip) {
		/* A plan of 0: the reason reaches the run's own KTAP line and reports. */
		_cleanup_free_ char *line = xasprintf("1..0 # SKIP %s", skip);

		sb_adds(sb, "echo ");
		sb_quoted(sb, line);
		sb_adds(sb, "\nexit 0\n");
		return;
	}
	/*
	 * The programs expect to run in their own folder (some run
	 * ./sibling) and some create files there, but /suite is read-only:
	 * a writable folder of links to it.
	 */
	sb_printf(sb,
		  "work=\"${TMPDIR:-/tmp}/kselftest\"\n"
		  "mkdir -p \"$work\" && cd \"$work\" || exit 1\n"
		  "ln -s /suite/%s/bin/%s/* . || exit 1\n",
		  suite, slash ? dir : ".");
	sb_adds(sb, "echo '1..1'\n"
		    "rcfile=\"${TMPDIR:-/tmp}/kselftest.$$.rc\"\n"
		    "{\n");
	if (how->script) {
		sb_adds(sb, "\t{\n");
		sb_adds(sb, how->script);
		sb_adds(sb, "\t}");
	} else if (how->cost_ns) {
		/*
		 * It polls the clock: each system call takes simulated time
		 * while it runs (our kernel patch's knob), and after it the
		 * cost is what it was (--cpu-cost's, or none). Its output waits
		 * in a file until then: the cost is every process's, and the
		 * loop below that reads the output as it comes (a byte per
		 * system call) would add its calls to the program's sleeps
		 * (nsleep-lat, run by set-2038, measured 50 ms of latency).
		 */
		sb_printf(sb,
			  "\tknob=/sys/module/kernel/parameters/uml_syscall_cost_ns\n"
			  "\techo '# it polls the clock: each system call takes %lu ns of "
			  "simulated time while it runs (uml_syscall_cost_ns)'\n"
			  "\told=$(cat \"$knob\")\n"
			  "\tif echo %lu >\"$knob\"; then\n"
			  "\t\tout=\"${TMPDIR:-/tmp}/kselftest.$$.out\"\n"
			  "\t\t\"./$prog\"%s%s </dev/null >\"$out\"\n"
			  "\t\trc=$?\n"
			  "\t\techo \"$old\" >\"$knob\"\n"
			  "\t\tcat \"$out\"\n"
			  "\telse\n"
			  "\t\trc=1\n"
			  "\tfi\n"
			  "\t(exit $rc)",
			  how->cost_ns, how->cost_ns, how->args ? " " : "",
			  how->args ? how->args : "");
	} else {
		sb_adds(sb, "\t\"./$prog\"");
		if (how->args)
			sb_printf(sb, " %s", how->args);
	}
	sb_adds(sb,
		" </dev/null\n"
		"\techo $? >\"$rcfile\"\n"
		"} | {\n"
		/*
		 * A program that prints a second TAP document (one per run
		 * of a sub-program: change_skew, clocksource-switch) would
		 * end the subtest for a KTAP parser: from there on its lines
		 * are diagnostics, as the kernel's own runner makes them all.
		 */
		"docs=0\n"
		"while IFS= read -r line || [ -n \"$line\" ]; do\n"
		"\tcase $line in\n"
		"\t'TAP version '* | 'KTAP version '*) docs=$((docs + 1)) ;;\n"
		"\tesac\n"
		"\tif [ \"$docs\" -gt 1 ]; then\n"
		"\t\tprintf '    # %s\\n' \"$line\"\n"
		"\t\tcontinue\n"
		"\tfi\n"
		"\tcase $line in\n"
		"\t'TAP version '* | 'KTAP version '* | 1..* | 'ok '* | 'not ok '* | '#'*)\n"
		"\t\tprintf '    %s\\n' \"$line\" ;;\n"
		"\t*) printf '    # %s\\n' \"$line\" ;;\n"
		"\tesac\n"
		"done\n"
		"}\n"
		"rc=$(cat \"$rcfile\")\n"
		"case $rc in\n"
		"0) echo \"ok 1 $prog\" ;;\n"
		"4) echo \"ok 1 $prog # SKIP the program skipped itself (exit 4, its output says "
		"why)\" ;;\n"
		"*)\n"
		"\techo \"# $prog exited with status $rc\"\n"
		"\techo \"not ok 1 $prog\"\n"
		"\texit 1\n"
		"\t;;\n"
		"esac\n");
}

static int write_text(const char *path, struct strbuf *sb, mode_t mode, struct uerr *e)
{
	int r = write_file_atomic(path, sb->buf ? sb->buf : "", sb->len);

	sb_release(sb);
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
	}
	if (chmod(path, mode) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot chmod %s", path);
	return 0;
}

int kselftest_suite(const char *suites, const char *target, const char *tree, const char *dir,
		    enum tt_mode mode, const char *kconfig, bool cost, bool breaker, struct uerr *e)
{
	_cleanup_free_ char *name = kselftest_suite_name(target);
	_cleanup_free_ char *suite = xasprintf("%s/%s", suites, name);
	_cleanup_free_ char *bin = xasprintf("%s/bin", suite);
	_cleanup_free_ char *programs = xasprintf("%s/programs", dir);
	_cleanup_free_ char *settings_path =
	    xasprintf("%s/tools/testing/selftests/%s/settings", tree, target);
	_cleanup_free_ char *settings = NULL;
	struct strbuf sb = { 0 };
	char **progs = NULL;
	size_t n = 0;
	long timeout;
	int r = -1;

	if (read_file(settings_path, &settings, NULL) < 0)
		settings = NULL;
	timeout = kselftest_timeout(settings);
	if (timeout < 0)
		return uerr_set(e, EXIT_INFRA, "%s: timeout= is not a number of seconds",
				settings_path);
	if (mkdir_p(suite, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", suite);
	{
		/* Hard links cost nothing; a copy when the cache is on another file system. */
		_cleanup_free_ char *from = xasprintf("%s/.", programs);
		char *ln[] = { "cp", "-al", from, bin, NULL };
		char *cp[] = { "cp", "-a", from, bin, NULL };
		_cleanup_close_ int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (run_argv(ln, null_fd) != 0 && (rm_rf(bin), run_argv(cp, null_fd) != 0))
			return uerr_set(e, EXIT_INFRA, "cannot copy %s to %s", programs, bin);
	}
	find_programs(bin, "", &progs, &n);
	if (!n) {
		free(progs);
		return uerr_set(e, EXIT_INFRA,
				"kselftest %s built no program (%s holds none); nothing to run",
				target, programs);
	}
	sb_printf(&sb,
		  "# From %s (kselftest's timeout=, here in simulated seconds;\n"
		  "# its 0, no limit, is %d)\ntimeout=%ld\n",
		  settings ? settings_path : "no settings file: kselftest's default",
		  KSELFTEST_TIMEOUT_NONE, timeout);
	{
		_cleanup_free_ char *path = xasprintf("%s/settings", suite);

		if (write_text(path, &sb, 0644, e) < 0)
			goto out;
	}
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *prog = file_part(progs[i]);
		_cleanup_free_ char *path = xasprintf("%s/t%04zu-%s.sh", suite, i + 1, prog);
		struct ksft_how how;
		const char *skip = kselftest_rule(target, prog, mode, kconfig, cost, breaker, &how);

		wrapper_text(&sb, target, name, progs[i], &how, skip);
		if (write_text(path, &sb, 0755, e) < 0)
			goto out;
	}
	r = 0;
out:
	strv_free(progs);
	return r;
}

int kselftest_suites_make(char **dir, struct uerr *e)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/umlrun.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	_cleanup_free_ char *owner = NULL;
	_cleanup_free_ char *pid = owner_text();

	*dir = NULL;
	if (!mkdtemp(tmpl)) {
		free(tmpl);
		return uerr_sys(e, EXIT_INFRA, "cannot create a folder for the kselftest suites");
	}
	/* Named and owned like a stage: swept if this umlrun is SIGKILLed (boot.c). */
	owner = xasprintf("%s/owner", tmpl);
	if (write_file_atomic(owner, pid, strlen(pid)) < 0 || chmod(tmpl, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot write in %s", tmpl);
		rm_rf(tmpl);
		free(tmpl);
		return -1;
	}
	*dir = tmpl;
	return 0;
}
