/* SPDX-License-Identifier: MIT */
/*
 * finish.h - the end of a run: one home for what every command that runs
 * tests does last (run, kselftest, hwsim and compare through run_tests;
 * kunit with its own boots).
 *
 *	finish_open(o, &run);		the run folder in the results
 *					folder (--results, else results/),
 *					latest pointed at it
 *	... the guests run; run.res holds their records ...
 *	finish_run(s, ..., &run);	the exit code, what never ran, what
 *					could not be written, the reports,
 *					a signal that came meanwhile
 *	... the summary line (passed_count) ...
 *	finish_stdout(&run.exit_code);	what stdout's reader has not taken
 *
 * The exit code follows docs/exit-codes.md: 128+N when a signal to umlrun
 * (SIGPIPE: stdout's reader gone) cut the run short; else the records'
 * (exit_code_of), 3 when a test never ran or a report, ktap.txt or stdout
 * could not be written.
 */
#ifndef UMLRUN_FINISH_H
#define UMLRUN_FINISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "sched.h"
#include "session.h"
#include "suite.h"

/* One run of a list of tests, in a run folder of its own. */
struct run {
	enum tt_mode mode;
	FILE *out; /* KTAP as it comes, or NULL */
	char *dir;
	struct sched_result res;
	double wall_seconds;
	int exit_code;
	char **not_run; /* ids it never started (pointers into the test list) */
	size_t nnot_run;
};

/* The results folder: --results, else RESULTS_DIR_DEFAULT (the one place it defaults). */
#define RESULTS_DIR_DEFAULT "results"
const char *finish_results_dir(const struct opts *o);
/* The run's folder in the results folder, and its latest link (a warning if not). */
void finish_open(const struct opts *o, struct run *run);
/* run->exit_code from its records, or 128+N when a signal to umlrun cut it short. */
void finish_exit_code(struct run *run);
/*
 * stdout's reader gone (err EPIPE, | head): the run ends by SIGPIPE, as
 * the shell says of a writer SIGPIPE ends, unless a signal ended it first.
 * Whether it did.
 */
bool finish_reader_gone(struct run *run, int err);
/*
 * results.json, junit.xml, report.html, written again with exit code 3
 * when one cannot be; the durations remembered for the next run's order.
 */
void write_reports(struct session *s, struct run *run, const char *example);
/*
 * The end of a scheduled run of total test files (run_tests): its exit
 * code; what never started (said in ktap.txt and on stdout); what could
 * not be written to stdout or ktap (opened at ktap_path; closed here); the
 * reports; and a signal that came while they were written.
 */
void finish_run(struct session *s, const struct test_list *tests, size_t total, bool sched_failed,
		FILE *ktap, const char *ktap_path, const char *example, struct run *run);
/*
 * How many of n records passed, as the exit status counts them: skipped
 * and flaky ones too, which also (" (1 skipped, 0 flaky)", or "") says.
 */
size_t passed_count(const struct record *rec, size_t n, char *also, size_t size);
/*
 * The end of a run's stdout: what its reader has not taken yet, waited for
 * (the reports are written by now), but not past a signal, which makes the
 * exit status 128+N as during the run.
 */
void finish_stdout(int *exit_code);

#endif
