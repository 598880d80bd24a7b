/*
 * timerprobe - exercise the guest's clocks and timers and measure them.
 *
 * umlrun runs its guests under User-Mode Linux time travel (docs/timers.md):
 * in inf-cpu mode CPU work takes no simulated time and every timer fires
 * exactly when the guest next idles, so timer behaviour is deterministic.
 * This tool is what the timer suite (testsuites/timers/) uses to check that
 * claim: each command drives one kernel timer interface and prints what it
 * measured, and the shell tests judge the numbers.
 *
 *   timerprobe [--slack=DUR] COMMAND [ARGS...]
 *
 *   now                              read REALTIME, MONOTONIC, BOOTTIME
 *   clocks N                         N rounds of reads: monotonicity, steps
 *   nanosleep DUR                    nanosleep(2)
 *   clock-nanosleep CLOCK rel|abs DUR
 *   timerfd CLOCK rel|abs DUR        one-shot timerfd
 *   timerfd-periodic INTERVAL COUNT [LATE]
 *                                    periodic timerfd on a fixed grid; the
 *                                    reader sleeps LATE before each read
 *   cancel-on-set JUMP [WAIT [settimeofday]]
 *                                    REALTIME ABSTIME timerfds WAIT ahead,
 *                                    one with TFD_TIMER_CANCEL_ON_SET, then
 *                                    the clock jumps by JUMP (signed)
 *   jump DUR [settimeofday]          move REALTIME by DUR (signed)
 *   settime SECONDS [settimeofday]   set REALTIME to SECONDS since the epoch
 *   set-offset NS                    set REALTIME to MONOTONIC + NS (undoes
 *                                    jumps exactly: NS is realtime_ns -
 *                                    monotonic_ns of an earlier "now")
 *   posix-timer signal|thread INTERVAL COUNT [LATE]
 *                                    periodic timer_create() timer
 *   itimer DUR [COUNT]               setitimer(ITIMER_REAL), COUNT periods
 *   alarm SECONDS                    alarm(2)
 *   timeout poll|ppoll|select|pselect|epoll|epoll-pwait2 DUR
 *                                    the timeout of a wait on no events
 *   futex DUR [abs]                  FUTEX_WAIT that times out
 *   threads N [ROUNDS [STEP]]        N threads sleeping to interleaved
 *                                    deadlines; logs the wakeup order
 *   order N SEED [SPAN [timerfd|posix]]
 *                                    N timers with pseudo-random expiries
 *                                    within SPAN: did they fire in order?
 *   spin N                           N iterations of CPU work
 *   race [ITERS [fifo|cfs]]          two threads race on a counter while a
 *                                    timer signal interrupts them
 *   tickrace [ITERS]                 two threads on 1.000 and 1.003 ms timerfds
 *                                    race on a counter (for --cpu-cost)
 *
 * A DUR is an integer with an optional unit: ns (the default), us, ms, s,
 * m, h or d ("90s", "1h", "-50s").  CLOCK is realtime, monotonic or
 * boottime.
 *
 * Output: key=value lines on stdout.  Keys ending in _ns are integer
 * nanoseconds; keys ending in _s are seconds with 9 decimals.  Elapsed
 * times are measured on CLOCK_MONOTONIC unless the key says otherwise.
 * "late_ns" is elapsed minus requested.  Under time travel every clock
 * read advances the guest clock by 256 ns (arch/um/kernel/time.c), so the
 * probe reads the clock as little as it can inside a measurement.
 *
 * Timer slack: nanosleep, clock_nanosleep, futex, poll, select and epoll
 * let the kernel fire late by the task's timer slack (50 us by default;
 * poll/select/epoll use 0.1% of the timeout, at most 100 ms, at least the
 * slack).  Commands that are subject to it print slack_ns; --slack sets it
 * with prctl(PR_SET_TIMERSLACK) first (1 ns is the smallest).  timerfd,
 * POSIX timers and itimers have no slack.
 *
 * Exit codes: 0 the measurement ran (whatever it found: the tests judge),
 * 1 a system call failed, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define DIE_PROG "timerprobe"
#include "../die.h"

#define NSEC_PER_SEC  ((int64_t)1000000000)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- arguments ----------------------------------------------------------- */

static int64_t parse_int(const char *what, const char *s, const char **rest)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno)
		usage_error("bad %s '%s'", what, s);
	*rest = end;
	return v;
}

static int64_t arg_int(const char *what, const char *s, int64_t min, int64_t max)
{
	const char *rest;
	int64_t v = parse_int(what, s, &rest);

	if (*rest || v < min || v > max)
		usage_error("bad %s '%s' (%" PRId64 "..%" PRId64 ")", what, s, min, max);
	return v;
}

/* A duration "N[ns|us|ms|s|m|h|d]" in nanoseconds, within [min, max]. */
static int64_t arg_dur(const char *what, const char *s, int64_t min, int64_t max)
{
	static const struct {
		const char *suffix;
		int64_t ns;
	} units[] = {
		{ "", 1 },
		{ "ns", 1 },
		{ "us", 1000 },
		{ "ms", 1000000 },
		{ "s", NSEC_PER_SEC },
		{ "m", 60 * NSEC_PER_SEC },
		{ "h", 3600 * NSEC_PER_SEC },
		{ "d", 86400 * NSEC_PER_SEC },
	};
	const char *rest;
	int64_t v = parse_int(what, s, &rest);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(rest, units[i].suffix))
			continue;
		if (v > INT64_MAX / units[i].ns || v < -(INT64_MAX / units[i].ns))
			break;
		v *= units[i].ns;
		if (v < min || v > max)
			break;
		return v;
	}
	usage_error("bad %s '%s' (a duration such as 250ms or 2h, within "
		    "%" PRId64 "..%" PRId64 " ns)",
		    what, s, min, max);
}

static clockid_t arg_clock(const char *s)
{
	if (!strcmp(s, "realtime"))
		return CLOCK_REALTIME;
	if (!strcmp(s, "monotonic"))
		return CLOCK_MONOTONIC;
	if (!strcmp(s, "boottime"))
		return CLOCK_BOOTTIME;
	usage_error("bad clock '%s' (realtime, monotonic or boottime)", s);
}

/* Returns the index of s in the NULL-terminated list words. */
static int arg_word(const char *what, const char *s, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	usage_error("bad %s '%s'", what, s);
}

static bool arg_abs(const char *s)
{
	static const char *const modes[] = { "rel", "abs", NULL };

	return arg_word("mode", s, modes) == 1;
}

/* ---- clocks and output --------------------------------------------------- */

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static struct timespec ns_ts(int64_t ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	if (ts.tv_nsec < 0) {
		ts.tv_sec--;
		ts.tv_nsec += NSEC_PER_SEC;
	}
	return ts;
}

static int64_t now(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		die_sys("clock_gettime");
	return ts_ns(&ts);
}

static int64_t mono(void)
{
	return now(CLOCK_MONOTONIC);
}

static void put_int(const char *key, int64_t v)
{
	printf("%s=%" PRId64 "\n", key, v);
}

static void put_str(const char *key, const char *v)
{
	printf("%s=%s\n", key, v);
}

static void put_sec(const char *key, int64_t ns)
{
	int64_t a = ns < 0 ? -ns : ns;

	printf("%s=%s%" PRId64 ".%09" PRId64 "\n", key, ns < 0 ? "-" : "", a / NSEC_PER_SEC,
	       a % NSEC_PER_SEC);
}

static int64_t slack_ns(void)
{
	int r = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);

	if (r < 0)
		die_sys("prctl(PR_GET_TIMERSLACK)");
	return r;
}

/* The three lines every sleep-like command prints. */
static void put_sleep(int64_t requested, int64_t elapsed)
{
	put_int("requested_ns", requested);
	put_int("elapsed_ns", elapsed);
	put_int("late_ns", elapsed - requested);
}

/* splitmix64: small, good enough, and the same on every machine. */
static uint64_t prng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void shuffle(int *v, int n, uint64_t *state)
{
	int i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (int)(prng_next(state) % (uint64_t)(i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* FNV-1a over a sequence of ints: a short fingerprint of an order. */
static uint64_t fnv_ints(const int *v, int n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < n; i++) {
		h ^= (uint32_t)v[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void sleep_on(clockid_t clk, int64_t ns)
{
	struct timespec ts = ns_ts(ns);
	int err;

	while ((err = clock_nanosleep(clk, 0, &ts, &ts)))
		if (err != EINTR)
			die_err(err, "clock_nanosleep");
}

static void sleep_rel(int64_t ns)
{
	sleep_on(CLOCK_MONOTONIC, ns);
}

static void sleep_abs(clockid_t clk, int64_t deadline)
{
	struct timespec ts = ns_ts(deadline);
	int err;

	while ((err = clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL)))
		if (err != EINTR)
			die_err(err, "clock_nanosleep");
}

static void block_signal(int sig, sigset_t *set)
{
	int err;

	sigemptyset(set);
	sigaddset(set, sig);
	err = pthread_sigmask(SIG_BLOCK, set, NULL);
	if (err)
		die_err(err, "pthread_sigmask");
}

static void wait_signal(const sigset_t *set, siginfo_t *si)
{
	while (sigwaitinfo(set, si) < 0)
		if (errno != EINTR)
			die_sys("sigwaitinfo");
}

/* Sets REALTIME to ns, with clock_settime(2) or settimeofday(2). */
static void set_realtime(int64_t ns, bool use_settimeofday)
{
	struct timespec ts = ns_ts(ns);
	struct timeval tv = { ts.tv_sec, ts.tv_nsec / 1000 };

	if (use_settimeofday) {
		if (settimeofday(&tv, NULL))
			die_sys("settimeofday");
	} else if (clock_settime(CLOCK_REALTIME, &ts)) {
		die_sys("clock_settime(CLOCK_REALTIME)");
	}
}

static bool arg_settimeofday(int argc, char **argv, int i)
{
	static const char *const apis[] = { "clock_settime", "settimeofday", NULL };

	return argc > i && arg_word("api", argv[i], apis) == 1;
}

/*
 * Raises a soft limit to want; past the hard limit only with privilege
 * (CAP_SYS_RESOURCE), else to the hard limit with a warning: the caller
 * then fails on its own, naming the call that ran out.
 */
static void raise_limit(int resource, const char *name, rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl))
		die_sys("getrlimit(%s)", name);
	if (rl.rlim_cur >= want)
		return;
	if (rl.rlim_max < want) {
		struct rlimit more = { want, want };

		if (!setrlimit(resource, &more))
			return;
		warn("%s is capped at %llu, %llu wanted", name, (unsigned long long)rl.rlim_max,
		     (unsigned long long)want);
	}
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	if (setrlimit(resource, &rl))
		die_sys("setrlimit(%s)", name);
}

/* ---- commands ------------------------------------------------------------ */

static int cmd_now(int argc, char **argv)
{
	struct timespec res;
	int64_t r, m, b;

	(void)argc;
	(void)argv;
	r = now(CLOCK_REALTIME);
	m = now(CLOCK_MONOTONIC);
	b = now(CLOCK_BOOTTIME);
	if (clock_getres(CLOCK_MONOTONIC, &res))
		die_sys("clock_getres");
	put_int("realtime_ns", r);
	put_int("monotonic_ns", m);
	put_int("boottime_ns", b);
	put_sec("realtime_s", r);
	put_sec("monotonic_s", m);
	put_sec("boottime_s", b);
	put_int("resolution_ns", ts_ns(&res));
	put_int("slack_ns", slack_ns());
	return 0;
}

/*
 * Reads MONOTONIC, BOOTTIME, REALTIME, MONOTONIC in each round.  BOOTTIME
 * must lie between the two monotonic reads around it (no suspend happens)
 * and MONOTONIC must never decrease.  REALTIME - MONOTONIC lies between
 * r - m1 and r - m0 in each round; if it is constant (nobody sets the
 * clock) those windows overlap: realtime_offset_window_ns >= 0.  The step
 * from one round to the next is one clock read; steps longer than the
 * shortest are rounds that something else (an interrupt, another task)
 * ran in between.
 */
static int cmd_clocks(int argc, char **argv)
{
	int64_t n = arg_int("count", argv[1], 1, 100000000);
	int64_t prev, m0, b, r, m1, step, step_min = INT64_MAX, step_max = 0;
	int64_t at_min = 0, off_lo = INT64_MIN, off_hi = INT64_MAX;
	int64_t backwards = 0, unbracketed = 0, i;

	(void)argc;
	prev = mono();
	for (i = 0; i < n; i++) {
		m0 = mono();
		b = now(CLOCK_BOOTTIME);
		r = now(CLOCK_REALTIME);
		m1 = mono();
		step = m0 - prev;
		if (step < 0 || m1 < m0)
			backwards++;
		if (step < step_min) {
			step_min = step;
			at_min = 0;
		}
		if (step == step_min)
			at_min++;
		if (step > step_max)
			step_max = step;
		if (b < m0 || b > m1)
			unbracketed++;
		if (r - m1 > off_lo)
			off_lo = r - m1;
		if (r - m0 < off_hi)
			off_hi = r - m0;
		prev = m1;
	}
	put_int("rounds", n);
	put_int("monotonic_backwards", backwards);
	put_int("step_min_ns", step_min);
	put_int("step_max_ns", step_max);
	put_int("steps_over_min", n - at_min);
	put_int("boottime_outside_monotonic", unbracketed);
	put_int("realtime_minus_monotonic_ns", off_hi);
	put_int("realtime_offset_window_ns", off_hi - off_lo);
	return 0;
}

static int cmd_nanosleep(int argc, char **argv)
{
	int64_t req = arg_dur("duration", argv[1], 0, INT64_MAX / 2);
	struct timespec ts = ns_ts(req);
	int64_t t0, t1;

	(void)argc;
	t0 = mono();
	while (nanosleep(&ts, &ts))
		if (errno != EINTR)
			die_sys("nanosleep");
	t1 = mono();
	put_sleep(req, t1 - t0);
	put_int("slack_ns", slack_ns());
	return 0;
}

static int cmd_clock_nanosleep(int argc, char **argv)
{
	clockid_t clk = arg_clock(argv[1]);
	bool abs = arg_abs(argv[2]);
	int64_t req = arg_dur("duration", argv[3], 0, INT64_MAX / 4);
	int64_t c0, m0, c1, m1;

	(void)argc;
	m0 = mono();
	c0 = now(clk);
	if (abs)
		sleep_abs(clk, c0 + req);
	else
		sleep_on(clk, req);
	c1 = now(clk);
	m1 = mono();
	put_sleep(req, c1 - c0);
	put_int("elapsed_monotonic_ns", m1 - m0);
	put_int("slack_ns", slack_ns());
	return 0;
}

static int timerfd_new(clockid_t clk, int flags)
{
	int fd = timerfd_create(clk, TFD_CLOEXEC | flags);

	if (fd < 0)
		die_sys("timerfd_create");
	return fd;
}

static void timerfd_arm(int fd, int flags, int64_t value, int64_t interval)
{
	struct itimerspec its = { ns_ts(interval), ns_ts(value) };

	if (timerfd_settime(fd, flags, &its, NULL))
		die_sys("timerfd_settime");
}

/* Blocks until the timer expired; returns the expirations, -errno if the
 * read failed with ECANCELED. */
static int64_t timerfd_wait(int fd)
{
	uint64_t n;
	ssize_t r;

	while ((r = read(fd, &n, sizeof(n))) < 0) {
		if (errno == ECANCELED)
			return -ECANCELED;
		if (errno != EINTR)
			die_sys("read(timerfd)");
	}
	if (r != sizeof(n))
		die("short read from timerfd");
	return (int64_t)n;
}

static int cmd_timerfd(int argc, char **argv)
{
	clockid_t clk = arg_clock(argv[1]);
	bool abs = arg_abs(argv[2]);
	int64_t req = arg_dur("duration", argv[3], 1, INT64_MAX / 4);
	int64_t c0, c1, n;
	int fd = timerfd_new(clk, 0);

	(void)argc;
	c0 = now(clk);
	timerfd_arm(fd, abs ? TFD_TIMER_ABSTIME : 0, abs ? c0 + req : req, 0);
	n = timerfd_wait(fd);
	c1 = now(clk);
	put_int("expirations", n);
	put_sleep(req, c1 - c0);
	close(fd);
	return 0;
}

/*
 * The timer runs on the grid first + k * interval (armed with an absolute
 * first expiry, so no arming latency enters it).  After every read the
 * probe compares the time with the grid point of the newest expiration it
 * has counted: with a prompt reader that lateness stays at a few clock
 * reads however long the run, which is what "no drift" means.
 */
static int cmd_timerfd_periodic(int argc, char **argv)
{
	int64_t interval = arg_dur("interval", argv[1], 1000, INT64_MAX / 4);
	int64_t count = arg_int("count", argv[2], 1, 100000000);
	int64_t late = argc > 3 ? arg_dur("lateness", argv[3], 0, INT64_MAX / 4) : 0;
	int64_t first, total = 0, reads = 0, multi = 0, max_per = 0;
	int64_t t, n, lag = 0, max_lag = 0, start;
	struct itimerspec cur;
	int fd = timerfd_new(CLOCK_MONOTONIC, 0);

	start = mono();
	first = start + interval;
	timerfd_arm(fd, TFD_TIMER_ABSTIME, first, interval);
	while (total < count) {
		if (late)
			sleep_rel(late);
		n = timerfd_wait(fd);
		t = mono();
		total += n;
		reads++;
		if (n > 1)
			multi++;
		if (n > max_per)
			max_per = n;
		lag = t - (first + (total - 1) * interval);
		if (lag > max_lag)
			max_lag = lag;
	}
	t = mono();
	if (timerfd_gettime(fd, &cur))
		die_sys("timerfd_gettime");
	put_int("interval_ns", interval);
	put_int("expirations", total);
	put_int("reads", reads);
	put_int("reads_with_overrun", multi);
	put_int("max_expirations_per_read", max_per);
	put_int("last_lag_ns", lag);
	put_int("max_lag_ns", max_lag);
	/* Where the timer says its next expiry is, against the grid. */
	put_int("next_expiry_offset_ns", t + ts_ns(&cur.it_value) - (first + total * interval));
	put_int("elapsed_ns", t - start);
	close(fd);
	return 0;
}

/*
 * Two REALTIME timerfds armed at the same absolute deadline WAIT ahead,
 * A with TFD_TIMER_CANCEL_ON_SET and B without; then REALTIME jumps by
 * JUMP.  A read of A must fail with ECANCELED; A is re-armed to the same
 * deadline, and both must then fire WAIT - JUMP of monotonic time after
 * the jump (at once if that is negative).  REALTIME is put back (to where
 * it would be without the jump) at the end.
 */
static int cmd_cancel_on_set(int argc, char **argv)
{
	int64_t jump = arg_dur("jump", argv[1], -INT64_MAX / 4, INT64_MAX / 4);
	int64_t wait = argc > 2 ? arg_dur("wait", argv[2], 1, INT64_MAX / 4) : 100 * NSEC_PER_SEC;
	bool stod = arg_settimeofday(argc, argv, 3);
	int64_t offset, deadline, m1, r1, ra, rb, fa, fb;
	int a = timerfd_new(CLOCK_REALTIME, 0);
	int b = timerfd_new(CLOCK_REALTIME, 0);

	offset = now(CLOCK_REALTIME) - mono();
	deadline = now(CLOCK_REALTIME) + wait;
	timerfd_arm(a, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, deadline, 0);
	timerfd_arm(b, TFD_TIMER_ABSTIME, deadline, 0);

	set_realtime(now(CLOCK_REALTIME) + jump, stod);
	m1 = mono();
	r1 = now(CLOCK_REALTIME);

	ra = timerfd_wait(a);
	put_int("canceled", ra == -ECANCELED);
	timerfd_arm(a, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, deadline, 0);
	ra = timerfd_wait(a);
	fa = mono() - m1;
	rb = timerfd_wait(b);
	fb = mono() - m1;

	put_int("jump_ns", jump);
	put_int("wait_ns", wait);
	put_int("expected_ns", deadline - r1 > 0 ? deadline - r1 : 0);
	put_int("rearmed_expirations", ra);
	put_int("rearmed_fired_after_ns", fa);
	put_int("plain_expirations", rb);
	put_int("plain_fired_after_ns", fb);
	set_realtime(mono() + offset, stod);
	put_int("realtime_restored", 1);
	close(a);
	close(b);
	return 0;
}

static int cmd_jump(int argc, char **argv)
{
	int64_t d = arg_dur("jump", argv[1], -INT64_MAX / 4, INT64_MAX / 4);
	bool stod = arg_settimeofday(argc, argv, 2);
	int64_t before = now(CLOCK_REALTIME);

	set_realtime(before + d, stod);
	put_int("realtime_before_ns", before);
	put_int("realtime_after_ns", now(CLOCK_REALTIME));
	return 0;
}

static int cmd_settime(int argc, char **argv)
{
	int64_t s = arg_int("seconds", argv[1], 0, INT64_MAX / NSEC_PER_SEC);
	bool stod = arg_settimeofday(argc, argv, 2);

	set_realtime(s * NSEC_PER_SEC, stod);
	put_int("realtime_ns", now(CLOCK_REALTIME));
	return 0;
}

static int cmd_set_offset(int argc, char **argv)
{
	int64_t off = arg_int("offset", argv[1], 0, INT64_MAX / 2);

	(void)argc;
	set_realtime(mono() + off, false);
	put_int("realtime_ns", now(CLOCK_REALTIME));
	return 0;
}

/* State shared with the SIGEV_THREAD callback of posix-timer. */
static struct {
	timer_t timer;
	sem_t fired;
	atomic_llong expirations;
	atomic_llong overruns;
	atomic_int other_thread;
	pthread_t main_thread;
} notify;

static void on_timer_thread(union sigval v)
{
	int ov = timer_getoverrun(notify.timer);

	(void)v;
	if (ov < 0)
		die_sys("timer_getoverrun");
	atomic_fetch_add(&notify.expirations, 1 + ov);
	atomic_fetch_add(&notify.overruns, ov);
	if (!pthread_equal(pthread_self(), notify.main_thread))
		atomic_store(&notify.other_thread, 1);
	if (sem_post(&notify.fired))
		die_sys("sem_post");
}

static timer_t posix_timer_new(struct sigevent *sev)
{
	timer_t t;

	if (timer_create(CLOCK_MONOTONIC, sev, &t))
		die_sys("timer_create");
	return t;
}

static void posix_timer_arm(timer_t t, int64_t abs_value, int64_t interval)
{
	struct itimerspec its = { ns_ts(interval), ns_ts(abs_value) };

	if (timer_settime(t, TIMER_ABSTIME, &its, NULL))
		die_sys("timer_settime");
}

/*
 * A periodic CLOCK_MONOTONIC timer on the grid start + k * INTERVAL.  With
 * SIGEV_SIGNAL the probe takes the signals with sigwaitinfo(), sleeping
 * LATE before each: expirations that happen while the signal is pending
 * are counted by timer_getoverrun() (and si_overrun), not queued.
 */
static int cmd_posix_timer(int argc, char **argv)
{
	static const char *const kinds[] = { "signal", "thread", NULL };
	bool thread = arg_word("notification", argv[1], kinds) == 1;
	int64_t interval = arg_dur("interval", argv[2], 1000, INT64_MAX / 4);
	int64_t count = arg_int("count", argv[3], 1, 100000000);
	int64_t late = argc > 4 ? arg_dur("lateness", argv[4], 0, INT64_MAX / 4) : 0;
	int64_t total = 0, overruns = 0, signals = 0, max_ov = 0, start, t;
	bool si_agrees = true;
	struct sigevent sev = { 0 };
	siginfo_t si;
	sigset_t set;
	int ov;

	if (thread && late)
		usage_error("LATE only applies to 'signal'");
	start = mono();
	if (thread) {
		if (sem_init(&notify.fired, 0, 0))
			die_sys("sem_init");
		notify.main_thread = pthread_self();
		sev.sigev_notify = SIGEV_THREAD;
		sev.sigev_notify_function = on_timer_thread;
		notify.timer = posix_timer_new(&sev);
		posix_timer_arm(notify.timer, start + interval, interval);
		while (atomic_load(&notify.expirations) < count) {
			while (sem_wait(&notify.fired))
				if (errno != EINTR)
					die_sys("sem_wait");
			signals++;
		}
		t = mono();
		if (timer_delete(notify.timer))
			die_sys("timer_delete");
		total = atomic_load(&notify.expirations);
		overruns = atomic_load(&notify.overruns);
		put_int("callback_in_other_thread", atomic_load(&notify.other_thread));
	} else {
		timer_t tm;

		block_signal(SIGRTMIN, &set);
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGRTMIN;
		sev.sigev_value.sival_int = 42;
		tm = posix_timer_new(&sev);
		posix_timer_arm(tm, start + interval, interval);
		while (total < count) {
			if (late)
				sleep_rel(late);
			wait_signal(&set, &si);
			if (si.si_code != SI_TIMER || si.si_value.sival_int != 42)
				die("unexpected signal (code %d)", si.si_code);
			ov = timer_getoverrun(tm);
			if (ov < 0)
				die_sys("timer_getoverrun");
			if (ov != si.si_overrun)
				si_agrees = false;
			if (ov > max_ov)
				max_ov = ov;
			signals++;
			overruns += ov;
			total += 1 + ov;
		}
		t = mono();
		if (timer_delete(tm))
			die_sys("timer_delete");
		put_int("max_overrun", max_ov);
		put_int("si_overrun_agrees", si_agrees);
	}
	put_int("interval_ns", interval);
	put_int("notifications", signals);
	put_int("overruns", overruns);
	put_int("expirations", total);
	/* The newest expiration counted is total - 1 grid steps after the first. */
	put_int("last_lag_ns", t - (start + total * interval));
	put_int("elapsed_ns", t - start);
	return 0;
}

static int cmd_itimer(int argc, char **argv)
{
	int64_t d = arg_dur("duration", argv[1], 1000, INT64_MAX / 4);
	int64_t count = argc > 2 ? arg_int("count", argv[2], 1, 100000000) : 1;
	struct itimerval it = { { 0, 0 }, { d / NSEC_PER_SEC, (d % NSEC_PER_SEC) / 1000 } };
	int64_t t0, t1, i;
	siginfo_t si;
	sigset_t set;

	if (d % 1000)
		usage_error("itimer durations are whole microseconds");
	if (count > 1)
		it.it_interval = it.it_value;
	block_signal(SIGALRM, &set);
	t0 = mono();
	if (setitimer(ITIMER_REAL, &it, NULL))
		die_sys("setitimer");
	for (i = 0; i < count; i++)
		wait_signal(&set, &si);
	t1 = mono();
	put_int("signals", count);
	put_sleep(d * count, t1 - t0);
	return 0;
}

static int cmd_alarm(int argc, char **argv)
{
	int64_t s = arg_int("seconds", argv[1], 1, UINT_MAX);
	int64_t t0, t1;
	siginfo_t si;
	sigset_t set;

	(void)argc;
	block_signal(SIGALRM, &set);
	t0 = mono();
	alarm((unsigned int)s);
	wait_signal(&set, &si);
	t1 = mono();
	put_sleep(s * NSEC_PER_SEC, t1 - t0);
	return 0;
}

/* The slack fs/select.c gives poll, select and epoll (nice 0 tasks). */
static int64_t select_slack(int64_t timeout)
{
	int64_t s = timeout / 1000, task = slack_ns();

	if (s > 100000000)
		s = 100000000;
	return s < task ? task : s;
}

/*
 * Waits on nothing with the API's own timeout.  poll and epoll_wait take
 * milliseconds and select microseconds: DUR must be a whole number of them.
 */
static int cmd_timeout(int argc, char **argv)
{
	static const char *const apis[] = { "poll",  "ppoll",	     "select", "pselect",
					    "epoll", "epoll-pwait2", NULL };
	int api = arg_word("api", argv[1], apis);
	int64_t d = arg_dur("duration", argv[2], 0, INT64_MAX / 4);
	int64_t unit = api == 0 || api == 4 ? 1000000 : api == 2 ? 1000 : 1;
	struct timespec ts = ns_ts(d);
	struct timeval tv = { ts.tv_sec, ts.tv_nsec / 1000 };
	struct epoll_event ev;
	int64_t t0, t1;
	int r = 0, ep = -1;

	(void)argc;
	if (d % unit || (unit > 1 && d / unit > INT_MAX))
		usage_error("%s timeouts are whole %s", apis[api],
			    unit == 1000 ? "microseconds" : "milliseconds");
	if (api >= 4) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		if (ep < 0)
			die_sys("epoll_create1");
	}
	t0 = mono();
	switch (api) {
	case 0:
		r = poll(NULL, 0, (int)(d / unit));
		break;
	case 1:
		r = ppoll(NULL, 0, &ts, NULL);
		break;
	case 2:
		r = select(0, NULL, NULL, NULL, &tv);
		break;
	case 3:
		r = pselect(0, NULL, NULL, NULL, &ts, NULL);
		break;
	case 4:
		r = epoll_wait(ep, &ev, 1, (int)(d / unit));
		break;
	case 5:
		r = epoll_pwait2(ep, &ev, 1, &ts, NULL);
		break;
	}
	t1 = mono();
	if (r < 0)
		die_sys("%s", apis[api]);
	if (r > 0)
		die("%s reported %d events on nothing", apis[api], r);
	put_sleep(d, t1 - t0);
	put_int("slack_ns", select_slack(d));
	if (ep >= 0)
		close(ep);
	return 0;
}

static int cmd_futex(int argc, char **argv)
{
	int64_t d = arg_dur("duration", argv[1], 0, INT64_MAX / 4);
	bool abs = argc > 2 && arg_abs(argv[2]);
	uint32_t word = 0;
	struct timespec ts;
	int64_t t0, t1;
	long r;

	t0 = mono();
	if (abs) {
		/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time. */
		ts = ns_ts(t0 + d);
		r = syscall(SYS_futex, &word, FUTEX_WAIT_BITSET_PRIVATE, 0, &ts, NULL,
			    FUTEX_BITSET_MATCH_ANY);
	} else {
		ts = ns_ts(d);
		r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
	}
	t1 = mono();
	if (r == 0 || errno != ETIMEDOUT)
		die_sys("futex wait did not time out");
	put_int("timed_out", 1);
	put_sleep(d, t1 - t0);
	put_int("slack_ns", slack_ns());
	return 0;
}

/* threads: every thread logs each of its wakeups here. */
struct wakeup {
	int thread;
	int64_t deadline;
	int64_t woke;
};

struct sleeper {
	pthread_t tid;
	int id;
	int rank; /* its place in each round's deadline order */
	int rounds;
	int nthreads;
	int64_t base, step;
	struct wakeup *log;
	atomic_int *nlog;
};

static void *sleeper_run(void *arg)
{
	struct sleeper *s = arg;
	int64_t deadline, woke;
	int k, i;

	for (k = 0; k < s->rounds; k++) {
		deadline = s->base + ((int64_t)k * s->nthreads + s->rank + 1) * s->step;
		sleep_abs(CLOCK_MONOTONIC, deadline);
		woke = mono();
		i = atomic_fetch_add(s->nlog, 1);
		s->log[i] = (struct wakeup){ s->id, deadline, woke };
	}
	return NULL;
}

/*
 * N threads each sleep ROUNDS times to absolute deadlines; the deadlines of
 * all threads interleave (a seeded shuffle gives every thread its rank in
 * each round) STEP apart.  The log is in the order the threads ran after
 * waking; it must be the deadline order.
 */
static int cmd_threads(int argc, char **argv)
{
	int n = (int)arg_int("threads", argv[1], 1, 2000);
	int rounds = argc > 2 ? (int)arg_int("rounds", argv[2], 1, 10000) : 3;
	int64_t step = argc > 3 ? arg_dur("step", argv[3], 1000, NSEC_PER_SEC) : 1000000;
	struct sleeper *s = xcalloc((size_t)n, sizeof(*s));
	struct wakeup *log = xcalloc((size_t)n * rounds, sizeof(*log));
	int *rank = xcalloc((size_t)n, sizeof(*rank));
	int *order = xcalloc((size_t)n * rounds, sizeof(*order));
	int64_t base, late, max_late = 0, min_late = INT64_MAX, t1;
	int total = n * rounds, first_bad = -1, i, err;
	uint64_t seed = 1;
	atomic_int nlog = 0;
	pthread_attr_t attr;

	for (i = 0; i < n; i++)
		rank[i] = i;
	shuffle(rank, n, &seed);
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, 64 * 1024))
		die("pthread_attr");
	/* Leave time to start every thread before the first deadline. */
	base = mono() + 100000000;
	for (i = 0; i < n; i++) {
		s[i] = (struct sleeper){ .id = i,
					 .rank = rank[i],
					 .rounds = rounds,
					 .nthreads = n,
					 .base = base,
					 .step = step,
					 .log = log,
					 .nlog = &nlog };
		err = pthread_create(&s[i].tid, &attr, sleeper_run, &s[i]);
		if (err)
			die_err(err, "pthread_create");
	}
	for (i = 0; i < n; i++) {
		err = pthread_join(s[i].tid, NULL);
		if (err)
			die_err(err, "pthread_join");
	}
	t1 = mono();
	for (i = 0; i < total; i++) {
		order[i] = log[i].thread;
		late = log[i].woke - log[i].deadline;
		if (late > max_late)
			max_late = late;
		if (late < min_late)
			min_late = late;
		if (i && first_bad < 0 && log[i].deadline <= log[i - 1].deadline)
			first_bad = i;
	}
	put_int("threads", n);
	put_int("wakeups", total);
	put_int("in_order", first_bad < 0);
	put_int("first_out_of_order", first_bad);
	put_int("min_late_ns", min_late);
	put_int("max_late_ns", max_late);
	put_int("slack_ns", slack_ns());
	printf("order_hash=%016" PRIx64 "\n", fnv_ints(order, total));
	printf("order=");
	for (i = 0; i < total; i++)
		printf("%s%d", i ? "," : "", order[i]);
	printf("\n");
	put_int("elapsed_ns", t1 - base);
	free(s);
	free(log);
	free(rank);
	free(order);
	return 0;
}

/*
 * order: the expiries are base + a running sum of random gaps (1 ns to
 * twice the mean gap), handed to the timers in a shuffled order, so they
 * are distinct, random, and armed out of order.  A timer is observed when
 * epoll_wait (timerfd) or sigwaitinfo (POSIX) hands it over; the sequence
 * of observations must be the expiry order.
 */
static void order_expiries(int64_t *expiry, int n, int64_t base, int64_t span, uint64_t *seed)
{
	uint64_t max_gap = (uint64_t)(2 * (span / n));
	int64_t *sum = xcalloc((size_t)n, sizeof(*sum));
	int *rank = xcalloc((size_t)n, sizeof(*rank));
	int64_t t = base;
	int i;

	for (i = 0; i < n; i++) {
		t += 1 + (int64_t)(prng_next(seed) % (max_gap ? max_gap : 1));
		sum[i] = t;
		rank[i] = i;
	}
	/* Timer i gets the rank[i]-th expiry. */
	shuffle(rank, n, seed);
	for (i = 0; i < n; i++)
		expiry[i] = sum[rank[i]];
	free(sum);
	free(rank);
}

static void order_timerfd(const int64_t *expiry, int n, int *seq, int64_t *seen)
{
	struct epoll_event ev[64];
	int *fd = xcalloc((size_t)n, sizeof(*fd));
	int ep = epoll_create1(EPOLL_CLOEXEC), fired = 0, i, r, j;
	int64_t t;

	if (ep < 0)
		die_sys("epoll_create1");
	raise_limit(RLIMIT_NOFILE, "RLIMIT_NOFILE", (rlim_t)n + 16);
	for (i = 0; i < n; i++) {
		fd[i] = timerfd_new(CLOCK_MONOTONIC, TFD_NONBLOCK);
		ev[0] = (struct epoll_event){ .events = EPOLLIN, .data.u32 = i };
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &ev[0]))
			die_sys("epoll_ctl");
		timerfd_arm(fd[i], TFD_TIMER_ABSTIME, expiry[i], 0);
	}
	while (fired < n) {
		r = epoll_wait(ep, ev, ARRAY_SIZE(ev), -1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die_sys("epoll_wait");
		t = mono();
		for (i = 0; i < r; i++) {
			j = (int)ev[i].data.u32;
			if (timerfd_wait(fd[j]) != 1)
				die("timer %d expired more than once", j);
			seen[j] = t;
			seq[fired++] = j;
			close(fd[j]);
		}
	}
	close(ep);
	free(fd);
}

static void order_posix(const int64_t *expiry, int n, int *seq, int64_t *seen)
{
	timer_t *tm = xcalloc((size_t)n, sizeof(*tm));
	struct sigevent sev = { 0 };
	int fired = 0, i, j;
	siginfo_t si;
	sigset_t set;

	block_signal(SIGRTMIN, &set);
	raise_limit(RLIMIT_SIGPENDING, "RLIMIT_SIGPENDING", (rlim_t)n + 16);
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGRTMIN;
	for (i = 0; i < n; i++) {
		sev.sigev_value.sival_int = i;
		tm[i] = posix_timer_new(&sev);
		posix_timer_arm(tm[i], expiry[i], 0);
	}
	while (fired < n) {
		wait_signal(&set, &si);
		j = si.si_value.sival_int;
		if (si.si_code != SI_TIMER || j < 0 || j >= n)
			die("unexpected signal (code %d)", si.si_code);
		seen[j] = mono();
		seq[fired++] = j;
	}
	for (i = 0; i < n; i++)
		if (timer_delete(tm[i]))
			die_sys("timer_delete");
	free(tm);
}

static int cmd_order(int argc, char **argv)
{
	static const char *const kinds[] = { "timerfd", "posix", NULL };
	int n = (int)arg_int("timers", argv[1], 1, 100000);
	uint64_t seed = (uint64_t)arg_int("seed", argv[2], 0, INT64_MAX);
	int64_t span = argc > 3 ? arg_dur("span", argv[3], 1, INT64_MAX / 4) : 3600 * NSEC_PER_SEC;
	bool posix = argc > 4 && arg_word("kind", argv[4], kinds) == 1;
	int64_t *expiry = xcalloc((size_t)n, sizeof(*expiry));
	int64_t *seen = xcalloc((size_t)n, sizeof(*seen));
	int *seq = xcalloc((size_t)n, sizeof(*seq));
	int64_t base, last = 0, late, max_late = 0, min_late = INT64_MAX, t1;
	int first_bad = -1, i;

	/* One second of lead time to arm them all, even without time travel. */
	base = mono() + NSEC_PER_SEC;
	order_expiries(expiry, n, base, span, &seed);
	if (posix)
		order_posix(expiry, n, seq, seen);
	else
		order_timerfd(expiry, n, seq, seen);
	t1 = mono();
	for (i = 0; i < n; i++) {
		if (i && first_bad < 0 && expiry[seq[i]] <= expiry[seq[i - 1]])
			first_bad = i;
		late = seen[seq[i]] - expiry[seq[i]];
		if (late > max_late)
			max_late = late;
		if (late < min_late)
			min_late = late;
		if (expiry[i] > last)
			last = expiry[i];
	}
	put_str("kind", kinds[posix]);
	put_int("timers", n);
	put_int("fired", n);
	put_int("in_order", first_bad < 0);
	put_int("first_out_of_order", first_bad);
	put_int("min_late_ns", min_late);
	put_int("max_late_ns", max_late);
	put_int("last_expiry_ns", last - base);
	printf("order_hash=%016" PRIx64 "\n", fnv_ints(seq, n));
	put_int("elapsed_ns", t1 - base + NSEC_PER_SEC);
	free(expiry);
	free(seen);
	free(seq);
	return 0;
}

/*
 * CPU work without system calls: the clock is read once before and once
 * after.  Under inf-cpu the elapsed time is one clock read's worth.
 */
static int cmd_spin(int argc, char **argv)
{
	int64_t n = arg_int("iterations", argv[1], 0, INT64_MAX);
	uint64_t x = 88172645463325252ULL;
	int64_t t0, t1, c0, c1, i;

	(void)argc;
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	t0 = mono();
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Keep the compiler from folding the loop away. */
		__asm__ volatile("" : "+r"(x));
	}
	t1 = mono();
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	put_int("iterations", n);
	put_int("elapsed_ns", t1 - t0);
	put_int("cpu_ns", c1 - c0);
	printf("checksum=%016" PRIx64 "\n", x);
	return 0;
}

/*
 * race: threads A and B each do ITERS unlocked read-modify-write rounds on
 * a shared counter; between the read and the write a thread reads the
 * clock, or now and then (its own PRNG decides) sleeps a few microseconds,
 * and burns a little CPU.  A periodic POSIX timer's signal handler adds
 * 1 to the same counter, unlocked too.  The log of who did what, in
 * the order it happened, is the interleaving; lost updates show the race
 * was real.
 *
 * Under inf-cpu the outcome is a function of the guest's history: two
 * guests booted alike and running the same commands race alike.  Within
 * one guest, though, background kernel work (kworkers, the RNG thread)
 * wakes at other points of each run and, under the normal CFS policy,
 * preempts a racer at a different point.  So by default the racers run
 * SCHED_FIFO (when the probe may: root): nothing else preempts them, they
 * switch only where they sleep, and the log is the same on every run of
 * the same guest too.  "race ITERS cfs" keeps the normal policy.
 */
#define RACE_LOG_MAX (1 << 20)

static struct {
	volatile long counter;
	atomic_int nlog;
	char log[RACE_LOG_MAX];
	atomic_int timer_hits;
} race;

static void race_log(char who)
{
	int i = atomic_fetch_add(&race.nlog, 1);

	if (i < RACE_LOG_MAX)
		race.log[i] = who;
}

static void on_race_timer(int sig)
{
	long v = race.counter;

	(void)sig;
	race.counter = v + 1;
	atomic_fetch_add(&race.timer_hits, 1);
	race_log('T');
}

struct racer {
	pthread_t tid;
	char name;
	uint64_t seed;
	int64_t iters;
};

static void *racer_run(void *arg)
{
	struct racer *r = arg;
	uint64_t x;
	int64_t i;
	long v;
	int k;

	for (i = 0; i < r->iters; i++) {
		v = race.counter;
		x = prng_next(&r->seed);
		if (x % 16 == 0)
			sleep_rel(1000 + (int64_t)(x >> 32) % 50000);
		else
			(void)mono();
		for (k = 0; k < 200; k++)
			__asm__ volatile("" : "+r"(x));
		race.counter = v + 1;
		race_log(r->name);
	}
	return NULL;
}

static void race_print(int n)
{
	int i, run = 1, runs = 0;

	printf("interleaving=");
	for (i = 1; i <= n; i++) {
		if (i < n && race.log[i] == race.log[i - 1]) {
			run++;
			continue;
		}
		printf("%c%d", race.log[i - 1], run);
		run = 1;
		runs++;
	}
	printf("\n");
	put_int("runs", runs);
}

static int cmd_race(int argc, char **argv)
{
	int64_t iters = argc > 1 ? arg_int("iterations", argv[1], 1, 200000) : 2000;
	static const char *const policies[] = { "fifo", "cfs", NULL };
	bool fifo = argc <= 2 || arg_word("policy", argv[2], policies) == 0;
	struct sched_param sp = { .sched_priority = 1 };
	struct racer r[2] = { { .name = 'A', .seed = 1, .iters = iters },
			      { .name = 'B', .seed = 2, .iters = iters } };
	struct sigaction sa = { .sa_handler = on_race_timer };
	struct sigevent sev = { 0 };
	int64_t t0, t1;
	uint64_t h = 0xcbf29ce484222325ULL;
	timer_t tm;
	int i, n, err;

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGRTMIN, &sa, NULL))
		die_sys("sigaction");
	sev.sigev_notify = SIGEV_SIGNAL;
	/* The threads inherit the policy (PTHREAD_INHERIT_SCHED). */
	if (fifo && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		warn("cannot use SCHED_FIFO (%s): racing under CFS", strerror(errno));
		fifo = false;
	}
	sev.sigev_signo = SIGRTMIN;
	t0 = mono();
	tm = posix_timer_new(&sev);
	posix_timer_arm(tm, t0 + 500000, 500000);
	for (i = 0; i < 2; i++) {
		err = pthread_create(&r[i].tid, NULL, racer_run, &r[i]);
		if (err)
			die_err(err, "pthread_create");
	}
	for (i = 0; i < 2; i++) {
		err = pthread_join(r[i].tid, NULL);
		if (err)
			die_err(err, "pthread_join");
	}
	if (timer_delete(tm))
		die_sys("timer_delete");
	t1 = mono();
	n = atomic_load(&race.nlog);
	if (n > RACE_LOG_MAX)
		n = RACE_LOG_MAX;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)race.log[i];
		h *= 0x100000001b3ULL;
	}
	put_int("iterations", iters);
	put_str("policy", fifo ? "fifo" : "cfs");
	put_int("timer_signals", atomic_load(&race.timer_hits));
	put_int("counter", race.counter);
	put_int("lost_updates", 2 * iters + atomic_load(&race.timer_hits) - race.counter);
	race_print(n);
	printf("log_hash=%016" PRIx64 "\n", h);
	put_int("elapsed_ns", t1 - t0);
	return 0;
}

/*
 * tickrace: the race a per-system-call CPU cost uncovers (umlrun run
 * --cpu-cost, docs/timers.md).  Thread A (normal policy) and thread B
 * (SCHED_FIFO, so its wakeup preempts A) each wake on a periodic timerfd,
 * 1.000 ms and 1.003 ms, and add 1 to a shared counter without a lock:
 * read it, make one system call (standing for the work between a read and
 * a write: a log line, a lookup), write it back.  Under inf-cpu the window
 * takes no simulated time and B can never land in it: no update is lost,
 * whatever the seed.  With a cost per system call the window has a length,
 * and B's timer fires inside it under some seeds: lost_updates > 0.
 * log_hash names the interleaving (who incremented in which order).
 */
static struct {
	volatile long counter;
	atomic_int nlog;
	char log[RACE_LOG_MAX];
} tick;

struct ticker {
	pthread_t tid;
	char name;
	int64_t period_ns, iters;
};

static void *ticker_run(void *arg)
{
	struct ticker *t = arg;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	struct itimerspec its = { .it_value = { 0, t->period_ns },
				  .it_interval = { 0, t->period_ns } };
	uint64_t n;
	long v;

	if (fd < 0)
		die_sys("timerfd_create");
	if (timerfd_settime(fd, 0, &its, NULL))
		die_sys("timerfd_settime");
	for (int64_t i = 0; i < t->iters; i++) {
		int k;

		if (read(fd, &n, sizeof(n)) != sizeof(n))
			die_sys("read timerfd");
		v = tick.counter;
		(void)syscall(SYS_getppid);
		tick.counter = v + 1;
		k = atomic_fetch_add(&tick.nlog, 1);
		if (k < RACE_LOG_MAX)
			tick.log[k] = t->name;
	}
	close(fd);
	return NULL;
}

static int cmd_tickrace(int argc, char **argv)
{
	int64_t iters = argc > 1 ? arg_int("iterations", argv[1], 1, 200000) : 2000;
	struct ticker t[2] = { { .name = 'A', .period_ns = 1000000, .iters = iters },
			       { .name = 'B', .period_ns = 1003000, .iters = iters } };
	struct sched_param sp = { .sched_priority = 1 };
	pthread_attr_t fifo;
	uint64_t h = 0xcbf29ce484222325ULL;
	int64_t t0 = mono(), t1;
	int n, err;

	pthread_attr_init(&fifo);
	pthread_attr_setinheritsched(&fifo, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&fifo, SCHED_FIFO);
	pthread_attr_setschedparam(&fifo, &sp);
	if ((err = pthread_create(&t[0].tid, NULL, ticker_run, &t[0])))
		die_err(err, "pthread_create");
	if ((err = pthread_create(&t[1].tid, &fifo, ticker_run, &t[1])))
		die_err(err, "pthread_create (SCHED_FIFO: run as root)");
	for (int i = 0; i < 2; i++)
		if ((err = pthread_join(t[i].tid, NULL)))
			die_err(err, "pthread_join");
	t1 = mono();
	n = atomic_load(&tick.nlog);
	if (n > RACE_LOG_MAX)
		n = RACE_LOG_MAX;
	for (int i = 0; i < n; i++) {
		h ^= (unsigned char)tick.log[i];
		h *= 0x100000001b3ULL;
	}
	put_int("iterations", iters);
	put_int("counter", tick.counter);
	put_int("lost_updates", 2 * iters - tick.counter);
	printf("log_hash=%016" PRIx64 "\n", h);
	put_int("elapsed_ns", t1 - t0);
	return 0;
}

/* ---- command table and main ----------------------------------------------- */

static const struct command {
	const char *name;
	int min_args, max_args; /* not counting the command name */
	int (*run)(int argc, char **argv);
	const char *args;
} commands[] = {
	{ "now", 0, 0, cmd_now, "" },
	{ "clocks", 1, 1, cmd_clocks, "N" },
	{ "nanosleep", 1, 1, cmd_nanosleep, "DUR" },
	{ "clock-nanosleep", 3, 3, cmd_clock_nanosleep, "CLOCK rel|abs DUR" },
	{ "timerfd", 3, 3, cmd_timerfd, "CLOCK rel|abs DUR" },
	{ "timerfd-periodic", 2, 3, cmd_timerfd_periodic, "INTERVAL COUNT [LATE]" },
	{ "cancel-on-set", 1, 3, cmd_cancel_on_set, "JUMP [WAIT [clock_settime|settimeofday]]" },
	{ "jump", 1, 2, cmd_jump, "DUR [clock_settime|settimeofday]" },
	{ "settime", 1, 2, cmd_settime, "SECONDS [clock_settime|settimeofday]" },
	{ "set-offset", 1, 1, cmd_set_offset, "NS" },
	{ "posix-timer", 3, 4, cmd_posix_timer, "signal|thread INTERVAL COUNT [LATE]" },
	{ "itimer", 1, 2, cmd_itimer, "DUR [COUNT]" },
	{ "alarm", 1, 1, cmd_alarm, "SECONDS" },
	{ "timeout", 2, 2, cmd_timeout, "poll|ppoll|select|pselect|epoll|epoll-pwait2 DUR" },
	{ "futex", 1, 2, cmd_futex, "DUR [rel|abs]" },
	{ "threads", 1, 3, cmd_threads, "N [ROUNDS [STEP]]" },
	{ "order", 2, 4, cmd_order, "N SEED [SPAN [timerfd|posix]]" },
	{ "spin", 1, 1, cmd_spin, "N" },
	{ "race", 0, 2, cmd_race, "[ITERS [fifo|cfs]]" },
	{ "tickrace", 0, 1, cmd_tickrace, "[ITERS]" },
};

static void usage(void)
{
	size_t i;

	printf("usage: %s [--slack=DUR] COMMAND [ARGS...]\n\n", DIE_PROG);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		printf("  %s%*s%s\n", commands[i].name,
		       *commands[i].args ? 18 - (int)strlen(commands[i].name) : 0, "",
		       commands[i].args);
	printf("\nDUR: integer with unit ns (default), us, ms, s, m, h or d.\n"
	       "CLOCK: realtime, monotonic or boottime.\n"
	       "Prints key=value lines; see the header of timerprobe.c.\n");
}

static const struct command *find_command(const char *name, int nargs)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i].name, name))
			continue;
		if (nargs < commands[i].min_args || nargs > commands[i].max_args)
			usage_error("usage: %s %s %s", DIE_PROG, name, commands[i].args);
		return &commands[i];
	}
	usage_error("unknown command '%s'", name);
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	int64_t slack;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage();
		return 0;
	}
	if (argc > 1 && !strncmp(argv[1], "--slack=", 8)) {
		slack = arg_dur("slack", argv[1] + 8, 1, UINT_MAX);
		if (prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0))
			die_sys("prctl(PR_SET_TIMERSLACK)");
		argc--;
		argv++;
	}
	if (argc < 2)
		usage_error("missing command");
	cmd = find_command(argv[1], argc - 2);
	return cmd->run(argc - 1, argv + 1);
}
