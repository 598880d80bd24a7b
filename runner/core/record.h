/* SPDX-License-Identifier: MIT */
/*
 * record.h - what a run keeps of each test file it ran: its record, the
 * verdict drawn from the guest's outcome and the file's KTAP, and the
 * run's exit code from its records.
 *
 * The schedulers and runners (sched.c, kunit.c, hwsim.c) make records,
 * the reports write them (report.h, html.h), results_read.h reads them
 * back and merge.c joins them.
 */
#ifndef UMLRUN_RECORD_H
#define UMLRUN_RECORD_H

#include "ktap.h"
#include "outcome.h"
#include "suite.h"
#include "util.h"

enum verdict {
	V_PASS,
	V_FAIL,
	V_SKIP,
	V_FLAKY, /* failed, then passed on a retry: never a plain pass */
	V_TIMEOUT,
	V_CRASH,
	V_INTERRUPTED,
};

struct record {
	const struct test *test;
	int attempt; /* 1..repeat */
	bool seeded; /* with --seeds: seed is this run's guest random seed */
	long long seed;
	char *dir; /* the test's folder, relative to the run folder */
	struct guest_outcome outcome;
	struct ktap ktap;
	enum verdict verdict;
	char *reason;	     /* for the result line's directive */
	char *lost;	     /* what of the test's files could not be kept, or NULL */
	int failed_attempts; /* with --retry: failures before this result */
};

const char *verdict_name(enum verdict v);
/* Whether a verdict counts as passed: pass, skip, flaky. */
bool verdict_passed(enum verdict v);
/*
 * The line that ends a test file's block in the run's KTAP, the one
 * format for sched.c (as the run goes) and merge.c (rebuilding it):
 * "ok|not ok NUMBER ID[@SEED| (run K)][ # REASON]\n".
 */
void record_result_line(struct strbuf *sb, const struct record *r, size_t number);
enum verdict verdict_of(const struct guest_outcome *o, const struct ktap *k, char **reason);
/* What to do about a timeout (suite: a test file of a suite, else exec), or NULL. */
const char *timeout_hint(const struct guest_outcome *o, bool suite);
/*
 * The run's exit code from its records: the most serious wins (3, 124,
 * 1). A test whose files were lost makes a run that would pass exit 3.
 */
int exit_code_of(const struct record *r, size_t n);

#endif
