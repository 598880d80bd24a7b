// SPDX-License-Identifier: MIT
/*
 * fuzz_kunit.c - the KUnit console readers (runner/run/kunit.c, and
 * kunit.py's view of it, runner/run/kunit_json.c) on arbitrary guest
 * output: the console of `umlrun kunit` is the guest kernel's.
 *
 * Feeds: the input as console bytes (kunit_log_console), then to
 * kunit_tap_lines, kunit_tree_parse, kunit_tree_json and
 * kunit_counts_text, as --json and --summary do.
 *
 * Asserts, beyond not crashing (ASan, UBSan):
 *   - kunit.py's counts are never negative, and a parent's are at least
 *     the sum of its subtests' (a test adds to them, never takes away);
 *   - the JSON is one object, its braces and brackets balanced outside
 *     strings, with no raw control character or byte above 0x7f (Python's
 *     ensure_ascii);
 *   - the suites the log found are at most one more than those ended.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include <stdint.h>
#include <string.h>

#include "kunit.h"
#include "kunit_json.h"

static void check_counts(const struct kunit_test *t)
{
	struct kunit_counts sum = { 0 };

	expect(t->counts.passed >= 0 && t->counts.failed >= 0 && t->counts.crashed >= 0 &&
	       t->counts.skipped >= 0 && t->counts.errors >= 0);
	for (size_t i = 0; i < t->nsub; i++) {
		check_counts(&t->sub[i]);
		sum.passed += t->sub[i].counts.passed;
		sum.failed += t->sub[i].counts.failed;
		sum.crashed += t->sub[i].counts.crashed;
		sum.skipped += t->sub[i].counts.skipped;
		sum.errors += t->sub[i].counts.errors;
	}
	expect(t->counts.passed >= sum.passed && t->counts.failed >= sum.failed &&
	       t->counts.crashed >= sum.crashed && t->counts.skipped >= sum.skipped &&
	       t->counts.errors >= sum.errors);
}

static void check_json(const char *json)
{
	int depth = 0;
	bool in_str = false;

	expect(json[0] == '{');
	for (const unsigned char *p = (const unsigned char *)json; *p; p++) {
		expect(*p < 0x80 && (*p >= 0x20 || *p == '\n'));
		if (in_str) {
			expect(*p != '\n');
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"')
			in_str = true;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			expect(--depth >= 0);
	}
	expect(depth == 0 && !in_str);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kunit_log k;
	size_t ended = 0, n;
	char **lines;
	struct kunit_test *t;
	char *json, *counts;

	kunit_log_init(&k);
	kunit_log_console(&k, (const char *)data, size, 1.0);
	for (size_t i = 0; i < k.n; i++)
		ended += k.suites[i].ended;
	expect(k.n <= ended + 1);
	lines = kunit_tap_lines(k.console.buf ? k.console.buf : "", k.console.len, &n);
	t = kunit_tree_parse(lines, n);
	check_counts(t);
	json = kunit_tree_json(t, "um", "kunit_defconfig", "/k");
	check_json(json);
	counts = kunit_counts_text(&t->counts);
	expect(!strncmp(counts, "Ran ", 4));
	free(counts);
	free(json);
	kunit_tree_free(t);
	strv_free(lines);
	kunit_log_free(&k);
	return 0;
}
