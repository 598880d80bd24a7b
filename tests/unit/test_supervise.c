// SPDX-License-Identifier: MIT
/*
 * test_supervise.c - the supervisor (guest/supervise.c) against a fake
 * guest: what it makes of a guest's lines, its end and its silence, in
 * milliseconds and without a kernel.
 *
 * The fake guest is this program. The test stages it as STAGE/linux (a
 * link to /proc/self/exe), and guest_run() starts it as it starts linux:
 * the same command line, descriptors, folder and seccomp filter. Run with
 * "umlrun.test=fake/MODE" among its arguments, it speaks the guest's side
 * of the protocol as MODE says (rootfs/init.c's control lines on fd 4,
 * the job's output on fd 3 and stderr on fd 5, the kernel's console on
 * fd 1) and exits as linux would. The real guest is tested by
 * tests/integration: this pins down the supervisor's rules alone.
 */
#define _GNU_SOURCE
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fake_guest.h"
#include "tap.h"
#include "util.h"

/* The supervisor's side. */
static char stage_dir[] = "/tmp/umlrun-test-supervise.XXXXXX";
static struct stage stage;
static struct strbuf out, err, con;

static void on_out(void *ctx, const char *d, size_t n)
{
	(void)ctx;
	sb_add(&out, d, n);
}

static void on_err(void *ctx, const char *d, size_t n)
{
	(void)ctx;
	sb_add(&err, d, n);
}

static void on_con(void *ctx, const char *d, size_t n)
{
	(void)ctx;
	sb_add(&con, d, n);
}

static const char *text(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* Runs the fake guest in MODE: guest_run's return value, the outcome in *o. */
static int run_fake(const char *mode, double wall_timeout, struct guest_outcome *o)
{
	_cleanup_free_ char *test = xasprintf("fake/%s", mode);
	struct guest_spec g = {
		.stage = &stage, .index = 0, .mode = TT_INF_CPU, .test = test, .sim_timeout = 60
	};
	struct guest_io io = { on_out, on_err, on_con, NULL };
	struct uerr e = { 0 };
	int r;

	sb_release(&out);
	sb_release(&err);
	sb_release(&con);
	r = guest_run(&g, &io, wall_timeout, o, &e);
	if (r < 0)
		diag("guest_run: %s", e.msg);
	return r;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_reported(void)
{
	struct guest_outcome o;

	ok(run_fake("pass", 30, &o) == 0, "a guest that reports its end: guest_run succeeds");
	ok(o.began && o.end == GUEST_REPORTED && o.job_exit == 0 && o.job_signal == 0,
	   "began, reported, exit 0");
	ok(o.sim_seconds == 1.25, "the simulated seconds are the end line's");
	ok(o.cost.guest_forks == 3 && o.cost.guest_page_faults == 9,
	   "the job's forks and page faults are the end line's");
	is_str(text(&out), "KTAP version 1\n1..1\nok 1 fake\n", "fd 3 is the job's output");
	is_str(text(&err), "a line on stderr\n", "fd 5 is the job's stderr");
	ok(strstr(text(&con), "Linux version 0.0-fake") != NULL, "fd 1 is the kernel's console");
	ok(!o.panic[0] && !o.kernel_report[0], "no panic, no kernel report");

	ok(run_fake("exit7", 30, &o) == 0 && o.end == GUEST_REPORTED && o.job_exit == 7 &&
	       o.sim_seconds == 2.0,
	   "the job's exit status as the init reports it");
	ok(run_fake("signal", 30, &o) == 0 && o.end == GUEST_REPORTED && o.job_signal == 9,
	   "a job killed by a signal");
	ok(run_fake("split", 30, &o) == 0 && o.end == GUEST_REPORTED && o.job_exit == 4 &&
	       o.sim_seconds == 3.5,
	   "an end line that comes in three writes is read whole");
}

static void test_ends(void)
{
	struct guest_outcome o;
	double t0;

	ok(run_fake("simlimit", 30, &o) == 0 && o.end == GUEST_SIM_TIMEOUT &&
	       strstr(o.detail, "simulated-time limit of 5 s") != NULL,
	   "the init's timeout line: a simulated-time limit, named");
	ok(run_fake("initerror", 30, &o) == 0 && o.end == GUEST_INIT_ERROR &&
	       strstr(o.detail, "cannot mount the results: fake") != NULL,
	   "the init's error line: an init error with its words");
	ok(run_fake("panic", 30, &o) == 0 && o.end == GUEST_CRASH &&
	       strstr(o.panic, "Kernel panic - not syncing: fake panic") != NULL,
	   "a kernel panic on the console: a crash, the panic line kept");
	ok(run_fake("silent", 30, &o) == 0 && o.began && o.end == GUEST_CRASH,
	   "a guest that ends without an end line: a crash, not a pass");
	ok(run_fake("forged", 30, &o) == 0 && o.end == GUEST_CRASH && o.sim_seconds == 0,
	   "end lines with numbers no init writes are ignored");
	ok(run_fake("killed", 30, &o) == 0 && o.end == GUEST_KILLED,
	   "linux killed by a signal on the host: killed");
	t0 = now();
	ok(run_fake("hang", 0.3, &o) == 0 && o.end == GUEST_WALL_TIMEOUT,
	   "a guest that hangs: stopped at the wall-clock limit");
	ok(now() - t0 < 10, "and soon after the limit (0.3 s)");
	ok(strstr(o.detail, "wall-clock") != NULL, "the reason names the wall-clock limit");
}

int main(int argc, char **argv)
{
	_cleanup_free_ char *g0 = NULL;

	if (fake_guest_called(argc, argv))
		return fake_guest(argc, argv);
	if (fake_guest_stage(stage_dir) < 0 ||
	    mkdir(g0 = xasprintf("%s/g0", stage_dir), 0755) < 0) {
		perror("staging the fake guest");
		return 1;
	}
	stage.dir = stage_dir;
	supervise_block_signals();
	test_reported();
	test_ends();
	rm_rf(stage_dir);
	return done_testing();
}
