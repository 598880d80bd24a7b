// SPDX-License-Identifier: MIT
/*
 * test_sched.c - a test file's wall-clock limit in each time-travel mode;
 * the scheduler's rules (verdicts, -j, --retry, --repeat,
 * --check-determinism, --seeds) against the fake guest of fake_guest.h.
 */
#define _GNU_SOURCE
#include "sched.h"
#include "hwsim.h"
#include "supervise.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_guest.h"
#include "tap.h"
#include "util.h"

static void test_wall_limit(void)
{
	ok(sched_wall_limit(TT_INF_CPU, 0, 120, 600) == 120,
	   "inf-cpu: the settings' wall limit, whatever the simulated one");
	ok(sched_wall_limit(TT_OFF, 0, 120, 130) == 130 + SCHED_WALL_MARGIN,
	   "off: a 130 s time limit (leap-a-day) raises the 120 s wall limit to it plus a margin");
	ok(sched_wall_limit(TT_BASIC, 0, 120, 600) == 600 + SCHED_WALL_MARGIN,
	   "basic: the wall limit follows the time limit too");
	ok(sched_wall_limit(TT_OFF, 0, 120, 45) == 120,
	   "off: a short time limit keeps the settings' wall limit (never lowered)");
	ok(sched_wall_limit(TT_OFF, 0, 3600, 600) == 3600,
	   "off: a settings wall_timeout= above the time limit stays");
	ok(sched_wall_limit(TT_OFF, 60, 120, 600) == 60,
	   "off: an explicit --wall-timeout wins, even below the time limit");
	ok(sched_wall_limit(TT_INF_CPU, 500, 120, 600) == 500, "inf-cpu: --wall-timeout wins");
	ok(sched_wall_limit(TT_OFF, 0, 120, 0) == 120,
	   "off: no time limit, the settings' wall limit");
}

/* The scheduler's rules, against the fake guest (fake_guest.h): no kernel. */
static char stage_dir[] = "/tmp/umlrun-test-sched.XXXXXX";
static struct stage stage;

static struct test fake_test(const char *file, double wall)
{
	return (struct test){ .suite = "fake",
			      .file = (char *)file,
			      .id = xasprintf("fake/%s", file),
			      .timeout = 60,
			      .wall_timeout = wall };
}

/* Runs the tests; the verdict of each in *v (in the tests' order), the run's exit code. */
static int run_sched(struct sched_opts *so, struct test *t, size_t n, enum verdict *v,
		     int *attempts)
{
	static int runs;
	_cleanup_free_ char *run = xasprintf("%s/run%d", stage_dir, ++runs);
	_cleanup_free_ char *ktap = xasprintf("%s.ktap", run);
	struct sched_result res;
	struct uerr e = { 0 };
	int code;

	mkdir_p(run, 0755);
	so->base.stage = &stage;
	so->base.mode = TT_INF_CPU;
	so->console_copy = -1;
	so->run_dir = run;
	so->run_ktap = fopen(ktap, "we");
	if (sched_run(so, t, n, &res, &e) < 0) {
		diag("sched_run: %s", e.msg);
		fclose(so->run_ktap);
		return -1;
	}
	fclose(so->run_ktap);
	for (size_t i = 0; i < n; i++) {
		v[i] = (enum verdict) - 1;
		attempts[i] = 0;
		for (size_t k = 0; k < res.nrec; k++)
			if (res.rec[k].test == &t[i]) {
				v[i] = res.rec[k].verdict;
				attempts[i]++;
			}
	}
	code = exit_code_of(res.rec, res.nrec);
	sched_result_free(&res);
	return code;
}

static void test_sched_fake(void)
{
	struct test t[4] = { fake_test("t0001-pass.sh", 30), fake_test("t0002-fail.sh", 30),
			     fake_test("t0003-hang.sh", 0.5), fake_test("t0004-flaky.sh", 30) };
	struct test r[1] = { fake_test("t0001-random.sh", 30) };
	enum verdict v[4];
	int attempts[4], code;
	struct sched_opts so;

	memset(&so, 0, sizeof(so));
	so.jobs = 2;
	so.repeat = 1;
	ok(run_sched(&so, t, 4, v, attempts) == 124, "-j2: a timeout is the run's exit code (124)");
	ok(v[0] == V_PASS && v[1] == V_FAIL && v[2] == V_TIMEOUT && v[3] == V_FAIL,
	   "each test file's verdict: pass, fail, timeout at its 0.5 s wall limit, fail");
	ok(attempts[0] == 1 && attempts[1] == 1 && attempts[2] == 1 && attempts[3] == 1,
	   "each once, one record each");

	memset(&so, 0, sizeof(so));
	so.jobs = 2;
	so.repeat = 1;
	so.retry = 1;
	ok(run_sched(&so, t + 3, 1, v, attempts) == 0 && v[0] == V_FLAKY,
	   "--retry=1: a file that fails, then passes on its retry (umlrun.try=2), is flaky; "
	   "the run passes");
	ok(run_sched(&so, t + 1, 1, v, attempts) == 1 && v[0] == V_FAIL,
	   "--retry=1: a file that fails both times fails");

	memset(&so, 0, sizeof(so));
	so.jobs = 1;
	so.repeat = 2;
	ok(run_sched(&so, t, 1, v, attempts) == 0 && attempts[0] == 2,
	   "--repeat=2: two records of the file");
	so.check_determinism = true;
	ok(run_sched(&so, t, 1, v, attempts) == 0 && v[0] == V_PASS,
	   "--check-determinism: the same output twice passes");
	code = run_sched(&so, r, 1, v, attempts);
	ok(code == 1 && v[0] == V_FAIL,
	   "--check-determinism: output that differs between the runs fails the file");
}

/* sched_opts.follow_up: a failed test file is followed by ctx's (as a hostap batch by its retry).
 */
static const struct test **follow_failed(void *ctx, const struct test *t, enum verdict v,
					 struct ktap *k)
{
	const struct test **more = xcalloc(2, sizeof(*more));

	(void)v;
	(void)k;
	if (t != ctx)
		more[0] = ctx;
	return more;
}

/*
 * --seeds: a test file that follows another (hwsim's retry of a batch's
 * failed cases, the rest after a stuck case) runs under the seed of the
 * run it follows, and its record, folder and line name that seed: the
 * replay line of a failure must name the seed that ran.
 */
static void test_seeds_follow_up(void)
{
	static struct test then;
	struct test t[1] = { fake_test("t0002-fail.sh", 30) };
	_cleanup_free_ char *run = xasprintf("%s/seeds", stage_dir);
	_cleanup_free_ char *ktap = xasprintf("%s.ktap", run);
	_cleanup_free_ char *printed = NULL;
	struct strbuf seeds = { 0 }, dirs = { 0 };
	struct sched_result res;
	struct sched_opts so;
	struct uerr e = { 0 };

	then = fake_test("t0005-pass.sh", 30);
	memset(&so, 0, sizeof(so));
	so.jobs = 1;
	so.repeat = 3;
	so.seeds = true;
	so.seed0 = 5;
	so.follow_up = follow_failed;
	so.follow_ctx = &then;
	so.base.stage = &stage;
	so.base.mode = TT_INF_CPU;
	so.console_copy = -1;
	so.run_dir = run;
	mkdir_p(run, 0755);
	so.run_ktap = fopen(ktap, "we");
	if (sched_run(&so, t, 1, &res, &e) < 0) {
		diag("sched_run: %s", e.msg);
		res.nrec = 0;
		res.rec = NULL;
	}
	fclose(so.run_ktap);
	if (read_file(ktap, &printed, NULL) < 0)
		printed = NULL;
	/* In the order they ended (-j1): the seeds' runs, then what follows each. */
	for (size_t i = 0; i < res.nrec; i++) {
		sb_printf(&seeds, " %s@%lld", res.rec[i].test->file, res.rec[i].seed);
		sb_printf(&dirs, " %s", res.rec[i].dir);
	}
	is_str(seeds.buf ? seeds.buf : "",
	       " t0002-fail.sh@5 t0002-fail.sh@6 t0002-fail.sh@7 t0005-pass.sh@5 t0005-pass.sh@6 "
	       "t0005-pass.sh@7",
	       "--seeds: a test file that follows a run has that run's seed");
	is_str(dirs.buf ? dirs.buf : "",
	       " fake/t0002-fail.5 fake/t0002-fail.6 fake/t0002-fail.7 fake/t0005-pass.5 "
	       "fake/t0005-pass.6 fake/t0005-pass.7",
	       "--seeds: its folder is named by that seed");
	has_str(printed ? printed : "", "# fake/t0005-pass.sh (seed 7)\n",
		"--seeds: its lines (ktap.txt) name that seed");
	sb_release(&seeds);
	sb_release(&dirs);
	sched_result_free(&res);
}

/* sched_opts.follow_up: ctx's test follows every failed run of another from its call "from" on. */
struct follow {
	const struct test *then;
	int from, calls;
};

static const struct test **follow_from(void *ctx, const struct test *t, enum verdict v,
				       struct ktap *k)
{
	struct follow *f = ctx;
	const struct test **more = xcalloc(2, sizeof(*more));

	(void)v;
	(void)k;
	if (t != f->then && ++f->calls >= f->from)
		more[0] = f->then;
	return more;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Runs the tests; *runs gets each record as " FILE@RUN VERDICT", in that
 * order (the order they end in varies with -j), *reasons the reasons
 * given, " FILE@RUN: REASON".
 */
static void follow_runs(struct sched_opts *so, struct test *t, size_t n, struct strbuf *runs,
			struct strbuf *reasons)
{
	static int nrun;
	_cleanup_free_ char *run = xasprintf("%s/follow%d", stage_dir, ++nrun);
	_cleanup_free_ char *ktap = xasprintf("%s.ktap", run);
	struct sched_result res;
	struct uerr e = { 0 };
	char **v;

	so->base.stage = &stage;
	so->base.mode = TT_INF_CPU;
	so->console_copy = -1;
	so->run_dir = run;
	mkdir_p(run, 0755);
	so->run_ktap = fopen(ktap, "we");
	if (sched_run(so, t, n, &res, &e) < 0)
		diag("sched_run: %s", e.msg);
	fclose(so->run_ktap);
	v = xcalloc(res.nrec + 1, sizeof(*v));
	for (size_t i = 0; i < res.nrec; i++)
		v[i] = xasprintf(" %s@%d %s", res.rec[i].test->file, res.rec[i].attempt,
				 verdict_name(res.rec[i].verdict));
	qsort(v, res.nrec, sizeof(*v), by_text);
	for (size_t i = 0; i < res.nrec; i++)
		sb_adds(runs, v[i]);
	strv_free(v);
	for (size_t i = 0; i < res.nrec; i++)
		if (res.rec[i].reason)
			sb_printf(reasons, " %s@%d: %s", res.rec[i].test->file, res.rec[i].attempt,
				  res.rec[i].reason);
	sched_result_free(&res);
}

/*
 * --repeat, --check-determinism: a test file that follows another (hwsim's
 * retry of a batch's failed cases, the rest after a stuck case) runs once
 * in each run it follows, however many of the runs it is queued by; under
 * --check-determinism its runs go in turn, each compared with its first.
 */
static void test_follow_up_runs(void)
{
	static const char want[] =
	    " t0002-fail.sh@1 fail t0002-fail.sh@2 fail t0002-fail.sh@3 fail"
	    " t0005-pass.sh@1 pass t0005-pass.sh@2 pass t0005-pass.sh@3 pass";
	struct test t[1] = { fake_test("t0002-fail.sh", 30) };
	struct test then = fake_test("t0005-pass.sh", 30);
	struct test random = fake_test("t0006-random.sh", 30);
	struct strbuf runs = { 0 }, reasons = { 0 };
	struct follow f = { &then, 1, 0 };
	struct sched_opts so;

	for (int jobs = 1; jobs <= 2; jobs++) {
		_cleanup_free_ char *what = NULL;

		memset(&so, 0, sizeof(so));
		so.jobs = jobs;
		so.repeat = 3;
		so.follow_up = follow_from;
		so.follow_ctx = &f;
		f.calls = 0;
		follow_runs(&so, t, 1, &runs, &reasons);
		what = xasprintf("--repeat=3 -j%d: what follows each failed run runs once in it",
				 jobs);
		is_str(runs.buf ? runs.buf : "", want, what);
		sb_release(&runs);
		sb_release(&reasons);

		so.check_determinism = true;
		f.calls = 0;
		follow_runs(&so, t, 1, &runs, &reasons);
		free(what);
		what =
		    xasprintf("--check-determinism -j%d: what follows runs once in each run", jobs);
		is_str(runs.buf ? runs.buf : "", want, what);
		sb_release(&runs);
		sb_release(&reasons);
	}

	/* Its output that differs from run to run: runs 2 and 3 fail, compared with run 1. */
	memset(&so, 0, sizeof(so));
	so.jobs = 1;
	so.repeat = 3;
	so.check_determinism = true;
	so.follow_up = follow_from;
	so.follow_ctx = &f;
	f = (struct follow){ &random, 1, 0 };
	follow_runs(&so, t, 1, &runs, &reasons);
	is_str(runs.buf ? runs.buf : "",
	       " t0002-fail.sh@1 fail t0002-fail.sh@2 fail t0002-fail.sh@3 fail"
	       " t0006-random.sh@1 pass t0006-random.sh@2 fail t0006-random.sh@3 fail",
	       "--check-determinism: what follows is compared run by run as any file");
	has_str(reasons.buf ? reasons.buf : "",
		" t0006-random.sh@3: ERROR not deterministic: runs 1 and 3 differ at result "
		"output line 3",
		"--check-determinism: its run 3 differs from its run 1");
	sb_release(&runs);
	sb_release(&reasons);

	/* Run 1 has nothing follow it, run 2 has: its runs from 2 on, compared with run 2. */
	f = (struct follow){ &random, 2, 0 };
	follow_runs(&so, t, 1, &runs, &reasons);
	is_str(runs.buf ? runs.buf : "",
	       " t0002-fail.sh@1 fail t0002-fail.sh@2 fail t0002-fail.sh@3 fail"
	       " t0006-random.sh@2 pass t0006-random.sh@3 fail",
	       "--check-determinism: what first follows run 2 runs in runs 2 and 3");
	has_str(reasons.buf ? reasons.buf : "",
		" t0006-random.sh@3: ERROR not deterministic: runs 2 and 3 differ at result "
		"output line 3",
		"--check-determinism: compared with its first run, run 2");
	sb_release(&runs);
	sb_release(&reasons);
}

/* sched_opts.follow_up of hwsim (cmd_hwsim.c's): dirs are ctx's, the stage's copy second. */
static const struct test **follow_hwsim(void *ctx, const struct test *t, enum verdict v,
					struct ktap *k)
{
	return hwsim_follow_up(ctx, t, v, k, true);
}

/*
 * hwsim's retry of a batch's failed cases, through the scheduler and the
 * fake guest, which reads the file it is given from the stage: each
 * run's retry runs its own run's failed cases, whichever run ends first,
 * under the one id, each in its run's folder; and so each run's batch is
 * flaky by its own retry alone. The runs' failures differ: one case fails
 * under each seed (--seeds), or in the first run and the later ones
 * (--repeat, -j1: the first run's starts first).
 */
static void hwsim_runs(struct sched_opts *so, const char *cases, const char *want, const char *what)
{
	static int nrun;
	_cleanup_free_ char *run = xasprintf("%s/hwsim%d", stage_dir, ++nrun);
	_cleanup_free_ char *ktap = xasprintf("%s.ktap", run);
	_cleanup_free_ char *mine = xasprintf("%s/mine", run);
	_cleanup_free_ char *staged = xasprintf("%s/suite/fake", stage_dir);
	_cleanup_free_ char *first = xasprintf("%s/hwsim-first", stage_dir);
	_cleanup_free_ char *text =
	    xasprintf("#!/bin/sh\n. ../lib/hwsim.sh\nhwsim_cases %s\n", cases);
	const char *dirs[2] = { mine, staged };
	struct test t[1] = { fake_test("t0001-hwsim.sh", 30) };
	struct strbuf got = { 0 };
	struct sched_result res;
	struct uerr e = { 0 };

	mkdir_p(mine, 0755);
	mkdir_p(staged, 0755);
	unlink(first);
	for (int d = 0; d < 2; d++) {
		_cleanup_free_ char *path = xasprintf("%s/t0001-hwsim.sh", dirs[d]);

		write_file_atomic(path, text, strlen(text));
	}
	so->follow_up = follow_hwsim;
	so->follow_ctx = dirs;
	so->base.stage = &stage;
	so->base.mode = TT_INF_CPU;
	so->console_copy = -1;
	so->run_dir = run;
	so->run_ktap = fopen(ktap, "we");
	if (sched_run(so, t, 1, &res, &e) < 0) {
		diag("sched_run: %s", e.msg);
		res.nrec = 0;
	}
	fclose(so->run_ktap);
	hwsim_flaky(res.rec, res.nrec);
	/* By run: the batch's verdict and failed cases, then its retry's id, folder and cases. */
	for (int a = 1; a <= so->repeat; a++) {
		sb_printf(&got, " %d:", a);
		for (int retry = 0; retry < 2; retry++)
			for (size_t i = 0; i < res.nrec; i++) {
				const struct record *r = &res.rec[i];

				if (r->attempt != a || (r->test == &t[0]) == retry)
					continue;
				if (retry)
					sb_printf(&got, " then %s in %s:", r->test->id, r->dir);
				else
					sb_printf(&got, " %s", verdict_name(r->verdict));
				for (size_t c = 0; c < r->ktap.ncases; c++)
					if (retry || r->ktap.cases[c].result == KTAP_FAIL)
						sb_printf(&got, " %s", r->ktap.cases[c].title);
			}
	}
	is_str(got.buf ? got.buf : "", want, what);
	sb_release(&got);
	sched_result_free(&res);
}

static void test_hwsim_runs(void)
{
	struct sched_opts so;

	for (int jobs = 1; jobs <= 2; jobs++) {
		_cleanup_free_ char *what = xasprintf(
		    "--seeds=5-6 -j%d: each seed's retry runs that seed's failed cases", jobs);

		memset(&so, 0, sizeof(so));
		so.jobs = jobs;
		so.repeat = 2;
		so.seeds = true;
		so.seed0 = 5;
		hwsim_runs(&so, "a seed5 seed6 b",
			   " 1: flaky seed5 then fake/t0001-hwsim-retry.sh in "
			   "fake/t0001-hwsim-retry.5: seed5"
			   " 2: flaky seed6 then fake/t0001-hwsim-retry.sh in "
			   "fake/t0001-hwsim-retry.6: seed6",
			   what);
	}
	memset(&so, 0, sizeof(so));
	so.jobs = 1;
	so.repeat = 2;
	hwsim_runs(
	    &so, "a first later",
	    " 1: flaky first then fake/t0001-hwsim-retry.sh in fake/t0001-hwsim-retry.1: first"
	    " 2: flaky later then fake/t0001-hwsim-retry.sh in fake/t0001-hwsim-retry.2: later",
	    "--repeat=2: each run's retry runs that run's failed cases");
}

int main(int argc, char **argv)
{
	if (fake_guest_called(argc, argv))
		return fake_guest(argc, argv);
	test_wall_limit();

	if (fake_guest_stage(stage_dir) < 0) {
		perror("staging the fake guest");
		return 1;
	}
	stage.dir = stage_dir;
	supervise_block_signals();
	test_sched_fake();
	test_seeds_follow_up();
	test_follow_up_runs();
	test_hwsim_runs();
	rm_rf(stage_dir);
	return done_testing();
}
