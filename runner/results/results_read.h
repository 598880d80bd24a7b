/* SPDX-License-Identifier: MIT */
/*
 * results_read.h - read a run's results.json back (json-c).
 *
 * `umlrun merge` joins the run folders of the shards of one run, and
 * --durations balances shards by what an earlier run measured: both need
 * the records report_write_json wrote, so this is its inverse.
 *
 *	struct loaded_run lr;
 *	struct uerr e;
 *
 *	if (results_load("results/latest", &lr, &e) < 0)
 *		uerr_die(&e);
 *	for (size_t i = 0; i < lr.n; i++)
 *		printf("%s %s\n", lr.rec[i].test->id, verdict_name(lr.rec[i].verdict));
 *	results_free(&lr);
 *
 * What results.json does not keep comes back empty: a test's settings
 * (timeout, mem, cmdline), the outcome's detail, job_signal and
 * uml_status, and the KTAP plan (ktap.planned is the number of cases).
 * Everything else round-trips (control characters aside, see below):
 * records keep their file order, each points at its own struct test
 * (rec[i].test == &tests[i], so a test repeated with --repeat has one
 * struct test per attempt), and every string is owned by the loaded_run.
 *
 * A missing, unreadable or malformed file, or one that is not a umlrun
 * results file, fails with EXIT_USAGE and a message naming the path and
 * what is wrong with it ("tests[3]: no \"id\"").
 *
 * The file may come from another machine (merge, --durations), and what
 * it holds goes back into KTAP lines, XML and messages:
 *   - the text of ids, reasons, "lost", subtest names and directives,
 *     "shard", "cpu_cost", "selection" and the enumerated words holds no line break
 *     (refused); any other C0 control but tab, DEL, a C1 control
 *     (U+0080..U+009F) and a byte that is not UTF-8 come back as \xHH
 *     of their bytes, as sched.c shows what a guest printed;
 *   - a test's "dir" is a folder inside the run folder (no empty, . or
 *     .. step), with no control character (refused): a run names them
 *     after test files (ASCII);
 *   - a test's "id" is SUITE/FILE, each a name suite.c accepts (not . or
 *     ..), and (with "attempt") listed once; its "dir" is another test's
 *     in no record;
 *   - a test holds at most KTAP_MAX_CASES subtests (what a run keeps), a
 *     file RESULTS_SUBTESTS_MAX in all and RESULTS_FILE_MAX bytes;
 *   - "attempt" is 1 to 1000000, "failed_attempts" 0 to 1000000, and
 *     every number of seconds finite, 0 to 1e10 (above a century, the
 *     longest timeout); anything else is refused.
 * results_load reads RUN_DIR/results.json only when it is a regular file,
 * not a symbolic link ("PATH is a symbolic link: a run folder has none");
 * results_load_file reads the path it is given as it is.
 */
#ifndef UMLRUN_RESULTS_READ_H
#define UMLRUN_RESULTS_READ_H

#include "report.h"

/*
 * What umlrun reads of one results.json, and merge of all its shards
 * together: json-c took about 1.3 GB for a file of 1,000,000 subtests (54
 * MB), 2.5 GB for 2,000,000 (80 MB). Past them: EXIT_USAGE, one line.
 */
#define RESULTS_FILE_MAX     ((off_t)64 << 20)
#define RESULTS_SUBTESTS_MAX 1000000

struct loaded_run {
	struct run_info info; /* its strings point into the fields below */
	struct test *tests;   /* n, one per record */
	struct record *rec;   /* n, in the file's order */
	size_t n;
	char *dir; /* the run folder, as given */
	/* Owned copies behind info's const char pointers. */
	char *mode, *kernel, *kernel_key, *cmdline, *shard;
	char *confinement, *kernel_release, *userspace, *host_cpu, *cpu_cost, *selection;
	char **overlays;
	char **not_run;
};

/* Reads run_dir/results.json. On failure lr is left empty (results_free is safe). */
int results_load(const char *run_dir, struct loaded_run *lr, struct uerr *e);
/* The same for a results.json given by its path; lr->dir is its folder. */
int results_load_file(const char *json_path, struct loaded_run *lr, struct uerr *e);
/*
 * The same for the text of a results.json, len bytes at text; name stands
 * for it in messages. lr->dir is NULL.
 */
int results_parse(const char *text, size_t len, const char *name, struct loaded_run *lr,
		  struct uerr *e);
void results_free(struct loaded_run *lr);

#endif
