// SPDX-License-Identifier: MIT
/* test_report.c - verdicts, the exit code, results.json and junit.xml. */
#define _GNU_SOURCE
#include "report.h"

#include <json-c/json.h>
#include <stdio.h>

#include "tap.h"

static void feed(struct ktap *k, const char *const *lines)
{
	ktap_init(k);
	for (size_t i = 0; lines && lines[i]; i++)
		ktap_feed(k, lines[i]);
}

/* verdict_of for an outcome and KTAP lines; *reason is set (maybe NULL). */
static enum verdict verdict(const struct guest_outcome *o, const char *const *lines, char **reason)
{
	struct ktap k;
	enum verdict v;

	feed(&k, lines);
	v = verdict_of(o, &k, reason);
	ktap_free(&k);
	return v;
}

static const char *const passing[] = { "1..2", "ok 1 a", "ok 2 b", NULL };
static const char *const failing[] = { "1..2", "ok 1 a", "not ok 2 b", NULL };
static const char *const skip_all[] = { "1..0 # SKIP no hwsim", NULL };
static const char *const all_skipped[] = { "1..1", "ok 1 a # SKIP nope", NULL };
static const char *const two_skipped[] = { "1..2", "ok 1 a # SKIP nope", "ok 2 b # SKIP no", NULL };
static const char *const no_plan[] = { "ok 1 a", NULL };
static const char *const failed_no_plan[] = { "ok 1 a", "not ok 2 b", NULL };
static const char *const short_plan[] = { "1..3", "ok 1 a", NULL };
static const char *const no_tests[] = { "1..0", NULL };

static void check(const struct guest_outcome *o, const char *const *lines, enum verdict want,
		  const char *want_reason, const char *name)
{
	char *reason = NULL;
	enum verdict v = verdict(o, lines, &reason);

	if (!is_int(v, want, name))
		diag("  got verdict %s, want %s", verdict_name(v), verdict_name(want));
	if (want_reason)
		has_str(reason, want_reason, name);
	else
		is_str(reason, NULL, name);
	free(reason);
}

static void test_verdicts(void)
{
	struct guest_outcome o = { .end = GUEST_REPORTED };

	check(&o, passing, V_PASS, NULL, "exit 0, KTAP passed: pass, no reason");
	check(&o, failing, V_FAIL, NULL, "exit 0, a case failed: fail");
	check(&o, skip_all, V_SKIP, "SKIP no hwsim", "1..0 # SKIP: skip with its reason");
	check(&o, all_skipped, V_SKIP, "SKIP nope", "the one case skipped: skip, its reason");
	check(&o, two_skipped, V_SKIP, "SKIP every test skipped", "every case skipped: skip");
	check(&o, no_plan, V_FAIL, "ERROR no plan line", "no plan: fail, says so");
	check(&o, short_plan, V_FAIL, "ERROR the plan and the results disagree",
	      "short of the plan: fail, says so");
	check(&o, NULL, V_FAIL, "ERROR no plan line", "no KTAP at all: fail");
	check(&o, no_tests, V_FAIL, "ERROR no tests (1..0): a file that runs none fails; to skip",
	      "1..0 without SKIP: fail, says why and how to skip");
	o.job_exit = 1;
	check(&o, passing, V_FAIL, "ERROR the test file exited with status 1",
	      "exit 1, KTAP passed: fail, the status says why");
	check(&o, failing, V_FAIL, NULL, "exit 1, a case failed: fail, the case says why");
	check(&o, skip_all, V_FAIL, "ERROR the test file exited with status 1",
	      "exit 1 after 1..0 # SKIP: fail, not skip");
	o.job_exit = 2;
	check(&o, no_plan, V_FAIL, "ERROR the test file exited with status 2 before its plan line",
	      "exit 2 before the plan (an exit in a body): fail, says so");
	check(&o, failed_no_plan, V_FAIL,
	      "ERROR the test file exited with status 2 before its plan line",
	      "a failed case, then an exit before the plan: says the tests after it never ran");
	o.job_exit = 1;
	o.job_exit = 0;
	o.job_signal = 9;
	check(&o, passing, V_FAIL, "killed by signal 9", "job killed: fail names the signal");
	o.job_signal = 0;

	snprintf(o.detail, sizeof(o.detail), "after 30 s of simulated time");
	o.end = GUEST_SIM_TIMEOUT;
	check(&o, passing, V_TIMEOUT, "TIMEOUT after 30 s", "simulated timeout: timeout");
	{
		char *reason = NULL;

		verdict(&o, passing, &reason);
		ok(reason && !strncmp(reason, "TIMEOUT", 7), "timeout reason starts with TIMEOUT");
		free(reason);
	}
	o.end = GUEST_WALL_TIMEOUT;
	snprintf(o.detail, sizeof(o.detail), "after 120 s of wall time");
	check(&o, failing, V_TIMEOUT, "TIMEOUT after 120 s", "wall timeout: timeout");

	snprintf(o.detail, sizeof(o.detail), "Kernel panic - not syncing");
	o.end = GUEST_CRASH;
	check(&o, passing, V_CRASH, "ERROR Kernel panic", "crash: crash, with detail");
	o.end = GUEST_KILLED;
	check(&o, passing, V_CRASH, "ERROR", "linux killed: crash");
	o.end = GUEST_INIT_ERROR;
	check(&o, passing, V_CRASH, "ERROR", "init error: crash");
	o.end = GUEST_INTERRUPTED;
	snprintf(o.detail, sizeof(o.detail), "SIGINT");
	check(&o, passing, V_INTERRUPTED, "interrupted: SIGINT", "interrupted: interrupted");
}

static void test_exit_code(void)
{
	struct record r[4];

	memset(r, 0, sizeof(r));
	is_int(exit_code_of(r, 0), EXIT_PASS, "exit code: no tests: 0");
	r[0].verdict = V_PASS;
	r[1].verdict = V_SKIP;
	is_int(exit_code_of(r, 2), EXIT_PASS, "exit code: pass and skip: 0");
	r[1].verdict = V_FAIL;
	is_int(exit_code_of(r, 2), EXIT_TESTFAIL, "exit code: a fail: 1");
	r[2].verdict = V_TIMEOUT;
	is_int(exit_code_of(r, 3), EXIT_TIMEOUT, "exit code: timeout beats fail: 124");
	r[3].verdict = V_CRASH;
	is_int(exit_code_of(r, 4), EXIT_INFRA, "exit code: crash beats timeout: 3");
	r[0].verdict = V_CRASH;
	r[3].verdict = V_PASS;
	is_int(exit_code_of(r, 4), EXIT_INFRA, "exit code: crash anywhere: 3");
	r[0].verdict = V_TIMEOUT;
	r[1].verdict = V_PASS;
	r[2].verdict = V_PASS;
	is_int(exit_code_of(r, 4), EXIT_TIMEOUT, "exit code: timeout first: 124");
}

/* Reads PATH into a string, "" if it cannot. */
static char *slurp(const char *path)
{
	char *text = NULL;

	if (read_file(path, &text, NULL) < 0)
		return xstrdup("");
	return text;
}

static const char *json_get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static int json_get_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return -999;
	return json_object_get_int(v);
}

/*
 * The first character of s that XML 1.0 does not allow, or NULL: Char ::=
 * #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
 */
static const char *xml10_invalid(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_valid_len(p);
		unsigned cp = *p;

		if (n == 0)
			return (const char *)p;
		if (n > 1) {
			cp = *p & (0xff >> (n + 1));
			for (size_t i = 1; i < n; i++)
				cp = cp << 6 | (p[i] & 0x3f);
		}
		if (!(cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
		      (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)))
			return (const char *)p;
		p += n;
	}
	return NULL;
}

static void test_reports(void)
{
	char tmpl[] = "/tmp/umlrun-report.XXXXXX";
	static const char weird_id[] = "we\"ird/t0001-a\\b\nc\td\x01.sh";
	static const char *const ktap1[] = {
		"1..3", "ok 1 first <&\"> case", "not ok 2 second \"quoted\"\x02",
		"ok 3 third \xef\xbf\xbf\xef\xbf\xbe\x1b[1m\r\tx # SKIP no <radio>", NULL
	};
	struct test t1 = { .id = (char *)weird_id };
	struct test t2 = { .id = "timers/t0002-sleep.sh" };
	struct run_info ri = { .mode = "inf-cpu",
			       .has_start = true,
			       .start = 1704067200,
			       .kernel = "/cache/kernels/abc/linux",
			       .kernel_key = "abc",
			       .cmdline_example = "linux mem=256M 'a b'",
			       .wall_seconds = 1.5,
			       .exit_code = 124 };
	struct record r[2];
	struct uerr e = { 0 };
	_cleanup_free_ char *json_path = NULL;
	_cleanup_free_ char *xml_path = NULL;
	_cleanup_free_ char *json = NULL;
	_cleanup_free_ char *xml = NULL;
	struct json_object *root;

	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return;
	}
	memset(r, 0, sizeof(r));
	r[0].test = &t1;
	r[0].attempt = 1;
	r[0].dir = "we/t1";
	r[0].outcome.end = GUEST_REPORTED;
	r[0].outcome.job_exit = 1;
	feed(&r[0].ktap, ktap1);
	r[0].verdict = verdict_of(&r[0].outcome, &r[0].ktap, &r[0].reason);
	r[1].test = &t2;
	r[1].attempt = 2;
	r[1].dir = "timers/t0002-sleep.sh.2";
	r[1].outcome.end = GUEST_SIM_TIMEOUT;
	snprintf(r[1].outcome.detail, sizeof(r[1].outcome.detail),
		 "after 600 s of \"simulated\" <time> & more");
	feed(&r[1].ktap, (const char *const[]){ "1..2", "ok 1 started", NULL });
	r[1].verdict = verdict_of(&r[1].outcome, &r[1].ktap, &r[1].reason);
	is_int(r[1].verdict, V_TIMEOUT, "report fixture: a timeout record");

	json_path = xasprintf("%s/results.json", tmpl);
	xml_path = xasprintf("%s/junit.xml", tmpl);
	is_int(report_write_json(json_path, &ri, r, 2, &e), 0, "results.json written");
	is_int(report_write_junit(xml_path, &ri, r, 2, &e), 0, "junit.xml written");
	ok(path_exists(json_path), "results.json exists");
	ok(path_exists(xml_path), "junit.xml exists");
	json = slurp(json_path);
	xml = slurp(xml_path);

	/* JSON: escapes as JSON spells them, and a parser reads back the original. */
	has_str(json, "we\\\"ird/t0001-a\\\\b\\nc\\td\\u0001.sh", "JSON: \" \\ \\n \\t \\u0001");
	{
		bool raw = false;

		for (const char *p = json; *p; p++)
			raw |= (unsigned char)*p < 0x20 && *p != '\n';
		ok(!raw, "JSON: no raw control characters");
	}
	root = json_tokener_parse(json);
	ok(root != NULL, "JSON: parses");
	{
		struct json_object *tests = NULL, *first = NULL, *second = NULL, *subs = NULL;

		json_object_object_get_ex(root, "tests", &tests);
		if (tests && json_object_get_type(tests) == json_type_array &&
		    json_object_array_length(tests) == 2) {
			first = json_object_array_get_idx(tests, 0);
			second = json_object_array_get_idx(tests, 1);
		}
		ok(first && second, "JSON: two tests");
		is_str(json_get_str(first, "id"), weird_id, "JSON: id round-trips");
		is_str(json_get_str(first, "result"), "fail", "JSON: fail verdict");
		is_int(json_get_int(first, "exit"), 1, "JSON: job exit");
		is_str(json_get_str(second, "result"), "timeout", "JSON: timeout verdict");
		is_str(json_get_str(second, "reason"), r[1].reason, "JSON: reason round-trips");
		is_str(json_get_str(second, "end"), "sim-timeout", "JSON: how the guest ended");
		is_int(json_get_int(second, "attempt"), 2, "JSON: attempt");
		json_object_object_get_ex(first, "subtests", &subs);
		ok(subs && json_object_array_length(subs) == 3, "JSON: three subtests");
		if (subs && json_object_array_length(subs) == 3) {
			struct json_object *s2 = json_object_array_get_idx(subs, 1);
			struct json_object *s3 = json_object_array_get_idx(subs, 2);

			is_str(json_get_str(s2, "name"), "second \"quoted\"\x02",
			       "JSON: subtest name round-trips");
			is_str(json_get_str(s2, "result"), "fail", "JSON: subtest result");
			is_str(json_get_str(s3, "directive"), "no <radio>", "JSON: skip directive");
		}
		is_str(json_get_str(root, "mode"), "inf-cpu", "JSON: mode");
		is_int(json_get_int(root, "start"), 1704067200, "JSON: start");
		is_str(json_get_str(root, "cmdline"), ri.cmdline_example, "JSON: cmdline");
		is_int(json_get_int(root, "exit_code"), 124, "JSON: exit code");
		{
			struct json_object *summary = NULL;

			json_object_object_get_ex(root, "summary", &summary);
			ok(json_get_int(summary, "fail") == 1 &&
			       json_get_int(summary, "timeout") == 1 &&
			       json_get_int(summary, "pass") == 0,
			   "JSON: summary counts");
		}
	}
	json_object_put(root);

	/*
	 * XML: markup characters escaped; tab, LF, CR as references (kept in
	 * an attribute); what XML 1.0 does not allow as U+FFFD.
	 */
	has_str(xml, "<?xml version=\"1.0\"", "XML: declaration");
	has_str(xml, "name=\"first &lt;&amp;&quot;&gt; case\"", "XML: <&\"> escaped in a name");
	has_str(xml, "name=\"second &quot;quoted&quot;\xef\xbf\xbd\"",
		"XML: a control character as U+FFFD");
	lacks_str(xml, "\x01", "XML: no \\x01");
	has_str(xml, "name=\"third \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd[1m&#13;&#9;x\"",
		"XML: U+FFFF, U+FFFE and ESC as U+FFFD, CR and tab as references");
	lacks_str(xml, "\xef\xbf\xbf", "XML: no U+FFFF");
	lacks_str(xml, "\xef\xbf\xbe", "XML: no U+FFFE");
	has_str(xml, "classname=\"we&quot;ird/t0001-a\\b&#10;c&#9;d\xef\xbf\xbd.sh\"",
		"XML: LF and tab in an attribute as &#10; and &#9;");
	{
		const char *bad = xml10_invalid(xml);

		ok(!bad, "XML: every character is one XML 1.0 allows");
		if (bad)
			diag("  at offset %td: %.20s", bad - xml, bad);
	}
	lacks_str(xml, "<radio>", "XML: no raw markup from a directive");
	has_str(xml, "<skipped message=\"no &lt;radio&gt;\"/>", "XML: skipped case with reason");
	has_str(xml, "<failure message=\"failed\">", "XML: failed case");
	has_str(xml, "name=\"timers/t0002-sleep.sh#2\"", "XML: attempt in the suite name");
	{
		const char *tc =
		    xml ? strstr(xml, "<testcase classname=\"timers/t0002-sleep.sh#2\" "
				      "name=\"(test file)\">")
			: NULL;
		const char *end = tc ? strstr(tc, "</testcase>") : NULL;
		_cleanup_free_ char *one = tc && end ? strndup(tc, (size_t)(end - tc)) : NULL;

		ok(one != NULL, "XML: the timeout record has a test-file case");
		has_str(one,
			"<error message=\"TIMEOUT after 600 s of &quot;simulated&quot; "
			"&lt;time&gt; &amp; more\"/>",
			"XML: the timeout is an <error>, escaped");
	}
	has_str(xml, "errors=\"1\"", "XML: one error counted");
	has_str(xml, "tests=\"5\" failures=\"1\"",
		"XML: totals: four cases and the timeout's file case, one failure");

	ktap_free(&r[0].ktap);
	ktap_free(&r[1].ktap);
	free(r[0].reason);
	free(r[1].reason);
	rm_rf(tmpl);
}

/*
 * A flaky pass is marked in junit.xml, not an ordinary pass; a seeded run
 * is named by its seed, in junit.xml and on its result line.
 */
static void test_flaky_and_seeded(void)
{
	char tmpl[] = "/tmp/umlrun-report.XXXXXX";
	struct test t = { .id = "net/t0001-a.sh" };
	struct run_info ri = { .mode = "inf-cpu", .kernel = "k", .kernel_key = "k" };
	struct record r[2];
	struct uerr e = { 0 };
	struct strbuf line = { 0 };
	_cleanup_free_ char *xml_path = NULL;
	_cleanup_free_ char *xml = NULL;

	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return;
	}
	memset(r, 0, sizeof(r));
	r[0].test = &t;
	r[0].attempt = 1;
	r[0].dir = "net/t0001-a";
	r[0].verdict = V_FLAKY;
	r[0].failed_attempts = 2;
	feed(&r[0].ktap, (const char *const[]){ "1..1", "ok 1 joins", NULL });
	r[1].test = &t;
	r[1].attempt = 2;
	r[1].seeded = true;
	r[1].seed = 17;
	r[1].dir = "net/t0001-a.17";
	r[1].verdict = V_FAIL;
	feed(&r[1].ktap, (const char *const[]){ "1..1", "not ok 1 joins", NULL });
	xml_path = xasprintf("%s/junit.xml", tmpl);
	is_int(report_write_junit(xml_path, &ri, r, 2, &e), 0, "junit.xml written");
	xml = slurp(xml_path);
	has_str(xml,
		"<testcase classname=\"net/t0001-a.sh\" name=\"(test file)\"><flakyFailure "
		"message=\"flaky: failed 2 times, then passed (--retry)\">see "
		"net/t0001-a.try1/console.log</flakyFailure></testcase>",
		"XML: a flaky pass has a <flakyFailure> naming the first try's log");
	has_str(xml, "<property name=\"result\" value=\"flaky\"/>",
		"XML: the verdict as a property");
	has_str(xml, "<testsuite name=\"net/t0001-a.sh@17\"", "XML: a seeded run is named ID@SEED");
	lacks_str(xml, "net/t0001-a.sh#2", "XML: not by its attempt");
	record_result_line(&line, &r[1], 2);
	is_str(line.buf, "not ok 2 net/t0001-a.sh@17\n", "result line: ID@SEED");
	sb_release(&line);
	record_result_line(&line, &r[0], 1);
	is_str(line.buf, "ok 1 net/t0001-a.sh\n", "result line: an unseeded run, the id alone");
	sb_release(&line);
	for (int i = 0; i < 2; i++)
		ktap_free(&r[i].ktap);
	rm_rf(tmpl);
}

/*
 * junit.xml's counts: the file's own case counts as the skip, failure or
 * error it carries, in the top element and in each <testsuite>.
 */
static void test_junit_counts(void)
{
	char tmpl[] = "/tmp/umlrun-report.XXXXXX";
	struct test t[3] = { { .id = "net/t0001-skipped.sh" },
			     { .id = "net/t0002-one-skip.sh" },
			     { .id = "net/t0003-timeout.sh" } };
	struct run_info ri = { .mode = "inf-cpu", .kernel = "k", .kernel_key = "k" };
	struct record r[3];
	struct uerr e = { 0 };
	_cleanup_free_ char *xml_path = NULL;
	_cleanup_free_ char *xml = NULL;

	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return;
	}
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 3; i++) {
		r[i].test = &t[i];
		r[i].attempt = 1;
		r[i].dir = t[i].id;
		r[i].outcome.end = GUEST_REPORTED;
	}
	feed(&r[0].ktap, (const char *const[]){ "1..0 # SKIP no radio", NULL });
	feed(&r[1].ktap, (const char *const[]){ "1..2",
						"ok 1 a\xe2\x80\xae"
						"b",
						"ok 2 b # SKIP later", NULL });
	r[2].outcome.end = GUEST_SIM_TIMEOUT;
	feed(&r[2].ktap, (const char *const[]){ "1..2", "ok 1 started", NULL });
	for (int i = 0; i < 3; i++)
		r[i].verdict = verdict_of(&r[i].outcome, &r[i].ktap, &r[i].reason);
	is_int(r[0].verdict, V_SKIP, "junit fixture: a file that skips itself");
	xml_path = xasprintf("%s/junit.xml", tmpl);
	is_int(report_write_junit(xml_path, &ri, r, 3, &e), 0, "junit.xml written");
	xml = slurp(xml_path);
	has_str(xml,
		"<testsuites name=\"umlrun\" tests=\"5\" failures=\"0\" errors=\"1\" skipped=\"2\"",
		"XML: the skipped file counts among the skips, the timeout among the errors");
	has_str(xml,
		"<testsuite name=\"net/t0001-skipped.sh\" tests=\"1\" failures=\"0\" errors=\"0\" "
		"skipped=\"1\"",
		"XML: each <testsuite> has its own counts");
	has_str(xml,
		"<testsuite name=\"net/t0003-timeout.sh\" tests=\"2\" failures=\"0\" errors=\"1\" "
		"skipped=\"0\"",
		"XML: a timeout is its file's error");
	has_str(xml,
		"name=\"a\xef\xbf\xbd"
		"b\"",
		"XML: a bidi control (U+202E) is U+FFFD");
	{
		struct strbuf line = { 0 };
		struct record x = r[2];

		x.reason = "ERROR a \xe2\x80\xae b";
		record_result_line(&line, &x, 3);
		has_str(line.buf, "# ERROR a \\xe2\\x80\\xae b",
			"result line: a bidi control as \\xHH");
		sb_release(&line);
		/* Python's splitlines() and JavaScript break lines there: a forged result line. */
		x.reason = "ERROR a\xe2\x80\xa8ok 99 forged/t0001-x.sh";
		record_result_line(&line, &x, 3);
		has_str(line.buf, "# ERROR a\\xe2\\x80\\xa8ok 99 forged",
			"result line: a line separator (U+2028) as \\xHH");
		sb_release(&line);
	}
	/* A file's lost logs and the files never started: errors a dashboard shows. */
	{
		char *not_run[] = { "net/t0009-later.sh", NULL };
		char lost[] = "cannot copy its artifacts";
		_cleanup_free_ char *x2 = NULL;

		ri.not_run = not_run;
		ri.nnot_run = 1;
		r[1].lost = lost;
		is_int(report_write_junit(xml_path, &ri, r, 3, &e), 0, "junit.xml written again");
		x2 = slurp(xml_path);
		has_str(x2, "<testsuites name=\"umlrun\" tests=\"7\" failures=\"0\" errors=\"3\"",
			"XML: lost logs and a file not run count as errors");
		has_str(x2, "name=\"(logs)\"><error message=\"lost: cannot copy its artifacts\"/>",
			"XML: the lost logs' case says why");
		has_str(x2,
			"<testcase classname=\"net/t0009-later.sh\" name=\"(test file)\"><error "
			"message=\"not run",
			"XML: a file not run is an error of its own");
		r[1].lost = NULL;
	}
	for (int i = 0; i < 3; i++) {
		ktap_free(&r[i].ktap);
		free(r[i].reason);
	}
	rm_rf(tmpl);
}

/* Failures past the results kept are said, or none would show. */
static void test_dropped_failures(void)
{
	struct guest_outcome o = { .end = GUEST_REPORTED };
	struct ktap k;
	char line[64];
	char *reason = NULL;

	ktap_init(&k);
	for (int i = 1; i <= KTAP_MAX_CASES + 3; i++) {
		snprintf(line, sizeof(line), "%s %d t", i == KTAP_MAX_CASES + 2 ? "not ok" : "ok",
			 i);
		ktap_feed(&k, line);
	}
	ktap_feed(&k, "1..100003");
	o.job_exit = 1;
	is_int(verdict_of(&o, &k, &reason), V_FAIL, "a failure past the kept results: fail");
	is_str(reason,
	       "FAIL 1 of the 3 results past the first 100000 failed (counted, not kept: see "
	       "console.log)",
	       "and the reason says where it is");
	{
		char tmpl[] = "/tmp/umlrun-report.XXXXXX";
		struct test t = { .id = "net/t0001-many.sh" };
		struct run_info ri = { .mode = "inf-cpu", .kernel = "k", .kernel_key = "k" };
		struct record r = { .test = &t,
				    .attempt = 1,
				    .dir = "net/t0001-many",
				    .verdict = V_FAIL,
				    .reason = reason,
				    .ktap = k };
		struct uerr e = { 0 };
		_cleanup_free_ char *xml_path = NULL;
		_cleanup_free_ char *xml = NULL;

		if (mkdtemp(tmpl)) {
			xml_path = xasprintf("%s/junit.xml", tmpl);
			report_write_junit(xml_path, &ri, &r, 1, &e);
			xml = slurp(xml_path);
			has_str(xml, "name=\"(test file)\"><failure message=\"FAIL 1 of the 3",
				"junit.xml: the file's own case carries that failure");
			has_str(xml, "<testsuites name=\"umlrun\" tests=\"100001\" failures=\"1\"",
				"junit.xml: counts as its elements say");
			rm_rf(tmpl);
		}
	}
	free(reason);
	ktap_free(&k);
}

int main(void)
{
	plan(115);
	test_verdicts();
	test_exit_code();
	test_reports();
	test_flaky_and_seeded();
	test_junit_counts();
	test_dropped_failures();
	return done_testing();
}
