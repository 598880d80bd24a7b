// SPDX-License-Identifier: MIT
/*
 * cmd_compare.c - umlrun compare: each test file run twice on the same
 * kernel and root folder, time travel off then on (run_tests), and the
 * wall-clock speedup per file, as a table or JSON.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd_run.h"
#include "commands.h"
#include "selection.h"
#include "supervise.h"

/* --sample N: the N tests whose ids hash lowest, a choice that never varies. */
static void sample_tests(struct test_list *tests, int n)
{
	char(*h)[65] = xcalloc(tests->n, sizeof(*h));
	bool *keep = xcalloc(tests->n, sizeof(bool));

	for (size_t i = 0; i < tests->n; i++) {
		struct hasher *hs = hasher_new();

		hasher_add_str(hs, tests->v[i].id);
		hasher_final(hs, h[i]);
	}
	for (size_t i = 0; i < tests->n; i++) {
		size_t lower = 0;

		for (size_t j = 0; j < tests->n; j++)
			lower += strcmp(h[j], h[i]) < 0;
		keep[i] = lower < (size_t)n;
	}
	keep_tests(tests, keep);
	free(keep);
	free(h);
}

static const struct record *find_record(const struct run *run, const char *id)
{
	for (size_t i = 0; i < run->res.nrec; i++)
		if (!strcmp(run->res.rec[i].test->id, id))
			return &run->res.rec[i];
	return NULL;
}

/* A speedup to show: wall_off / wall, or NULL when there is no wall to divide by. */
static char *speedup_text(double off, double tt, bool json)
{
	if (!(tt > 0) || !(off > 0))
		return xstrdup(json ? "null" : "-");
	return xasprintf(json ? "%.2f" : "%.1fx", off / tt);
}

static void print_compare(const struct test_list *tests, const struct run *off,
			  const struct run *tt, int jobs, bool json)
{
	double sim = 0, woff = 0, wtt = 0;
	bool any_bound = false;
	size_t shown = 0;
	/* A run that never started (the first was interrupted) has no folder. */
	const char *tt_dir = tt->dir ? tt->dir : "(not run)";
	const int sig = off->res.host_signal ? off->res.host_signal : tt->res.host_signal;
	/* Through stdout's queue (util.h): a reader that stops reading stops nothing. */
	struct strbuf out = { 0 };

	if (json)
		sb_printf(
		    &out,
		    "{\n  \"mode\": \"%s\",\n  \"off_run\": \"%s\",\n  \"mode_run\": %s%s%s,\n"
		    "%s%s%s  \"tests\": [",
		    tt_mode_name(tt->mode), off->dir, tt->dir ? "\"" : "",
		    tt->dir ? tt->dir : "null", tt->dir ? "\"" : "",
		    sig ? "  \"interrupted\": \"" : "", sig ? sigabbrev_np(sig) : "",
		    sig ? "\",\n" : "");
	else
		sb_printf(
		    &out,
		    "# umlrun compare: %zu test files, each run twice on the same kernel and\n"
		    "# root folder, %d guests at a time: time travel off (real time), then %s\n"
		    "# runs: %s and %s\n"
		    "# simulated_s: guest time the test took (measured in the %s guest);\n"
		    "# wall_*: host seconds per test file, boot to power-off; speedup = "
		    "wall_off/wall_tt\n"
		    "%-44s %8s %12s %10s %10s %9s\n",
		    tests->n, jobs, tt_mode_name(tt->mode), off->dir, tt_dir,
		    tt_mode_name(tt->mode), "test", "result", "simulated_s", "wall_off", "wall_tt",
		    "speedup");
	for (size_t i = 0; i < tests->n; i++) {
		const struct record *a = find_record(off, tests->v[i].id);
		const struct record *b = find_record(tt, tests->v[i].id);
		_cleanup_free_ char *speedup = NULL;
		/* Time travel off stopped at its limit: the real speedup is larger. */
		bool bound = a && a->verdict == V_TIMEOUT;

		if (!a || !b)
			continue;
		any_bound |= bound;
		sim += b->outcome.sim_seconds;
		woff += a->outcome.wall_seconds;
		wtt += b->outcome.wall_seconds;
		speedup = speedup_text(a->outcome.wall_seconds, b->outcome.wall_seconds, json);
		if (json)
			sb_printf(
			    &out,
			    "%s\n    {\"id\": \"%s\", \"result_off\": \"%s\", \"result\": \"%s\", "
			    "\"sim_seconds\": %.3f, \"wall_off\": %.3f, \"wall\": %.3f, "
			    "\"speedup\": %s, \"speedup_is_lower_bound\": %s}",
			    shown ? "," : "", b->test->id, verdict_name(a->verdict),
			    verdict_name(b->verdict), b->outcome.sim_seconds,
			    a->outcome.wall_seconds, b->outcome.wall_seconds, speedup,
			    bound ? "true" : "false");
		else
			sb_printf(&out, "%-44s %8s %12.3f %10.3f %10.3f %2s%7s\n", b->test->id,
				  verdict_name(b->verdict), b->outcome.sim_seconds,
				  a->outcome.wall_seconds, b->outcome.wall_seconds,
				  bound ? ">=" : "", speedup);
		shown++;
	}
	{
		_cleanup_free_ char *total = speedup_text(woff, wtt, json);

		if (json)
			sb_printf(
			    &out,
			    "\n  ],\n  \"total\": {\"sim_seconds\": %.3f, \"wall_off\": %.3f, "
			    "\"wall\": %.3f, \"speedup\": %s, \"speedup_is_lower_bound\": %s, "
			    "\"run_wall_off\": %.3f, \"run_wall\": %.3f}\n}\n",
			    sim, woff, wtt, total, any_bound ? "true" : "false", off->wall_seconds,
			    tt->wall_seconds);
		else
			sb_printf(&out,
				  "%-44s %8s %12.3f %10.3f %10.3f %2s%7s\n"
				  "# whole runs: %.1f s wall off, %.1f s wall with %s\n%s",
				  "total", "", sim, woff, wtt, any_bound ? ">=" : "", total,
				  off->wall_seconds, tt->wall_seconds, tt_mode_name(tt->mode),
				  any_bound
				      ? "# >=: time travel off hit its limit, so it would have "
					"taken longer\n"
				      : "");
	}
	if (!json && sig)
		sb_printf(&out, "# interrupted by %s: %zu of %zu test files compared\n",
			  sigabbrev_np(sig), shown, tests->n);
	outq_add(&outq_stdout, out.buf ? out.buf : "", out.len);
	sb_release(&out);
}

int cmd_compare(const struct opts *o)
{
	struct session s = { .o = o };
	struct run off = { .mode = TT_OFF }, tt = { .mode = o->mode };
	struct test_list tests;
	int code;

	find_project(&s);
	find_tests(&s, &tests);
	/* Nothing failed: as run says it; no two empty runs, the last run stays latest. */
	if (o->rerun_failed && !tests.n) {
		note("--rerun-failed: the last run failed nothing; nothing to rerun");
		tests_free(&tests);
		session_end(&s);
		return EXIT_PASS;
	}
	if (o->sample && (size_t)o->sample < tests.n)
		sample_tests(&tests, o->sample);
	check_inputs(&s);
	prepare_kernel(&s);
	prepare_rootfs(&s);
	supervise_block_signals();
	prepare_stage(&s);
	run_tests(&s, &tests, &off);
	if (!off.res.host_signal)
		run_tests(&s, &tests, &tt);
	print_compare(&tests, &off, &tt, o->jobs ? o->jobs : cpus_usable(), o->json);
	code = off.res.host_signal ? off.exit_code : tt.exit_code;
	finish_stdout(&code);
	sched_result_free(&off.res);
	sched_result_free(&tt.res);
	free(off.dir);
	free(tt.dir);
	tests_free(&tests);
	session_end(&s);
	return code;
}
