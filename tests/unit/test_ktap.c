// SPDX-License-Identifier: MIT
/* test_ktap.c - reading the KTAP a test file prints. */
#define _GNU_SOURCE
#include "ktap.h"

#include "tap.h"

/* Feeds lines (NULL-terminated) into a fresh reader. */
static void feed(struct ktap *k, const char *const *lines)
{
	ktap_init(k);
	for (size_t i = 0; lines[i]; i++)
		ktap_feed(k, lines[i]);
}

static void test_plan_at_end(void)
{
	static const char *const lines[] = { "KTAP version 1", "ok 1 first", "ok 2 second", "1..2",
					     NULL };
	struct ktap k;

	feed(&k, lines);
	ok(k.saw_version, "plan at end: version seen");
	is_int(k.planned, 2, "plan at end: plan read");
	is_int((long long)k.ncases, 2, "plan at end: two cases");
	is_int(k.counts[KTAP_PASS], 2, "plan at end: two passes");
	is_str(k.cases[1].title, "second", "plan at end: title");
	is_int(k.cases[1].number, 2, "plan at end: number");
	ok(ktap_passed(&k), "plan at end: passed");
	ok(!ktap_skipped(&k), "plan at end: not skipped");
	ktap_free(&k);
	is_int(k.planned, -1, "ktap_free leaves a fresh reader");
}

static void test_plan_at_start(void)
{
	static const char *const lines[] = { "TAP version 13", "1..3",	 "ok 1 a",
					     "ok 2 b",	       "ok 3 c", NULL };
	struct ktap k;

	feed(&k, lines);
	is_int(k.planned, 3, "plan at start: plan read");
	ok(ktap_passed(&k), "plan at start: passed");
	ktap_free(&k);
}

static void test_failure(void)
{
	static const char *const lines[] = { "1..3", "ok 1 a", "not ok 2 b", "ok 3 c", NULL };
	struct ktap k;

	feed(&k, lines);
	is_int(k.counts[KTAP_FAIL], 1, "failure: counted");
	is_int(k.cases[1].result, KTAP_FAIL, "failure: its case");
	is_str(k.cases[1].title, "b", "failure: title");
	ok(!ktap_passed(&k), "failure: not passed");
	ok(!ktap_skipped(&k), "failure: not skipped");
	ktap_free(&k);
}

static void test_skip(void)
{
	static const char *const some[] = { "1..2", "ok 1 a", "ok 2 b # SKIP no radio", NULL };
	static const char *const all[] = { "1..2", "ok 1 a # SKIP no radio", "ok 2 b # skip",
					   NULL };
	/* A title merely containing "SKIP" is not a directive. */
	static const char *const fake[] = { "1..2", "ok 1 a # SKIPPED", "ok 2 SKIP b", NULL };
	struct ktap k;

	feed(&k, some);
	is_int(k.cases[1].result, KTAP_SKIP, "SKIP: a skipped case");
	is_str(k.cases[1].title, "b", "SKIP: directive cut from the title");
	is_str(k.cases[1].directive, "no radio", "SKIP: reason kept");
	ok(ktap_passed(&k), "SKIP: a partly skipped file passes");
	ok(!ktap_skipped(&k), "SKIP: a partly skipped file is not skipped");
	ktap_free(&k);

	feed(&k, all);
	is_int(k.counts[KTAP_SKIP], 2, "SKIP: lower-case directive too");
	is_str(k.cases[1].directive, "", "SKIP: no reason gives empty directive");
	ok(ktap_skipped(&k), "SKIP: every case skipped: skipped");
	ok(!k.skip_all, "SKIP: every case skipped is not skip_all");
	ktap_free(&k);

	feed(&k, fake);
	is_int(k.counts[KTAP_PASS], 2, "SKIP in a title or SKIPPED: passes");
	is_str(k.cases[0].title, "a # SKIPPED", "SKIPPED: title untouched");
	ktap_free(&k);
}

static void test_todo(void)
{
	static const char *const xfail[] = { "1..2", "ok 1 a", "not ok 2 b # TODO known breakage",
					     NULL };
	static const char *const xpass[] = { "1..1", "ok 1 a # TODO known breakage", NULL };
	struct ktap k;

	feed(&k, xfail);
	is_int(k.cases[1].result, KTAP_XFAIL, "not ok # TODO: xfail");
	is_str(k.cases[1].directive, "known breakage", "not ok # TODO: reason");
	is_int(k.counts[KTAP_FAIL], 0, "not ok # TODO: no failure counted");
	ok(ktap_passed(&k), "not ok # TODO: the file passes");
	ktap_free(&k);

	feed(&k, xpass);
	is_int(k.cases[0].result, KTAP_XPASS, "ok # TODO: xpass");
	is_int(k.counts[KTAP_XPASS], 1, "ok # TODO: counted");
	ok(ktap_passed(&k), "ok # TODO: the file passes");
	ktap_free(&k);

	is_str(ktap_result_name(KTAP_XFAIL), "xfail", "result name xfail");
	is_str(ktap_result_name(KTAP_SKIP), "skip", "result name skip");
}

static void test_skip_all(void)
{
	static const char *const lines[] = { "KTAP version 1", "1..0 # SKIP no hwsim module",
					     NULL };
	static const char *const empty[] = { "1..0", NULL };
	struct ktap k;

	feed(&k, lines);
	ok(k.skip_all, "1..0 # SKIP: skip_all");
	is_str(k.skip_reason, "no hwsim module", "1..0 # SKIP: reason");
	is_int(k.planned, 0, "1..0 # SKIP: plan 0");
	ok(ktap_skipped(&k), "1..0 # SKIP: skipped");
	ok(ktap_passed(&k), "1..0 # SKIP: not a failure");
	ktap_free(&k);

	feed(&k, empty);
	ok(!k.skip_all, "1..0 without SKIP: not skip_all");
	ok(!ktap_skipped(&k), "1..0 without SKIP: not skipped");
	ktap_free(&k);
}

static void test_plan_problems(void)
{
	static const char *const noplan[] = { "ok 1 a", "ok 2 b", NULL };
	static const char *const fewer[] = { "1..3", "ok 1 a", "ok 2 b", NULL };
	static const char *const more[] = { "1..1", "ok 1 a", "ok 2 b", NULL };
	static const char *const seq[] = { "1..2", "ok 1 a", "ok 3 b", NULL };
	static const char *const twice[] = { "1..2", "ok 1 a", "ok 1 b", NULL };
	struct ktap k;

	feed(&k, noplan);
	is_int(k.planned, -1, "missing plan: none seen");
	ok(!ktap_passed(&k), "missing plan: not passed");
	ktap_free(&k);

	feed(&k, fewer);
	ok(!ktap_passed(&k), "plan 3, two results: not passed");
	ktap_free(&k);

	feed(&k, more);
	ok(!ktap_passed(&k), "plan 1, two results: not passed");
	ktap_free(&k);

	feed(&k, seq);
	is_int(k.bad_numbers, 1, "out of sequence: counted");
	ok(!ktap_passed(&k), "out of sequence: not passed though the count matches");
	ktap_free(&k);

	feed(&k, twice);
	ok(k.bad_numbers > 0 && !ktap_passed(&k), "repeated number: not passed");
	ktap_free(&k);
}

static void test_dash_form(void)
{
	static const char *const lines[] = { "1..2", "ok 1 - first",
					     "not ok 2 - second # TODO later", NULL };
	struct ktap k;

	feed(&k, lines);
	is_str(k.cases[0].title, "first", "TAP dash: title without '- '");
	is_str(k.cases[1].title, "second", "TAP dash: with a directive");
	is_int(k.cases[1].result, KTAP_XFAIL, "TAP dash: directive read");
	ok(ktap_passed(&k), "TAP dash: passed");
	ktap_free(&k);
}

static void test_ignored(void)
{
	static const char *const lines[] = {
		"KTAP version 1",
		"1..1",
		"    KTAP version 1",
		"    1..3",
		"    ok 1 sub a",
		"    not ok 2 sub b",
		"\tnot ok 3 sub c",
		"# ok 7 looks like a result",
		"# not ok 8 neither is this",
		"# 1..9",
		"okay 2 not a result",
		"hello world",
		"",
		"ok 1 the parent",
		NULL,
	};
	struct ktap k;

	feed(&k, lines);
	is_int((long long)k.ncases, 1, "nested and diagnostic lines: not results");
	is_int(k.planned, 1, "nested and diagnostic plans: ignored");
	is_int(k.counts[KTAP_FAIL], 0, "nested failure: not a failure here");
	ok(ktap_passed(&k), "nested and diagnostics: the top level passes");
	ktap_free(&k);
}

/* Found by tests/fuzz/fuzz_ktap.c: a skip-all plan outlived a later plan. */
static void test_plan_replaced(void)
{
	static const char *const lines[] = { "KTAP version 1", "1..0 # SKIP not here", "1..2",
					     "ok 1 a", NULL };
	struct ktap k;

	feed(&k, lines);
	is_int(k.planned, 2, "later plan: replaces the skip-all one");
	ok(!k.skip_all, "later plan: the file is no longer skipped as a whole");
	ok(!k.skip_reason, "later plan: no skip reason left");
	ok(!ktap_passed(&k), "later plan: one of two cases ran, not passed");
	ktap_free(&k);
}

/* Numbers beyond int's range must not wrap around to small ones. */
static void test_huge_numbers(void)
{
	static const char *const plan_lines[] = { "1..4294967296 # SKIP wrapped to 0", NULL };
	static const char *const case_lines[] = { "1..1", "ok 4294967297 wraps to 1", NULL };
	static const char *const negative[] = { "1..1", "not ok -1 negative", NULL };
	struct ktap k;

	feed(&k, plan_lines);
	is_int(k.planned, 2147483647, "huge plan: clamped, not wrapped to 0");
	ok(!k.skip_all, "huge plan: not a skip-all plan");
	ktap_free(&k);
	feed(&k, case_lines);
	is_int(k.cases[0].number, 2147483647, "huge case number: clamped");
	is_int(k.bad_numbers, 1, "huge case number: out of sequence");
	ok(!ktap_passed(&k), "huge case number: not passed");
	ktap_free(&k);
	feed(&k, negative);
	is_int((long long)k.ncases, 1, "negative case number: still a result");
	is_int(k.cases[0].number, 0, "negative case number: read as 0");
	is_int(k.counts[KTAP_FAIL], 1, "negative case number: its failure counts");
	ktap_free(&k);
}

/* A test printing millions of results or huge titles costs bounded memory. */
static void test_bounded(void)
{
	struct ktap k;
	char line[64];
	char *big = xmalloc(5001);
	char *long_line;
	size_t n = KTAP_MAX_CASES + 5;

	ktap_init(&k);
	snprintf(line, sizeof(line), "1..%zu", n);
	ktap_feed(&k, line);
	for (size_t i = 1; i <= n; i++) {
		snprintf(line, sizeof(line), "ok %zu t", i);
		ktap_feed(&k, line);
	}
	is_int((long long)k.ncases, KTAP_MAX_CASES, "many results: the first ones kept");
	is_int((long long)k.dropped, 5, "many results: the others counted");
	ok(ktap_passed(&k) && !k.bad_numbers, "many results: the plan is met, in sequence");
	ktap_free(&k);
	memset(big, 'x', 5000);
	big[5000] = '\0';
	long_line = xasprintf("ok 1 %s # SKIP %s", big, big);
	ktap_init(&k);
	ktap_feed(&k, long_line);
	ok(k.ncases == 1 && strlen(k.cases[0].title) == KTAP_TITLE_MAX + 3 &&
	       strlen(k.cases[0].directive) == KTAP_TITLE_MAX,
	   "a huge title and directive: cut at KTAP_TITLE_MAX");
	ktap_free(&k);
	free(long_line);
	/* Many long titles: past KTAP_TEXT_MAX in all, the results stay, their words do not. */
	big[1000] = '\0';
	ktap_init(&k);
	for (size_t i = 1; i <= 6000; i++) {
		long_line =
		    xasprintf("%s %zu %s # SKIP %s", i == 6000 ? "not ok" : "ok", i, big, big);
		ktap_feed(&k, long_line);
		free(long_line);
	}
	ok(k.ncases == 6000 && k.text <= KTAP_TEXT_MAX && k.counts[KTAP_SKIP] == 6000,
	   "6000 results of 2 KB of words: all kept and counted, the words within 4 MiB");
	is_str(k.cases[5999].title, KTAP_TEXT_DROPPED, "the last one's title: not kept, saying so");
	is_str(k.cases[0].directive, big, "the first one's words: kept");
	ktap_free(&k);
	free(big);
}

/* A failed case keeps the diagnostics just before it; a passing one takes none. */
static void test_diag(void)
{
	static const char *const lines[] = { "KTAP version 1",
					     "# setting up",
					     "ok 1 a",
					     "# test_cmp: e and a differ:",
					     "# -expected",
					     "not ok 2 b",
					     "not ok 3 c",
					     "1..3",
					     NULL };
	struct ktap k;

	feed(&k, lines);
	ok(!k.cases[0].diag, "diag: a passing case keeps none");
	is_str(k.cases[1].diag, "# test_cmp: e and a differ:\n# -expected\n",
	       "diag: a failed case keeps the lines just before it");
	ok(!k.cases[2].diag, "diag: a failure right after another has none of its lines");
	ktap_free(&k);

	ktap_init(&k);
	for (int i = 0; i < 500; i++) {
		char line[64];

		snprintf(line, sizeof(line), "# line %d of a long failing body", i);
		ktap_feed(&k, line);
	}
	ktap_feed(&k, "not ok 1 long");
	ok(k.cases[0].diag && strlen(k.cases[0].diag) <= KTAP_DIAG_MAX &&
	       strstr(k.cases[0].diag, "# line 499 of") && !strncmp(k.cases[0].diag, "# line ", 7),
	   "diag: the last 4 KiB, whole lines, where a diff ends");
	ktap_free(&k);
}

int main(void)
{
	plan(81);
	test_plan_at_end();
	test_plan_at_start();
	test_failure();
	test_skip();
	test_todo();
	test_skip_all();
	test_plan_problems();
	test_dash_form();
	test_ignored();
	test_plan_replaced();
	test_huge_numbers();
	test_bounded();
	test_diag();
	return done_testing();
}
