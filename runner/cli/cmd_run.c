// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - umlrun run and umlrun list: the test files chosen
 * (selection.h), booted in guests by the scheduler, one run folder of
 * results (finish.h). run_tests and run_session serve kselftest, hwsim
 * and compare too (cmd_run.h).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run.h"
#include "commands.h"
#include "gdb.h"
#include "hwsim.h"
#include "profile.h"
#include "selection.h"
#include "supervise.h"

/* --trace, --immediate and --run as the harness's own options, or NULL. */
static char *harness_options(const struct opts *o)
{
	struct strbuf sb = { 0 };

	if (o->trace)
		sb_adds(&sb, " -x");
	if (o->immediate)
		sb_adds(&sb, " -i");
	if (o->run_list)
		sb_printf(&sb, " --run=%s", o->run_list);
	if (!sb.len)
		return NULL;
	memmove(sb.buf, sb.buf + 1, sb.len);
	return sb.buf;
}

/*
 * Every guest died before its init reported anything: not the tests'
 * fault but the host's (ptrace forbidden, no /dev/shm, ...).
 */
static bool no_guest_came_up(const struct sched_result *res)
{
	/* A test's own crash (a panic, /results past its limit) is no host problem. */
	for (size_t i = 0; i < res->nrec; i++)
		if ((res->rec[i].outcome.end != GUEST_CRASH &&
		     res->rec[i].outcome.end != GUEST_KILLED) ||
		    res->rec[i].outcome.began || res->rec[i].ktap.planned >= 0 ||
		    res->rec[i].ktap.ncases > 0)
			return false;
	return res->nrec > 0;
}

/* Boots every test of the list in run->mode; the stage must exist. */
void run_tests(struct session *s, const struct test_list *tests, struct run *run)
{
	const struct opts *o = s->o;
	/* --seeds: one run per seed, as --repeat would run them. */
	int repeat = o->seeds ? (int)(o->seeds_to - o->seeds_from + 1) : o->repeat;
	size_t total = tests->n * (size_t)repeat;
	_cleanup_free_ char *ktap_path = NULL;
	_cleanup_free_ char *example = NULL;
	struct guest_spec base;
	struct sched_opts so;
	double t0 = monotonic_now();
	struct uerr e;
	bool sched_failed;
	char **argv;
	FILE *ktap;

	s->mode = run->mode;
	resolve_start(s);
	/* A command line the kernel cannot take is refused before any folder exists. */
	base = guest_for(s, 0);
	argv = guest_cmdline(&base, &e);
	if (!argv)
		uerr_die(&e);
	example = strv_join(argv);
	strv_free(argv);
	finish_open(o, run);
	ktap_path = xasprintf("%s/ktap.txt", run->dir);
	ktap = fopen(ktap_path, "we");
	if (!ktap)
		die_sys(EXIT_INFRA, "cannot write %s", ktap_path);
	fprintf(ktap, "KTAP version 1\n1..%zu\n", total);
	if (run->out)
		fprintf(run->out, "KTAP version 1\n1..%zu\n", total);
	/* The shuffle seed is printed even when quiet: it replays the order. */
	if (run->out && o->shuffle)
		print_shuffle_seed(run->out, s->seed);
	if (run->out && !o->quiet) {
		fprintf(run->out,
			"# kernel: %s\n# command line (per test, plus umlrun.test=...): %s\n",
			s->kernel.binary, example);
	}
	so = (struct sched_opts){
		.base = base,
		.mem = o->mem,
		.timeout = o->timeout,
		/* Under gdb a person decides when the guest goes on. */
		.wall_timeout = o->gdb ? GDB_WALL_TIMEOUT : o->wall_timeout,
		/* A hostap batch's limit is its slowest case's, after each result. */
		.result_wall_timeout = s->case_wall,
		.follow_up = s->follow_up,
		.follow_ctx = s,
		.jobs = o->jobs ? o->jobs : cpus_usable(),
		.repeat = repeat,
		.seeds = o->seeds,
		.seed0 = o->seeds_from,
		.retry = o->retry,
		.check_determinism = o->check_determinism,
		.console_copy = o->verbose ? STDERR_FILENO : -1,
		.quiet = o->quiet,
		.tracing = o->ntrace_events > 0,
		.progress = isatty(2) && !o->verbose ? stderr : NULL,
		.run_dir = run->dir,
		.run_ktap = ktap,
		.out = run->out,
	};
	if ((size_t)so.jobs > total)
		so.jobs = total ? (int)total : 1;
	sched_failed = sched_run(&so, tests->v, tests->n, &run->res, &e) < 0;
	/* A hostap batch whose failed cases all passed alone is flaky. */
	if (o->cmd == CMD_HWSIM)
		hwsim_flaky(run->res.rec, run->res.nrec);
	/* The host's fault if no guest came up; a run that failed later was not (a full disk). */
	if (sched_failed)
		note("%s%s", e.msg, !run->res.nrec ? DOCTOR_HINT : "");
	else if (no_guest_came_up(&run->res))
		doctor_hint();
	run->wall_seconds = monotonic_now() - t0;
	finish_run(s, tests, total, sched_failed, ktap, ktap_path, example, run);
}

static int by_seed(const void *a, const void *b)
{
	const struct record *x = *(const struct record *const *)a;
	const struct record *y = *(const struct record *const *)b;

	if (x->seed != y->seed)
		return x->seed < y->seed ? -1 : 1;
	return strcmp(x->test->id, y->test->id);
}

/* One word of a command line, quoted as a shell needs it. */
static void add_word(struct strbuf *sb, const char *w)
{
	char *one[] = { (char *)w, NULL };
	_cleanup_free_ char *q = strv_join(one);

	sb_printf(sb, " %s", q);
}

/* The options that choose tests: the replay names its one test instead. */
static bool selects(const char *name)
{
	static const char *const names[] = { "seeds", "filter",	   "exclude", "rerun-failed",
					     "shard", "durations", "shuffle" };

	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

char *replay_command(const struct session *s, const struct test *t, long long seed)
{
	const struct opts *o = s->o;
	struct strbuf sb = { 0 };

	sb_printf(&sb, "umlrun %s", o->cmd_name);
	for (int i = 0, n; i < o->nopt_words; i += n) {
		const char *name, *value;

		n = opt_word(o, i, &name, &value);
		/* What selects, and the "--" that ends the options: the replay's own follow. */
		if (selects(name) || !strcmp(o->opt_words[i], "--"))
			continue;
		/* --start=now replays another clock: the one this run had, in seconds. */
		if (name && !strcmp(name, "start") && value && !strcmp(value, "now")) {
			sb_printf(&sb, " --start=%lld", (long long)s->start_secs);
			continue;
		}
		for (int k = 0; k < n; k++)
			add_word(&sb, o->opt_words[i + k]);
	}
	sb_printf(&sb, " --random-seed=%lld", seed);
	if (!s->replay_select) {
		add_word(&sb, t->id);
		return sb_detach(&sb);
	}
	{
		_cleanup_free_ char *filter = xasprintf("--filter=%s", t->id);

		add_word(&sb, filter);
	}
	for (char *const *w = s->replay_select; *w; w++)
		add_word(&sb, *w);
	return sb_detach(&sb);
}

/* Whether t is one of the tests chosen, not one a run added (hwsim's follow-ups). */
static bool chosen(const struct test_list *tests, const struct test *t)
{
	for (size_t i = 0; i < tests->n; i++)
		if (&tests->v[i] == t)
			return true;
	return false;
}

/*
 * --seeds: the seeds under which each test failed, and the command that
 * replays the first failure (the same seed gives the same run).
 */
static void print_seeds(const struct session *s, const struct test_list *tests,
			const struct run *run)
{
	const struct opts *o = s->o;
	_cleanup_free_ const struct record **fails = xcalloc(run->res.nrec + 1, sizeof(*fails));
	_cleanup_free_ char *replay = NULL;
	struct strbuf sb = { 0 };
	size_t failed = 0, cut = 0;

	/* A run cut short by a signal to umlrun says nothing of its seed. */
	for (size_t i = 0; i < run->res.nrec; i++) {
		if (!run->res.rec[i].seeded)
			continue;
		if (run->res.rec[i].verdict == V_INTERRUPTED)
			cut++;
		else if (!verdict_passed(run->res.rec[i].verdict))
			fails[failed++] = &run->res.rec[i];
	}
	/* In the seeds' order, not the order the runs ended in. */
	qsort(fails, failed, sizeof(*fails), by_seed);
	for (size_t i = 0; i < failed; i++)
		sb_printf(&sb, " %s@%lld", fails[i]->test->id, fails[i]->seed);
	if (!failed) {
		outq_printf(&outq_stdout, "# seeds: %s (%zu run%s%s)\n",
			    cut ? "no run failed" : "every run passed", run->res.nrec - cut,
			    run->res.nrec - cut == 1 ? "" : "s",
			    cut ? ", and some cut short by the interruption" : "");
		return;
	}
	outq_printf(&outq_stdout, "# seeds: %zu of %zu runs failed:%s\n", failed,
		    run->res.nrec - cut, sb.buf);
	sb_release(&sb);
	if (o->mode != TT_INF_CPU) /* warn_seeds_replay said why */
		return;
	/* A test the run added is replayed by the one it followed, which failed too. */
	for (size_t i = 0; i < failed && !replay; i++)
		if (chosen(tests, fails[i]->test))
			replay = replay_command(s, fails[i]->test, fails[i]->seed);
	if (replay)
		outq_printf(&outq_stdout, "# replay the first: %s\n", replay);
}

/*
 * --profile=gcov: the .gcda files each test saved (artifacts/gcov/) and the
 * kernel's .gcno files (kernels/KEY/gcov/) into one HTML report,
 * RUN/coverage/index.html, by uml-config/profiles/gcov-report.sh (lcov).
 * A missing lcov costs the report, not the run's result.
 */
static void coverage_report(const struct session *s, const struct run *run)
{
	_cleanup_free_ char *script = NULL;
	_cleanup_free_ char *gcno = NULL;
	int st;

	if (!s->o->profile || !profile_find(s->o->profile)->gcov || !run->res.nrec)
		return;
	script = xasprintf("%s/uml-config/profiles/gcov-report.sh", s->project);
	gcno = xasprintf("%s/gcov", s->kernel.dir);
	{
		char *argv[] = { "sh", script, gcno, run->dir, NULL };

		st = run_argv(argv, STDERR_FILENO);
	}
	if (st == 0)
		outq_printf(&outq_stdout, "# coverage: %s/coverage/index.html\n", run->dir);
	else
		warn("no coverage report for %s (see above)", run->dir);
}

/* The phases of run once the project is found; kselftest runs its own suites with them. */
int run_session(struct session *s)
{
	const struct opts *o = s->o;
	struct run run = { .mode = o->mode, .out = stdout };
	struct test_list tests;
	size_t pass;
	char also[64];

	find_tests(s, &tests);
	/* Nothing failed: the last run stays latest, no empty run folder replaces it. */
	if (o->rerun_failed && !tests.n && !o->list) {
		note("--rerun-failed: the last run failed nothing; nothing to rerun");
		goto out;
	}
	s->harness = harness_options(o);
	/* --list takes the same options: a wrong one is wrong there too. */
	check_inputs(s);
	if (o->list) {
		print_list(s, &tests);
		goto out;
	}
	if (o->gdb && tests.n != 1)
		die(EXIT_USAGE, "--gdb debugs one guest: name one test file (%zu selected)",
		    tests.n);
	prepare_kernel(s);
	prepare_rootfs(s);
	supervise_block_signals();
	prepare_stage(s);
	setvbuf(stdout, NULL, _IOLBF, 0);
	run_tests(s, &tests, &run);
	pass = passed_count(run.res.rec, run.res.nrec, also, sizeof(also));
	if (o->seeds)
		print_seeds(s, &tests, &run);
	coverage_report(s, &run);
	outq_printf(&outq_stdout, "# %zu/%zu test files passed%s in %.1f s wall; results in %s\n",
		    pass, run.res.nrec, also, run.wall_seconds, run.dir);
	sched_result_free(&run.res);
	free(run.dir);
	free(run.not_run);
	finish_stdout(&run.exit_code);
out:
	tests_free(&tests);
	session_end(s);
	return o->list ? EXIT_PASS : run.exit_code;
}

int cmd_run(const struct opts *o)
{
	struct session s = { .o = o };

	find_project(&s);
	return run_session(&s);
}

int cmd_list(const struct opts *o)
{
	struct session s = { .o = o };
	struct test_list tests;

	find_project(&s);
	find_tests(&s, &tests);
	print_list(&s, &tests);
	tests_free(&tests);
	session_end(&s);
	return EXIT_PASS;
}
