/* SPDX-License-Identifier: MIT */
/*
 * report.h - a run's results folder and its reports.
 *
 *   RESULTS/run-YYYYmmddTHHMMSSZ[-N]/      one per `umlrun run`
 *     ktap.txt results.json junit.xml
 *     SUITE/TEST[.K]/console.log ktap.log cmdline.txt artifacts/
 *   RESULTS/latest -> run-...               the newest run
 *
 * results.json and junit.xml are written when the run ends, also when it
 * ends early (a signal or a crash): every test already run is in them.
 * Both are valid UTF-8 whatever a guest printed (a byte that is not UTF-8
 * becomes U+FFFD); junit.xml is valid XML 1.0 too: a character XML 1.0
 * does not allow (a C0 control other than tab, LF, CR; U+FFFE; U+FFFF)
 * becomes U+FFFD, and tab, LF, CR are written &#9; &#10; &#13;.
 */
#ifndef UMLRUN_REPORT_H
#define UMLRUN_REPORT_H

#include <stdio.h>

#include "boot.h"
#include "ktap.h"
#include "suite.h"
#include "supervise.h"

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

/* run_info.selection of a --rerun-failed run: what failed before, no shard's share. */
#define SELECTION_RERUN "rerun"

struct run_info {
	const char *mode;
	bool has_start;
	long long start;
	const char *kernel;
	const char *kernel_key;
	const char *cmdline_example;
	const char *shard;     /* "K/N" when this run was one shard of a suite */
	char *const *overlays; /* --overlay folders, in order */
	size_t noverlays;
	long long seed;		    /* --shuffle seed, 0 for none */
	long long random_seed;	    /* the guest's (--random-seed) */
	const char *confinement;    /* confine_describe(): "landlock-v7+mount-ns", "none" */
	const char *kernel_release; /* "6.12.118" */
	const char *userspace;	    /* how UML runs guest processes: "ptrace" or "seccomp" */
	const char *host_cpu;	    /* host_cpu_describe(): "AMD EPYC, 2 CPUs" */
	const char *cpu_cost;	    /* --cpu-cost as given ("2000,jitter=50"), or NULL */
	const char
	    *selection; /* --shard: "N:HASH" of the test files split, SELECTION_RERUN, or NULL */
	double wall_seconds;
	int exit_code;
	/* Test ids the run was to run and never started (interrupted, failed). */
	char *const *not_run;
	size_t nnot_run;
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
 * Creates the run folder and points latest at it. A latest link that
 * cannot be made is no failure: e->msg says why (empty otherwise).
 */
int run_dir_create(const char *results, char **run_dir, struct uerr *e);
int report_write_json(const char *path, const struct run_info *ri, const struct record *r, size_t n,
		      struct uerr *e);
int report_write_junit(const char *path, const struct run_info *ri, const struct record *r,
		       size_t n, struct uerr *e);
/*
 * The run's exit code from its records: the most serious wins (3, 124,
 * 1). A test whose files were lost makes a run that would pass exit 3.
 */
int exit_code_of(const struct record *r, size_t n);

#endif
