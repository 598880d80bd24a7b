/* SPDX-License-Identifier: MIT */
/*
 * sched.h - run a queue of test files in up to N guests at once.
 *
 * Each guest slot has its own STAGE/gN folder, umid and radios (every
 * guest is a separate kernel). Results stay ordered KTAP: with one slot a
 * test's lines stream as the guest prints them; with several, each test's
 * block is printed whole when it ends, numbered in the order tests end.
 * One poll loop serves every guest and the signalfd; SIGINT/SIGTERM end
 * every running guest, and what already ended stays reported.
 *
 * --repeat N runs each test N times; with --check-determinism the runs of
 * one test go one after the other and each is compared with the first.
 * --retry N runs a failing test again up to N times; one that then passes
 * is FLAKY, never a plain pass.
 */
#ifndef UMLRUN_SCHED_H
#define UMLRUN_SCHED_H

#include <stdio.h>

#include "boot.h"
#include "record.h"
#include "suite.h"

struct sched_opts {
	struct guest_spec base; /* stage, mode, start; the rest is per test */
	const char *mem;	/* --mem: overrides the suite's settings */
	long timeout;		/* --timeout: 0 means the suite's settings */
	double wall_timeout;	/* --wall-timeout: 0 means the suite's settings */
	/*
	 * After each result a test file reports, its wall-clock limit starts
	 * again with this many seconds (0: one limit for the whole file):
	 * a hostap batch's limit is a case's, not the batch's.
	 */
	double result_wall_timeout;
	int jobs, repeat, retry;
	bool check_determinism;
	/*
	 * --seeds: run K of each test (repeat = the number of seeds) gets the
	 * guest random seed seed0 + K - 1 instead of base.random_seed.
	 */
	bool seeds;
	uint64_t seed0;
	int console_copy; /* an fd to copy every console to (-v), or -1 */
	bool quiet;	  /* on stdout, no nested KTAP lines, results only */
	bool tracing;	  /* --trace-event: the init saves the trace (trace_overflowed) */
	FILE *progress;	  /* a terminal to draw live status lines on, or NULL */
	const char *run_dir;
	FILE *run_ktap; /* the run's ktap.txt */
	FILE *out;	/* where KTAP goes as it comes (stdout), or NULL */
	/*
	 * What may follow a test file that did not pass (hostap's batches):
	 * follow_up gets its verdict and results (it may add results, as the
	 * case a batch was stuck in) and returns the test files to queue, a
	 * NULL-terminated array it allocated (or NULL). The tests must outlive
	 * the results. A test file that is followed up is not retried. What
	 * follows runs in the run it follows (--repeat, --seeds), once however
	 * often it is returned for that run (by its id); under
	 * --check-determinism in that run and each after it, in turn, each
	 * compared with that first one, as a test file's runs are with run 1.
	 * Its guest runs its staged_id when it has one: what differs from run
	 * to run (the cases a batch failed) is staged under a name of its own,
	 * so that no run's guest reads another run's.
	 */
	const struct test **(*follow_up)(void *ctx, const struct test *t, enum verdict v,
					 struct ktap *k);
	void *follow_ctx;
};

struct sched_result {
	struct record *rec;
	size_t nrec;
	int host_signal; /* the signal that interrupted the run, or 0 */
};

/*
 * A test file's wall-clock limit. An explicit one (--wall-timeout, wall > 0)
 * wins. Otherwise the suite's wall_timeout=, except where the simulated
 * limit (sim_timeout, seconds) is no faster than wall time: with time
 * travel off it is real time, and under basic simulated time passes at
 * least as fast as wall time (idle time is skipped, CPU work is real).
 * There the wall limit is at least the simulated one plus SCHED_WALL_MARGIN
 * (the boot, the init's end, a loaded host), so that a test's own time
 * limit, not the 120 s default, decides.
 */
#define SCHED_WALL_MARGIN 30
double sched_wall_limit(enum tt_mode mode, double wall, double settings_wall, long sim_timeout);

int sched_run(const struct sched_opts *so, const struct test *tests, size_t n,
	      struct sched_result *res, struct uerr *e);
void sched_result_free(struct sched_result *res);
/* The first line where two outputs differ, or NULL (for --check-determinism). */
char *first_difference(const char *a, const char *b, const char *what);

/*
 * The errno of the first failed write of the results to stdout and to the
 * run's ktap.txt, 0 for none.
 */
void sched_write_errors(int *out, int *ktap);

#endif
