/* SPDX-License-Identifier: MIT */
/*
 * kunit.h - the kernel's KUnit tests in one guest under time travel.
 *
 * `umlrun kunit [--kunitconfig=FILE|DIR] [GLOB]` builds a kernel with the
 * kunitconfig merged in (after the project's fragments and
 * uml-config/kunit/kunit.config, as a --config fragment: cached and
 * verified the same way, docs/kernel.md), boots it once, and reads the
 * KTAP KUnit prints on the console at boot. The kernel powers itself off
 * when the tests are done (kunit_shutdown=poweroff): no root folder, no
 * init. Each suite becomes one record of the run, `kunit/SUITE`, with its
 * cases as that record's cases, so the run folder, reports and exit codes
 * are those of `umlrun run`:
 *
 *	struct kunit_log k;
 *	kunit_log_init(&k);
 *	for each console line: kunit_log_feed(&k, line, monotonic_now());
 *	kunit_records(&k, &guest_outcome, &tests, &records, &n);
 *
 * Parsing never prints or exits.
 */
#ifndef UMLRUN_KUNIT_H
#define UMLRUN_KUNIT_H

#include "ktap.h"
#include "record.h"
#include "suite.h"
#include "util.h"

/* The suite every KUnit record belongs to: ids are kunit/SUITE. */
#define KUNIT_SUITE "kunit"
/* How a kunitconfig is named inside a folder (kunit.py's KUNITCONFIG_PATH). */
#define KUNITCONFIG_NAME ".kunitconfig"
/* The guest's memory and the wall-clock limit of the boot, as kunit.py's. */
#define KUNIT_MEM_DEFAULT	   "1G"
#define KUNIT_WALL_TIMEOUT_DEFAULT 300

/*
 * --kunitconfig=FILE|DIR as kunit.py takes it (a DIR means DIR/.kunitconfig),
 * looked up from the current folder first, then in the kernel tree (so
 * `--kunitconfig=lib/kunit` names the tree's own), then in umlrun's own
 * folder, project (`uml-config/kunit/...` from anywhere; NULL: not there).
 * *path: its real path. A missing one is a usage error (exit 2).
 */
int kunitconfig_resolve(const char *arg, const char *tree, const char *project, char **path,
			struct uerr *e);

/*
 * GLOB as the kernel's kunit.filter_glob= takes it (SUITE or SUITE.CASE
 * globs): one word of the kernel command line, so no spaces or quotes.
 */
bool kunit_glob_valid(const char *glob);

/*
 * --filter as kunit.py passes it to the kernel's kunit.filter=: ATTR OP
 * VALUE filters (OP one of < > <= >= != =), separated by commas, blanks
 * after a comma allowed (the kernel skips them). The filters joined into
 * one word of the kernel command line ("speed>slow,module=example"), or
 * NULL for one that is not a filter.
 */
char *kunit_filter_param(char *const *filters, size_t n);

/* One suite as the console told it. */
struct kunit_suite {
	char *name;
	struct ktap ktap;	     /* its cases, as top-level results */
	struct strbuf text;	     /* its KTAP lines, less the console's timestamps */
	struct strbuf console;	     /* every console line while it ran, as printed */
	bool ended;		     /* its own result line came */
	bool ok;		     /* that line's "ok" */
	char *reason;		     /* that line's directive ("SKIP why"), or NULL */
	double sim_start, sim_end;   /* console timestamps: simulated seconds, -1 if none */
	double wall_start, wall_end; /* when its first and last lines reached umlrun */
	char *cmdline;		     /* its boot's command line, if not the run's */
	int stall_breaks;	     /* the wall-clock stall breaker's episodes in it */
};

struct kunit_log {
	bool started; /* KUnit's top-level "KTAP version" line came */
	int planned;  /* suites in the top-level plan, -1 before it */
	struct kunit_suite *suites;
	size_t n;
	bool open;	       /* suites[n - 1] has not ended */
	bool stalled;	       /* in a wall-clock stall breaker's episode */
	double last_sim;       /* the last console timestamp, -1 if none */
	struct strbuf list;    /* kunit.action=list: "suite.case" lines */
	struct strbuf listed;  /* kunit.action=list or list_attr: every line KUnit listed */
	struct strbuf console; /* everything the console said (kunit_log_console) */
	struct strbuf partial; /* its last line, until the newline comes */
};

void kunit_log_init(struct kunit_log *k);
/* One console line, without its newline, and the host clock when it came. */
void kunit_log_feed(struct kunit_log *k, const char *line, double wall);
/* Console output as it comes: kept whole, and fed to kunit_log_feed by line. */
void kunit_log_console(struct kunit_log *k, const char *data, size_t len, double wall);
/* The planned suites all ended. */
bool kunit_log_complete(const struct kunit_log *k);
void kunit_log_free(struct kunit_log *k);

/*
 * Moves from's suites (and plan) after into's, and appends a copy of its
 * console (--run_isolated: one boot each). from keeps its console, and
 * no suite.
 */
void kunit_log_append(struct kunit_log *into, struct kunit_log *from);
/*
 * kunit.action=list's SUITE.CASE lines (k->list), one string each, and the
 * suites among them in order, each once (kunit.py _suites_from_test_list).
 * NULL-terminated.
 */
char **kunit_list_lines(const char *list);
char **kunit_list_suites(const char *list);
/* Renames a suite (and its KTAP's "# Subtest:" line): SUITE.CASE for one test. */
void kunit_suite_rename(struct kunit_suite *s, const char *name);

/*
 * The "[  12.345678] " a console line starts with when the kernel has
 * CONFIG_PRINTK_TIME: *secs gets the seconds, and the text after it is
 * returned; line itself when it has none (*secs = -1).
 */
const char *kunit_strip_time(const char *line, double *secs);

/*
 * The run's records, one per suite in the order the suites ran. A suite
 * that ended is judged by its cases and its own result line (pass, fail,
 * skip); one the guest did not finish gets the guest's end (a crash, a
 * timeout); suites of the plan that never started become one record
 * `kunit/not-run`. Without KUnit output at all: one record `kunit/boot`
 * with the guest's end. guest: how the guest ended; a guest that powered
 * off after the complete KTAP ended as it should. tests gets the struct
 * test every record points to (free both with kunit_records_free).
 */
void kunit_records(const struct kunit_log *k, const struct guest_outcome *guest,
		   struct test_list *tests, struct record **rec, size_t *n);
void kunit_records_free(struct test_list *tests, struct record *rec, size_t n);

/*
 * The run folder's per-suite folders: RUN/kunit/SUITE/ with ktap.log (its
 * KTAP), console.log (the console while it ran; the whole boot's for the
 * boot and not-run records) and cmdline.txt, as the records' dir fields
 * name them, and RUN/console.log (the whole boot).
 */
int kunit_write_dirs(const char *run_dir, const struct kunit_log *k, const char *cmdline,
		     const struct record *rec, size_t n, struct uerr *e);
/*
 * The run's KTAP, for stdout and ktap.txt: a plan, then per record its
 * suite's KTAP as a subtest (left out when quiet) and its result line.
 */
enum kunit_lines {
	KUNIT_LINES_ALL,    /* every suite's lines */
	KUNIT_LINES_NONE,   /* -q: result lines only */
	KUNIT_LINES_FAILED, /* --failed: the lines of suites that did not pass */
};
char *kunit_run_ktap(const struct kunit_log *k, const struct record *rec, size_t n,
		     enum kunit_lines lines);

#endif
