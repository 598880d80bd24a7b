/*
 * spinwait - wait for time the wrong way: by spinning instead of sleeping.
 *
 * Under time-travel=inf-cpu simulated time moves only when the guest
 * idles, so each loop below hung a guest until its wall-clock limit
 * before umlrun's stall breaker (uml-config/patches/7.2/
 * 0007-um-stall-breaker.patch, docs/timers.md). The stall suite
 * (testsuites/stall/) runs one of each and checks that it ends, after the
 * simulated time it waited for.
 *
 *   spinwait KIND SECONDS
 *
 *   clock      clock_gettime(CLOCK_MONOTONIC) until SECONDS have passed
 *   adjtimex   adjtimex() (which returns the time too) until SECONDS of
 *              its time have passed, as kselftest's leapcrash waits
 *   mutex      4 threads take turns at a mutex around each clock read
 *              until SECONDS have passed, as kselftest's threadtest does:
 *              a thread that finds the mutex taken sleeps in a futex call
 *              until it is handed over
 *   yield      sched_yield() until an alarm SECONDS ahead fires
 *   poll       poll() with a zero timeout, likewise
 *   select     select() with a zero timeout, likewise
 *   epoll      epoll_wait() with a zero timeout, likewise
 *   futex      FUTEX_WAIT with a zero timeout, likewise (a call returns
 *              ETIMEDOUT at once, 1.26 us of simulated time: UML adds
 *              1 us to a system call that fails; when an earlier timer
 *              is due it sleeps through its timer slack, 50 us)
 *   nanosleep  nanosleep() of zero, likewise (it returns at once, or
 *              sleeps through its slack as the futex call does)
 *   getppid    getppid(), likewise: a system call that succeeds, which
 *              is progress, not a wait, so only the busy breaker (a
 *              guest that makes a million of them without idling) ends it
 *   waitpid    waitpid(WNOHANG) on a child that sleeps SECONDS, with a
 *              getppid() (progress) after each, until it is reaped, as
 *              kselftest's clocksource-switch waits for its child (with
 *              sysfs writes between): a task that polls between rounds
 *              of work, which the polls it makes end
 *   user       a loop on a flag in user space alone (no system call),
 *              likewise: only the wall-clock breaker ends it
 *
 * Output: key=value lines: elapsed_ns (CLOCK_MONOTONIC, from before the
 * loop to after it) and loops (the iterations).  Exit status 0, or 2 for
 * bad usage, 1 when a call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t fired;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int fail(const char *what)
{
	fprintf(stderr, "spinwait: %s: %s\n", what, strerror(errno));
	return 1;
}

/* adjtimex()'s time, in ns (tv_usec holds ns when STA_NANO is set). */
static int64_t adj_ns(void)
{
	struct timex tx = { .modes = 0 };

	if (adjtimex(&tx) < 0)
		return -1;
	return (int64_t)tx.time.tv_sec * 1000000000 +
	       (tx.status & STA_NANO ? tx.time.tv_usec : tx.time.tv_usec * 1000);
}

/* The mutex kind's threads. */
#define MUTEX_THREADS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t mutex_start, mutex_limit;
static unsigned long long mutex_loops;

/* One of the mutex kind's threads: a clock read under the lock, each turn. */
static void *mutex_thread(void *arg)
{
	int64_t t;

	(void)arg;
	do {
		pthread_mutex_lock(&lock);
		t = now_ns();
		mutex_loops++;
		pthread_mutex_unlock(&lock);
	} while (t - mutex_start < mutex_limit);
	return NULL;
}

/* One turn of KIND's loop: 0, or -1 with errno set on a real failure. */
static int turn(const char *kind, int epfd)
{
	static uint32_t word;
	struct timespec zero = { 0, 0 };
	struct timeval tv = { 0, 0 };

	if (!strcmp(kind, "yield"))
		return sched_yield();
	if (!strcmp(kind, "poll"))
		return poll(NULL, 0, 0) < 0 && errno != EINTR ? -1 : 0;
	if (!strcmp(kind, "select"))
		return select(0, NULL, NULL, NULL, &tv) < 0 && errno != EINTR ? -1 : 0;
	if (!strcmp(kind, "epoll")) {
		struct epoll_event ev;

		return epoll_wait(epfd, &ev, 1, 0) < 0 && errno != EINTR ? -1 : 0;
	}
	if (!strcmp(kind, "futex"))
		return syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &zero, NULL, 0) < 0 &&
			       errno != ETIMEDOUT && errno != EINTR
			   ? -1
			   : 0;
	if (!strcmp(kind, "nanosleep"))
		return nanosleep(&zero, NULL) < 0 && errno != EINTR ? -1 : 0;
	if (!strcmp(kind, "getppid"))
		return getppid() > 0 ? 0 : -1;
	return 0; /* user: nothing but the flag */
}

/*
 * kinds[] below this index wait on their own reads of the clock; the rest
 * until an alarm, but waitpid, which waits for its child's end.
 */
#define CLOCK_KINDS 3

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "clock",	"adjtimex", "mutex", "yield",	  "poll",
					     "select",	"epoll",    "futex", "nanosleep", "getppid",
					     "waitpid", "user",	    NULL };
	struct sigaction sa = { .sa_handler = on_alarm };
	const char *kind = argc == 3 ? argv[1] : "";
	unsigned long long loops = 0;
	int64_t start, limit;
	int epfd = -1;
	char *end;
	long secs;
	size_t i;

	for (i = 0; kinds[i] && strcmp(kinds[i], kind); i++)
		;
	secs = argc == 3 ? strtol(argv[2], &end, 10) : 0;
	if (!kinds[i] || secs < 1 || *end) {
		fprintf(stderr,
			"usage: spinwait clock|adjtimex|mutex|yield|poll|select|epoll|futex|"
			"nanosleep|getppid|waitpid|user SECONDS\n");
		return 2;
	}
	limit = (int64_t)secs * 1000000000;
	if (!strcmp(kind, "epoll") && (epfd = epoll_create1(0)) < 0)
		return fail("epoll_create1");
	if (i >= CLOCK_KINDS && strcmp(kind, "waitpid")) {
		struct itimerval it = { .it_value = { secs, 0 } };

		if (sigaction(SIGALRM, &sa, NULL) < 0 || setitimer(ITIMER_REAL, &it, NULL) < 0)
			return fail("setitimer");
	}
	start = now_ns();
	if (!strcmp(kind, "clock")) {
		while (now_ns() - start < limit)
			loops++;
	} else if (!strcmp(kind, "adjtimex")) {
		int64_t t0 = adj_ns(), t;

		if (t0 < 0)
			return fail("adjtimex");
		do {
			if ((t = adj_ns()) < 0)
				return fail("adjtimex");
			loops++;
		} while (t - t0 < limit);
	} else if (!strcmp(kind, "mutex")) {
		pthread_t th[MUTEX_THREADS];

		mutex_start = start;
		mutex_limit = limit;
		for (i = 0; i < MUTEX_THREADS; i++)
			if ((errno = pthread_create(&th[i], NULL, mutex_thread, NULL)))
				return fail("pthread_create");
		for (i = 0; i < MUTEX_THREADS; i++)
			pthread_join(th[i], NULL);
		loops = mutex_loops;
	} else if (!strcmp(kind, "waitpid")) {
		struct timespec ts = { secs, 0 };
		pid_t pid = fork(), r;

		if (pid < 0)
			return fail("fork");
		if (!pid)
			_exit(nanosleep(&ts, NULL) < 0);
		while (!(r = waitpid(pid, NULL, WNOHANG))) {
			if (getppid() <= 0)
				return fail("getppid");
			loops++;
		}
		if (r < 0)
			return fail("waitpid");
	} else {
		while (!fired) {
			if (turn(kind, epfd) < 0)
				return fail(kind);
			loops++;
		}
	}
	printf("elapsed_ns=%lld\nloops=%llu\n", (long long)(now_ns() - start), loops);
	return 0;
}
