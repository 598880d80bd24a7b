/* SPDX-License-Identifier: MIT */
/*
 * kunit_json.h - KUnit's results as the kernel's kunit.py reads them.
 *
 * A port of tools/testing/kunit/kunit_parser.py (extract_tap_lines,
 * parse_run_tests) and kunit_json.py (get_json_result), so that
 * `umlrun kunit --json`, `--summary` and `--raw_output=kunit` print what
 * kunit.py prints for the same console: the same test tree, the same
 * counts (a parameterised case counts each of its parameters), the same
 * JSON byte for byte. umlrun's own records (kunit.h) stay one per suite;
 * this is the peer's view, for those who feed kunit.py's output to tools.
 *
 *	size_t n;
 *	char **lines = kunit_tap_lines(console, len, &n);
 *	struct kunit_test *t = kunit_tree_parse(lines, n);
 *	char *json = kunit_tree_json(t, "um", "kunit_defconfig", build_dir);
 *	kunit_tree_free(t); strv_free(lines);
 *
 * Nothing here prints or exits.
 */
#ifndef UMLRUN_KUNIT_JSON_H
#define UMLRUN_KUNIT_JSON_H

#include "util.h"

/* kunit_parser.TestStatus */
enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
	KUNIT_CRASHED,
	KUNIT_NO_TESTS,
	KUNIT_PARSE_FAILED,
};

/* kunit_parser.TestCounts */
struct kunit_counts {
	long passed, failed, crashed, skipped, errors; /* a guest's plan may be huge */
};

struct kunit_test {
	enum kunit_status status;
	char *name;
	struct kunit_test *sub; /* its subtests, in order */
	size_t nsub;
	struct kunit_counts counts; /* its leaves' (or its own, for a leaf) */
	char *skip_reason;
};

/*
 * The KTAP lines of a kernel's console, as extract_tap_lines keeps them:
 * from the first "KTAP version" (or "TAP version") line, less the text
 * before it on that line (a timestamp), to the end or a line that ends
 * the kernel's run; "kunit executor:" errors before it. NULL-terminated.
 */
char **kunit_tap_lines(const char *console, size_t len, size_t *n);

/* parse_run_tests: the whole run as the test "main" and its subtests. */
struct kunit_test *kunit_tree_parse(char **lines, size_t n);
void kunit_tree_free(struct kunit_test *t);
/*
 * Moves from's subtests after into's and adds its counts (--run_isolated:
 * one tree of several boots); from is freed.
 */
void kunit_tree_merge(struct kunit_test *into, struct kunit_test *from);

/* "Ran 95 tests: passed: 90, skipped: 5" (TestCounts.__str__). */
char *kunit_counts_text(const struct kunit_counts *c);

/*
 * get_json_result: KernelCI's test-group JSON, indented as Python's
 * json.dumps(indent=4). arch, defconfig and build_environment as
 * kunit.py's Metadata ("" for kunit.py parse's).
 */
char *kunit_tree_json(const struct kunit_test *t, const char *arch, const char *defconfig,
		      const char *build_dir);

#endif
