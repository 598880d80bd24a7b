// SPDX-License-Identifier: MIT
/* record.c - verdicts, the result line of a record, the run's exit code. */
#define _GNU_SOURCE
#include "record.h"

#include <stdio.h>

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = { "pass",	"fail",	 "skip",       "flaky",
					     "timeout", "crash", "interrupted" };

	return names[v];
}

const char *timeout_hint(const struct guest_outcome *o, bool suite)
{
	if (o->end == GUEST_SIM_TIMEOUT)
		return suite ? "raise the simulated-time limit with --timeout, or timeout= in the "
			       "suite's settings"
			     : "raise the simulated-time limit with --timeout";
	if (o->end == GUEST_WALL_TIMEOUT)
		return suite
			   ? "raise the wall-clock limit with --wall-timeout, or wall_timeout= in "
			     "the suite's settings; under inf-cpu a busy loop keeps simulated "
			     "time still (--time-travel=basic lets it run)"
			   : "raise the wall-clock limit with --wall-timeout; under inf-cpu a "
			     "busy loop keeps simulated time still (--time-travel=basic lets it "
			     "run)";
	return NULL;
}

enum verdict verdict_of(const struct guest_outcome *o, const struct ktap *k, char **reason)
{
	*reason = NULL;
	switch (o->end) {
	case GUEST_REPORTED:
		break;
	case GUEST_SIM_TIMEOUT:
	case GUEST_WALL_TIMEOUT:
		*reason = xasprintf("TIMEOUT %s", o->detail);
		return V_TIMEOUT;
	case GUEST_INTERRUPTED:
		*reason = xasprintf("ERROR interrupted: %s", o->detail);
		return V_INTERRUPTED;
	case GUEST_CRASH:
	case GUEST_KILLED:
	case GUEST_INIT_ERROR:
		*reason = xasprintf("ERROR %s", o->detail);
		return V_CRASH;
	}
	/* A KASAN or lockdep report fails the test, however it ended. */
	if (o->kernel_report[0]) {
		*reason = xasprintf("ERROR kernel report: %s", o->kernel_report);
		return V_FAIL;
	}
	if (o->job_signal) {
		*reason = xasprintf("ERROR the test was killed by signal %d", o->job_signal);
		return V_FAIL;
	}
	if (ktap_skipped(k) && o->job_exit == 0) {
		/* One case skipped: its reason is the file's (a --plain program's exit 4). */
		const char *why = k->skip_reason ? k->skip_reason
				  : k->ncases == 1 && !k->dropped && k->cases[0].directive[0]
				      ? k->cases[0].directive
				      : "every test skipped";

		*reason = xasprintf("SKIP %s", why);
		return V_SKIP;
	}
	if (o->job_exit == 0 && ktap_passed(k))
		return V_PASS;
	if (o->job_exit == 0 && !k->counts[KTAP_FAIL]) {
		*reason = xstrdup(k->planned < 0 ? "ERROR no plan line: the test file ended early"
				  : k->planned == 0 && !k->ncases && !k->dropped
				      ? "ERROR no tests (1..0): a file that runs none fails; "
					"to skip it, give the plan a SKIP directive and a reason "
					"(the harness: skip_all=REASON)"
				      : "ERROR the plan and the results disagree");
	} else if (k->dropped) {
		/* The failures may all be past what was kept: say so, or none shows. */
		int kept = 0;

		for (size_t i = 0; i < k->ncases; i++)
			kept += k->cases[i].result == KTAP_FAIL;
		if (k->counts[KTAP_FAIL] > kept)
			*reason =
			    xasprintf("FAIL %d of the %zu results past the first %d failed "
				      "(counted, not kept: see console.log)",
				      k->counts[KTAP_FAIL] - kept, k->dropped, KTAP_MAX_CASES);
	} else if (k->planned < 0) {
		/* An exit in a test's body: the tests after it never ran. */
		*reason = o->job_exit ? xasprintf("ERROR the test file exited with status %d "
						  "before its plan line",
						  o->job_exit)
				      : xstrdup("ERROR no plan line: the test file ended early");
	} else if (!k->counts[KTAP_FAIL]) {
		/* No failing case says why: the status does. */
		*reason = xasprintf("ERROR the test file exited with status %d", o->job_exit);
	}
	return V_FAIL;
}

bool verdict_passed(enum verdict v)
{
	return v == V_PASS || v == V_SKIP || v == V_FLAKY;
}

void record_result_line(struct strbuf *sb, const struct record *r, size_t number)
{
	sb_printf(sb, "%s %zu %s", verdict_passed(r->verdict) ? "ok" : "not ok", number,
		  r->test->id);
	/* --repeat: run 1 is the id alone, as without --repeat; the others say which. */
	if (r->seeded)
		sb_printf(sb, "@%lld", r->seed);
	else if (r->attempt > 1)
		sb_printf(sb, " (run %d)", r->attempt);
	if (r->reason) {
		/* The reason may hold a guest's bytes (a panic line, the init's error). */
		_cleanup_free_ char *shown = str_shown(r->reason);

		sb_printf(sb, " # %s", shown);
	}
	sb_adds(sb, "\n");
}

int exit_code_of(const struct record *r, size_t n)
{
	bool crash = false, timeout = false, fail = false, lost = false;

	for (size_t i = 0; i < n; i++) {
		crash |= r[i].verdict == V_CRASH;
		timeout |= r[i].verdict == V_TIMEOUT;
		fail |= r[i].verdict == V_FAIL;
		lost |= r[i].lost != NULL;
	}
	if (crash)
		return EXIT_INFRA;
	if (timeout)
		return EXIT_TIMEOUT;
	if (fail)
		return EXIT_TESTFAIL;
	return lost ? EXIT_INFRA : EXIT_PASS;
}
