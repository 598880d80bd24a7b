// SPDX-License-Identifier: MIT
/* test_kunit.c - KUnit's KTAP on a guest console: suites, cases, verdicts. */
#define _GNU_SOURCE
#include "kunit.h"
#include "kunit_json.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

/* A 6.1 console: timestamps, other kernel messages, nested parameters. */
static const char console_61[] =
    "Linux version 6.1.0 (root@host) #1 Mon Jan 1 00:00:00 UTC 2024\n"
    "[    0.000000] Zone ranges:\n"
    "[    0.310000] clocksource: Switched to clocksource timer\n"
    "[    0.350000] KTAP version 1\n"
    "[    0.350000] 1..3\n"
    "[    0.350000]     KTAP version 1\n"
    "[    0.350000]     # Subtest: time_test_cases\n"
    "[    0.350000]     1..1\n"
    "[    2.000000]     ok 1 time64_to_tm_test_date_range\n"
    "[    2.000000] # time_test_cases: pass:1 fail:0 skip:0 total:1\n"
    "[    2.000000] # Totals: pass:1 fail:0 skip:0 total:1\n"
    "[    2.000000] ok 1 time_test_cases\n"
    "[    2.000000]     KTAP version 1\n"
    "[    2.000000]     # Subtest: example\n"
    "[    2.000000]     1..4\n"
    "[    2.000000]     # example_simple_test: initializing\n"
    "[    2.000000]     ok 1 example_simple_test\n"
    "[    2.000000]     ok 2 example_skip_test # SKIP this test should be skipped\n"
    "[    2.100000] random: crng init done\n"
    "[    2.200000] time-travel: stall breaker: no progress in 5000 ms of wall time, "
    "simulated time moved on (not deterministic)\n"
    "[    2.000000]         KTAP version 1\n"
    "[    2.000000]         # Subtest: example_params_test\n"
    "[    2.000000]         ok 1 example value 2\n"
    "[    2.000000]         ok 2 example value 1\n"
    "[    2.000000]         ok 3 example value 0 # SKIP unsupported param value\n"
    "[    2.000000]     # example_params_test: pass:2 fail:0 skip:1 total:3\n"
    "[    2.000000]     ok 3 example_params_test\n"
    "[    3.500000]     # example_sleep_test: EXPECTATION FAILED at lib/x.c:12\n"
    "[    3.500000]     not ok 4 example_sleep_test\n"
    "[    3.500000] # example: pass:2 fail:1 skip:1 total:4\n"
    "[    3.500000] not ok 2 example\n"
    "[    3.500000] time-travel: stall breaker off: the guest made progress\n"
    "[    3.500000]     KTAP version 1\n"
    "[    3.500000]     # Subtest: skipped_suite\n"
    "[    3.500000]     1..1\n"
    "[    3.500000]     ok 1 only_case # SKIP no hardware\n"
    "[    3.500000] ok 3 skipped_suite # SKIP no hardware\n"
    "[    3.600000] reboot: Power down\n";

static void feed_text(struct kunit_log *k, const char *text, double wall)
{
	/* In uneven pieces, as a pipe delivers them. */
	size_t len = strlen(text);

	for (size_t off = 0; off < len; off += 37) {
		size_t n = len - off < 37 ? len - off : 37;

		kunit_log_console(k, text + off, n, wall + (double)off / 1000);
	}
}

static struct guest_outcome powered_off(void)
{
	struct guest_outcome o;

	memset(&o, 0, sizeof(o));
	/* What supervise.c says of a guest that ends with no init report. */
	o.end = GUEST_CRASH;
	snprintf(o.detail, sizeof(o.detail), "the guest ended (exit status 0) without reporting");
	o.uml_status = 0; /* exited 0 */
	o.wall_seconds = 4.0;
	o.cost.host_context_switches = 11;
	return o;
}

static void test_strip_time(void)
{
	double s;

	is_str(kunit_strip_time("[    0.350000] KTAP version 1", &s), "KTAP version 1",
	       "strip_time: the text after the stamp");
	ok(s > 0.3499 && s < 0.3501, "strip_time: the seconds");
	is_str(kunit_strip_time("[123456.000001]     ok 1 x", &s), "    ok 1 x",
	       "strip_time: a wide stamp, indentation kept");
	ok(s > 123455.9 && s < 123456.1, "strip_time: wide seconds");
	is_str(kunit_strip_time("KTAP version 1", &s), "KTAP version 1",
	       "strip_time: no stamp, line as is");
	ok(s < 0, "strip_time: no stamp, -1");
	is_str(kunit_strip_time("[ x] y", &s), "[ x] y", "strip_time: not a stamp");
}

static void test_parse(void)
{
	struct kunit_log k;

	kunit_log_init(&k);
	feed_text(&k, console_61, 100.0);
	ok(k.started, "parse: KTAP found");
	is_int(k.planned, 3, "parse: three suites planned");
	is_int((long long)k.n, 3, "parse: three suites");
	ok(kunit_log_complete(&k), "parse: complete");
	is_str(k.suites[0].name, "time_test_cases", "parse: first suite's name");
	ok(k.suites[0].ended && k.suites[0].ok, "parse: first suite ok");
	is_int((long long)k.suites[0].ktap.ncases, 1, "parse: first suite, one case");
	ok(ktap_passed(&k.suites[0].ktap), "parse: first suite's cases passed");
	ok(k.suites[0].sim_end - k.suites[0].sim_start > 1.64 &&
	       k.suites[0].sim_end - k.suites[0].sim_start < 1.66,
	   "parse: first suite's simulated time from the stamps");
	is_str(k.suites[1].name, "example", "parse: second suite");
	ok(!k.suites[1].ok, "parse: second suite not ok");
	is_int((long long)k.suites[1].ktap.ncases, 4, "parse: parameters are not cases");
	is_int(k.suites[1].ktap.counts[KTAP_SKIP], 1, "parse: one skipped case");
	is_int(k.suites[1].ktap.counts[KTAP_FAIL], 1, "parse: one failed case");
	is_str(k.suites[1].ktap.cases[3].title, "example_sleep_test", "parse: failed case's title");
	ok(strstr(k.suites[1].text.buf, "    ok 1 example value 2\n") != NULL,
	   "parse: the suite's KTAP keeps the parameters, one level in");
	ok(strstr(k.suites[1].text.buf, "# example: pass:2") != NULL,
	   "parse: the suite's KTAP keeps its summary");
	ok(!strstr(k.suites[1].text.buf, "not ok 2 example"),
	   "parse: the suite's own result line is umlrun's to print");
	ok(strstr(k.suites[1].console.buf, "random: crng init done") != NULL,
	   "parse: the suite's console keeps other kernel lines");
	ok(!strstr(k.suites[1].text.buf, "crng"), "parse: ... which are not KTAP");
	is_str(k.suites[2].reason, "SKIP no hardware", "parse: a skipped suite's reason");
	ok(k.last_sim > 3.59 && k.last_sim < 3.61, "parse: the last stamp");
	ok(strstr(k.console.buf, "reboot: Power down") != NULL, "parse: the whole console kept");
	kunit_log_free(&k);
}

/* An episode that lasts from one suite into the next marks both, not the third. */
static void test_stall_span(void)
{
	static const char console[] =
	    "[    0.000000] KTAP version 1\n"
	    "[    0.000000] 1..3\n"
	    "[    0.000000]     KTAP version 1\n"
	    "[    0.000000]     # Subtest: spins\n"
	    "[    0.000000]     1..1\n"
	    "[    0.000000] time-travel: stall breaker: no progress in 20000 ms of wall time, "
	    "simulated time moved on (not deterministic)\n"
	    "[   10.000000]     ok 1 waits_for_timer\n"
	    "[   10.000000] ok 1 spins\n"
	    "[   10.000000]     KTAP version 1\n"
	    "[   10.000000]     # Subtest: computes\n"
	    "[   10.000000]     1..1\n"
	    "[   10.500000]     ok 1 long_loop\n"
	    "[   10.500000] ok 2 computes\n"
	    "[   10.500000] time-travel: stall breaker off: the guest made progress\n"
	    "[   10.500000]     KTAP version 1\n"
	    "[   10.500000]     # Subtest: sleeps\n"
	    "[   10.500000]     1..1\n"
	    "[   11.500000]     ok 1 msleep\n"
	    "[   11.500000] ok 3 sleeps\n"
	    "[   11.500000] reboot: Power down\n";
	struct kunit_log k;
	struct guest_outcome o = powered_off();
	struct test_list tests;
	struct record *rec;
	size_t n;

	kunit_log_init(&k);
	feed_text(&k, console, 10.0);
	kunit_records(&k, &o, &tests, &rec, &n);
	is_int((long long)n, 3, "stall span: one record per suite");
	ok(n == 3 && rec[0].outcome.stall_breaks == 1 && rec[1].outcome.stall_breaks == 1 &&
	       rec[2].outcome.stall_breaks == 0,
	   "stall span: an episode marks the suite it came in and those it lasts into, "
	   "not one after its end");
	kunit_records_free(&tests, rec, n);
	kunit_log_free(&k);
}

static void test_records(void)
{
	struct kunit_log k;
	struct guest_outcome o = powered_off();
	struct test_list tests;
	struct record *rec;
	size_t n;
	char *ktap;

	/* KASAN's own tests provoke reports: KUnit's verdict counts. */
	snprintf(o.kernel_report, sizeof(o.kernel_report), "BUG: KASAN: slab-out-of-bounds");
	o.stall_breaks = 1; /* the boot's, as supervise.c counts them: no suite's own */
	kunit_log_init(&k);
	feed_text(&k, console_61, 100.0);
	kunit_records(&k, &o, &tests, &rec, &n);
	is_int((long long)n, 3, "records: one per suite");
	ok(!rec[0].outcome.kernel_report[0], "records: a kernel report does not judge a suite");
	ok(rec[0].outcome.cost.guest_forks < 0 && !rec[0].outcome.cost.host_context_switches,
	   "records: the boot's host counters are no suite's");
	is_str(rec[0].test->id, "kunit/time_test_cases", "records: id");
	is_str(rec[0].dir, "kunit/time_test_cases", "records: folder");
	is_str(verdict_name(rec[0].verdict), "pass", "records: time suite passes");
	is_int(rec[0].outcome.end, GUEST_REPORTED, "records: a powered-off guest ended well");
	is_str(verdict_name(rec[1].verdict), "fail", "records: failing suite fails");
	is_str(verdict_name(rec[2].verdict), "skip", "records: skipped suite skips");
	is_str(rec[2].reason, "SKIP no hardware", "records: with the suite's reason");
	ok(rec[0].outcome.stall_breaks == 0 && rec[1].outcome.stall_breaks == 1 &&
	       rec[2].outcome.stall_breaks == 0,
	   "records: a stall breaker episode belongs to the suite it came in");
	is_int(exit_code_of(rec, n), EXIT_TESTFAIL, "records: the run exits 1");
	ktap = kunit_run_ktap(&k, rec, n, KUNIT_LINES_ALL);
	/* The subtest named as its result line is (kunit.py parse reads a crash else). */
	ok(!strncmp(ktap,
		    "KTAP version 1\n1..3\n    KTAP version 1\n    # Subtest: "
		    "kunit/time_test_cases\n",
		    76),
	   "run ktap: plan, then the suite as a subtest named as its result line");
	ok(strstr(ktap, "\nok 1 kunit/time_test_cases\n") != NULL, "run ktap: result line");
	ok(strstr(ktap, "\nnot ok 2 kunit/example\n") != NULL, "run ktap: failed result line");
	ok(strstr(ktap, "\nok 3 kunit/skipped_suite # SKIP no hardware\n") != NULL,
	   "run ktap: skip directive");
	free(ktap);
	ktap = kunit_run_ktap(&k, rec, n, KUNIT_LINES_NONE);
	ok(!strstr(ktap, "    "), "run ktap: quiet leaves out the subtests");
	free(ktap);
	kunit_records_free(&tests, rec, n);
	kunit_log_free(&k);
}

static void test_crash_mid_suite(void)
{
	static const char text[] = "[    0.3] KTAP version 1\n"
				   "[    0.3] 1..3\n"
				   "[    0.3]     # Subtest: first\n"
				   "[    0.3]     1..1\n"
				   "[    0.4]     ok 1 a\n"
				   "[    0.4] ok 1 first\n"
				   "[    0.4]     KTAP version 1\n"
				   "[    0.4]     # Subtest: second\n"
				   "[    0.4]     1..2\n"
				   "[    0.5] Kernel panic - not syncing: oops\n";
	struct kunit_log k;
	struct guest_outcome o = powered_off();
	struct test_list tests;
	struct record *rec;
	size_t n;

	snprintf(o.detail, sizeof(o.detail), "Kernel panic - not syncing: oops");
	o.uml_status = 134 << 8;
	kunit_log_init(&k);
	feed_text(&k, text, 1.0);
	ok(!kunit_log_complete(&k), "crash: incomplete");
	kunit_records(&k, &o, &tests, &rec, &n);
	is_int((long long)n, 3, "crash: two suites and the rest");
	is_str(verdict_name(rec[0].verdict), "pass", "crash: the suite before it passed");
	is_str(verdict_name(rec[1].verdict), "crash", "crash: the suite it hit");
	ok(rec[1].reason && strstr(rec[1].reason, "Kernel panic"), "crash: named");
	is_str(rec[2].test->id, "kunit/not-run", "crash: the suites that never started");
	ok(rec[2].reason && strstr(rec[2].reason, "1 of the 3 planned suites never started"),
	   "crash: counted");
	is_int(exit_code_of(rec, n), EXIT_INFRA, "crash: the run exits 3");
	kunit_records_free(&tests, rec, n);
	kunit_log_free(&k);
}

static void test_no_ktap(void)
{
	struct kunit_log k;
	struct guest_outcome o = powered_off();
	struct test_list tests;
	struct record *rec;
	size_t n;

	kunit_log_init(&k);
	feed_text(&k, "Linux version 6.1\n[    0.1] kunit: disabled\n", 1.0);
	kunit_records(&k, &o, &tests, &rec, &n);
	is_int((long long)n, 1, "no ktap: one record");
	is_str(rec[0].test->id, "kunit/boot", "no ktap: the boot");
	is_str(verdict_name(rec[0].verdict), "crash", "no ktap: an infrastructure error");
	is_int(exit_code_of(rec, n), EXIT_INFRA, "no ktap: exit 3");
	kunit_records_free(&tests, rec, n);
	kunit_log_free(&k);
}

static void test_empty_and_list(void)
{
	struct kunit_log k;

	kunit_log_init(&k);
	feed_text(&k, "[    0.3] KTAP version 1\n[    0.3] 1..0\n", 1.0);
	ok(k.started && k.planned == 0 && k.n == 0, "glob matching nothing: 1..0, no suite");
	kunit_log_free(&k);
	kunit_log_init(&k);
	feed_text(
	    &k,
	    "[    0.3] KTAP version 1\n[    0.3] time_test_cases.time64_to_tm_test_date_"
	    "range\n[    0.3] example.example_simple_test\n[    0.3] a.b.c\n[    0.3] .x\n[    "
	    "0.4] reboot: Power down\n",
	    1.0);
	is_str(k.list.buf,
	       "time_test_cases.time64_to_tm_test_date_range\nexample.example_simple_test\n",
	       "list: SUITE.CASE lines only (as kunit.py's ^[^\\s.]+\\.[^\\s.]+$)");
	kunit_log_free(&k);
}

static void test_glob_valid(void)
{
	ok(kunit_glob_valid("time_test*"), "glob: suite glob");
	ok(kunit_glob_valid("kunit*.example*"), "glob: suite.case glob");
	ok(!kunit_glob_valid(""), "glob: empty");
	ok(!kunit_glob_valid("a b"), "glob: a space");
	ok(!kunit_glob_valid("a\"b"), "glob: a quote");
}

static void test_resolve(void)
{
	char tmpl[] = "/tmp/test_kunit.XXXXXX";
	char *dir = mkdtemp(tmpl);
	char *tree = NULL, *path = NULL, *p = NULL;
	struct uerr e;

	ok(dir != NULL, "resolve: a temporary folder");
	if (!dir)
		return;
	tree = xasprintf("%s/tree", dir);
	p = xasprintf("%s/lib/kunit", tree);
	mkdir_p(p, 0755);
	free(p);
	p = xasprintf("%s/lib/kunit/.kunitconfig", tree);
	write_file_atomic(p, "CONFIG_KUNIT=y\n", 15);
	free(p);
	p = xasprintf("%s/lib/empty", tree);
	mkdir_p(p, 0755);
	free(p);
	is_int(kunitconfig_resolve("lib/kunit", tree, NULL, &path, &e), 0,
	       "resolve: a DIR in the tree");
	ok(path && strstr(path, "/tree/lib/kunit/.kunitconfig"), "resolve: DIR/.kunitconfig");
	free(path);
	p = xasprintf("%s/lib/kunit/.kunitconfig", tree);
	is_int(kunitconfig_resolve(p, NULL, NULL, &path, &e), 0, "resolve: an absolute FILE");
	free(path);
	free(p);
	is_int(kunitconfig_resolve("lib/nothing", tree, NULL, &path, &e), -1, "resolve: missing");
	is_int(e.code, EXIT_USAGE, "resolve: missing is exit 2");
	ok(path == NULL, "resolve: no path then");
	is_int(kunitconfig_resolve("lib/empty", tree, NULL, &path, &e), -1,
	       "resolve: a DIR without .kunitconfig");
	ok(strstr(e.msg, "has no .kunitconfig") != NULL, "resolve: says so");
	p = xasprintf("%s/proj/uml-config/kunit", dir);
	mkdir_p(p, 0755);
	free(p);
	p = xasprintf("%s/proj/uml-config/kunit/time.kunitconfig", dir);
	write_file_atomic(p, "CONFIG_KUNIT=y\n", 15);
	free(p);
	p = xasprintf("%s/proj", dir);
	is_int(kunitconfig_resolve("uml-config/kunit/time.kunitconfig", tree, p, &path, &e), 0,
	       "resolve: a FILE in umlrun's own folder, from anywhere");
	ok(path && strstr(path, "/proj/uml-config/kunit/time.kunitconfig"),
	   "resolve: its real path");
	free(path);
	free(p);
	rm_rf(dir);
	free(tree);
}

/*
 * kunit.py's reading of console_61 (kunit_parser.py, kunit_json.py): the
 * figures are what `kunit.py parse --json` says of the same text.
 */
static void test_kunitpy_view(void)
{
	size_t n;
	char **lines = kunit_tap_lines(console_61, strlen(console_61), &n);
	struct kunit_test *t = kunit_tree_parse(lines, n);
	_cleanup_free_ char *counts = kunit_counts_text(&t->counts);
	_cleanup_free_ char *json = kunit_tree_json(t, "um", "kunit_defconfig", "/k");

	is_str(lines[0], "KTAP version 1", "kunit.py view: from the version line, stamp gone");
	ok(n > 2 && !strcmp(lines[n - 1], "reboot: Power down"),
	   "kunit.py view: to the end (Power down is not one of its end lines)");
	is_str(lines[12], "    # example_simple_test: initializing",
	       "kunit.py view: the version line's prefix cut from every line");
	is_str(counts, "Ran 8 tests: passed: 4, failed: 1, skipped: 3",
	       "kunit.py view: each parameter counts (kunit.py parse: 8 tests)");
	is_int(t->status, KUNIT_FAILURE, "kunit.py view: the run failed");
	is_int((long long)t->nsub, 3, "kunit.py view: three suites");
	is_int((long long)t->sub[1].nsub, 4, "kunit.py view: example's four cases");
	is_int((long long)t->sub[1].sub[2].nsub, 3, "kunit.py view: the parameters, nested");
	is_int(t->sub[2].status, KUNIT_SKIPPED, "kunit.py view: the skipped suite");
	is_str(t->sub[2].skip_reason, "no hardware", "kunit.py view: its reason");
	has_str(json, "{\n    \"name\": \"KUnit Test Group\",\n    \"sub_groups\": [\n        {\n",
		"json: json.dumps(indent=4)'s layout");
	has_str(json,
		"\"name\": \"example_params_test\",\n                    \"sub_groups\": [],\n",
		"json: a case with parameters is a sub-group");
	has_str(json, "\"name\": \"example_sleep_test\",\n                    \"status\": \"FAIL\"",
		"json: a failed case");
	has_str(json, "\"name\": \"example_skip_test\",\n                    \"status\": \"SKIP\"",
		"json: a skipped case");
	has_str(json,
		"    \"misc\": {\n        \"tests\": 8,\n        \"passed\": 4,\n        "
		"\"failed\": 1,\n        \"crashed\": 0,\n        \"skipped\": 3,\n        "
		"\"errors\": 0\n    },\n    \"arch\": \"um\",\n    \"defconfig\": "
		"\"kunit_defconfig\",\n    \"build_environment\": \"/k\",\n    \"lab_name\": "
		"null,\n    \"kernel\": null,\n    \"job\": null,\n    \"git_branch\": "
		"\"kselftest\"\n}",
		"json: the run's counts and KernelCI's fields, last");
	kunit_tree_free(t);
	strv_free(lines);
}

/* A console cut in the middle of a suite: what kunit.py parse counts. */
static void test_kunitpy_crash(void)
{
	static const char cut[] =
	    "[  0.1] KTAP version 1\n[  0.1] 1..2\n[  0.1]     KTAP version 1\n"
	    "[  0.1]     # Subtest: a\n[  0.1]     1..2\n[  0.1]     ok 1 x\n";
	size_t n;
	char **lines = kunit_tap_lines(cut, strlen(cut), &n);
	struct kunit_test *t = kunit_tree_parse(lines, n);
	_cleanup_free_ char *counts = kunit_counts_text(&t->counts);
	_cleanup_free_ char *json = kunit_tree_json(t, "", "", "");

	is_str(counts, "Ran 3 tests: passed: 1, crashed: 2, errors: 3",
	       "crash: the missing case and suite crashed, three errors (as kunit.py)");
	is_int(t->sub[0].status, KUNIT_CRASHED, "crash: the suite crashed");
	has_str(json, "\"name\": \"\",\n                    \"status\": \"ERROR\"",
		"crash: the missing case, nameless, ERROR in the JSON");
	kunit_tree_free(t);
	strv_free(lines);
	lines = kunit_tap_lines("no KUnit here\n", 14, &n);
	t = kunit_tree_parse(lines, n);
	ok(n == 0 && t->status == KUNIT_PARSE_FAILED && t->counts.errors == 1,
	   "no KTAP: a parse failure with one error, as kunit.py's <missing>");
	kunit_tree_free(t);
	strv_free(lines);
}

/* What the JSON escapes, as Python's json.dumps (ensure_ascii). */
static void test_json_escapes(void)
{
	static const char text[] = "KTAP version 1\n1..1\nok 1 a\"b\\c\t\xc3\xa9\xf0\x9f\x98\x80\n";
	size_t n;
	char **lines = kunit_tap_lines(text, strlen(text), &n);
	struct kunit_test *t = kunit_tree_parse(lines, n);
	_cleanup_free_ char *json = kunit_tree_json(t, "", "", "");

	has_str(json, "\"name\": \"a\\\"b\\\\c\\t\\u00e9\\ud83d\\ude00\"",
		"json: quotes, backslashes, a tab, and non-ASCII as \\u escapes");
	kunit_tree_free(t);
	strv_free(lines);
}

/* --failed, --list_suites, --run_isolated=test, --list_tests_attr. */
static void test_kunitpy_options(void)
{
	struct kunit_log k;
	struct guest_outcome o = powered_off();
	struct test_list tests;
	struct record *rec;
	size_t n;
	_cleanup_free_ char *failed = NULL;
	char **suites;

	kunit_log_init(&k);
	feed_text(&k, console_61, 100.0);
	kunit_records(&k, &o, &tests, &rec, &n);
	failed = kunit_run_ktap(&k, rec, n, KUNIT_LINES_FAILED);
	has_str(failed, "    not ok 4 example_sleep_test\n", "--failed: the failed suite's lines");
	lacks_str(failed, "time64_to_tm_test_date_range", "--failed: not a passed suite's");
	has_str(failed, "ok 1 kunit/time_test_cases\n", "--failed: every result line still");
	kunit_records_free(&tests, rec, n);
	kunit_suite_rename(&k.suites[0], "time_test_cases.time64_to_tm_test_date_range");
	has_str(k.suites[0].text.buf,
		"# Subtest: kunit/time_test_cases.time64_to_tm_test_date_range\n",
		"--run_isolated=test: the suite renamed SUITE.CASE, its Subtest line too");
	kunit_log_free(&k);
	suites = kunit_list_suites("a.x\na.y\nb.z\na.w\n");
	ok(suites[0] && !strcmp(suites[0], "a") && suites[1] && !strcmp(suites[1], "b") &&
	       suites[2] && !strcmp(suites[2], "a") && !suites[3],
	   "--list_suites: consecutive duplicates once, as kunit.py's _suites_from_test_list");
	strv_free(suites);
	kunit_log_init(&k);
	feed_text(&k,
		  "[    0.3] KTAP version 1\n[    0.3] example\n[    0.3] # module: "
		  "kunit_example_test\n[    0.3] example.example_slow_test\n[    0.3] # "
		  "example_slow_test.speed: slow\n[    0.3] cfg80211: failed to load x\n[    "
		  "0.4] reboot: Power down\n",
		  1.0);
	is_str(k.listed.buf,
	       "example\n# module: kunit_example_test\nexample.example_slow_test\n# "
	       "example_slow_test.speed: slow\n",
	       "--list_tests_attr: suites, tests and attributes, not the kernel's other lines");
	kunit_log_free(&k);
}

int main(void)
{
	plan(77 + 15 + 4 + 1 + 6 + 2);
	test_strip_time();
	test_parse();
	test_records();
	test_stall_span();
	test_crash_mid_suite();
	test_no_ktap();
	test_empty_and_list();
	test_glob_valid();
	test_resolve();
	test_kunitpy_view();
	test_kunitpy_crash();
	test_json_escapes();
	test_kunitpy_options();
	return done_testing();
}
