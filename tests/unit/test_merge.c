// SPDX-License-Identifier: MIT
/* test_merge.c - results.json read back, and shards merged into one run. */
#define _GNU_SOURCE
#include "merge.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "html.h"
#include "results_read.h"
#include "tap.h"

static char tmp[] = "/tmp/umlrun-test-merge-XXXXXX";

/* One fabricated test file: its id, KTAP lines and how its guest ended. */
struct fixture {
	const char *id;
	const char *const *ktap;
	enum guest_end end;
	int job_exit;
	int attempt;
	double wall;
};

static const char *const passing[] = { "1..2", "ok 1 x", "ok 2 y # SKIP no radio", NULL };
static const char *const failing[] = { "1..2", "ok 1 x", "not ok 2 y", NULL };
static const char *const xfail[] = { "1..1", "not ok 1 known # TODO broken", NULL };
static const char *const skip_all[] = { "1..0 # SKIP no hwsim", NULL };
static const char *const started[] = { "1..2", "ok 1 started", NULL };

static const struct fixture shard1[] = {
	{ "net/t0001-a.sh", passing, GUEST_REPORTED, 0, 1, 1.5 },
	{ "timers/t0003-c.sh", failing, GUEST_REPORTED, 1, 1, 2.0 },
	{ NULL },
};
static const struct fixture shard2[] = {
	{ "net/t0002-b.sh", started, GUEST_SIM_TIMEOUT, 0, 1, 3.0 },
	{ "timers/t0001-z.sh", skip_all, GUEST_REPORTED, 0, 1, 0.5 },
	{ "aaa/t0001-first.sh", xfail, GUEST_REPORTED, 0, 1, 0.25 },
	{ "aaa/t0001-first.sh", xfail, GUEST_REPORTED, 0, 2, 0.75 },
	{ NULL },
};
static const struct fixture other[] = {
	{ "other/t0001-o.sh", passing, GUEST_REPORTED, 0, 1, 1.0 },
	{ NULL },
};
static const struct fixture in_both[] = {
	{ "other/t0001-o.sh", passing, GUEST_REPORTED, 0, 1, 1.0 },
	{ "net/t0001-a.sh", passing, GUEST_REPORTED, 0, 1, 1.0 },
	{ NULL },
};

static char *path_in(const char *name)
{
	return xasprintf("%s/%s", tmp, name);
}

/* The test folder report.h names: SUITE/TEST[.K] without ".sh". */
static char *test_dir(const struct fixture *f)
{
	size_t len = strlen(f->id) - 3;

	return f->attempt > 1 ? xasprintf("%.*s.%d", (int)len, f->id, f->attempt)
			      : xasprintf("%.*s", (int)len, f->id);
}

static void make_record(const struct fixture *f, struct test *t, struct record *r)
{
	memset(r, 0, sizeof(*r));
	t->id = (char *)f->id;
	r->test = t;
	r->attempt = f->attempt;
	r->dir = test_dir(f);
	r->outcome.end = f->end;
	r->outcome.job_exit = f->job_exit;
	r->outcome.sim_seconds = f->wall * 10;
	r->outcome.wall_seconds = f->wall;
	if (f->end == GUEST_SIM_TIMEOUT)
		snprintf(r->outcome.detail, sizeof(r->outcome.detail), "after 30 s");
	ktap_init(&r->ktap);
	for (size_t i = 0; f->ktap[i]; i++)
		ktap_feed(&r->ktap, f->ktap[i]);
	r->verdict = verdict_of(&r->outcome, &r->ktap, &r->reason);
}

/* A shard's run folder: results.json, and a console.log per test. */
static char *write_run(const char *name, const char *shard, int exit_code, const struct fixture *fx)
{
	static char *const overlays[] = { "/ov/one", "/ov/two \"quoted\"", NULL };
	struct run_info ri = { .mode = "inf-cpu",
			       .has_start = true,
			       .start = 1704067200,
			       .kernel = "/k/linux",
			       .kernel_key = "abc",
			       .cmdline_example = "linux mem=64M",
			       .shard = shard,
			       .seed = 77,
			       .overlays = overlays,
			       .noverlays = 2,
			       .random_seed = 5,
			       .wall_seconds = exit_code == 1 ? 4.5 : 2.5,
			       .exit_code = exit_code };
	char *dir = path_in(name);
	_cleanup_free_ char *json = xasprintf("%s/results.json", dir);
	struct test t[8];
	struct record r[8];
	struct uerr e;
	size_t n = 0;

	mkdir(dir, 0755);
	for (; fx[n].id; n++) {
		_cleanup_free_ char *tdir = NULL;
		_cleanup_free_ char *log = NULL;

		make_record(&fx[n], &t[n], &r[n]);
		tdir = xasprintf("%s/%s", dir, r[n].dir);
		log = xasprintf("%s/console.log", tdir);
		mkdir_p(tdir, 0755);
		write_file_atomic(log, fx[n].id, strlen(fx[n].id));
	}
	if (report_write_json(json, &ri, r, n, &e) < 0)
		diag("%s", e.msg);
	for (size_t i = 0; i < n; i++) {
		free(r[i].dir);
		free(r[i].reason);
		ktap_free(&r[i].ktap);
	}
	return dir;
}

static char *slurp(const char *path)
{
	char *s = NULL;

	return read_file(path, &s, NULL) < 0 ? NULL : s;
}

/* ---- results_load ---- */

static void test_load(const char *run1, const char *run2)
{
	struct loaded_run lr;
	struct uerr e;

	if (!ok(results_load(run2, &lr, &e) == 0, "results_load: a shard's results.json")) {
		diag("%s", e.msg);
		return;
	}
	is_int((long long)lr.n, 4, "four records");
	is_str(lr.dir, run2, "dir is the run folder");
	is_str(lr.info.shard, "2/2", "shard");
	is_int(lr.info.seed, 77, "seed");
	ok(lr.info.has_start && lr.info.start == 1704067200, "start");
	is_str(lr.info.mode, "inf-cpu", "mode");
	is_str(lr.info.kernel_key, "abc", "kernel key");
	ok(lr.info.noverlays == 2 && !strcmp(lr.info.overlays[0], "/ov/one") &&
	       !strcmp(lr.info.overlays[1], "/ov/two \"quoted\""),
	   "overlays, in order");
	is_int(lr.info.random_seed, 5, "random seed");
	is_str(lr.info.cmdline_example, "linux mem=64M", "cmdline");
	is_int(lr.info.exit_code, 124, "exit code");
	is_str(lr.rec[0].test->id, "net/t0002-b.sh", "records keep the file's order");
	is_str(lr.tests[0].suite, "net", "suite from the id");
	is_str(lr.tests[0].file, "t0002-b.sh", "file from the id");
	is_int(lr.rec[0].verdict, V_TIMEOUT, "verdict from \"result\"");
	is_str(lr.rec[0].reason, "TIMEOUT after 30 s", "reason");
	is_int(lr.rec[0].outcome.end, GUEST_SIM_TIMEOUT, "end");
	ok(lr.rec[0].outcome.sim_seconds == 30.0 && lr.rec[0].outcome.wall_seconds == 3.0,
	   "sim and wall seconds");
	is_int(lr.rec[1].verdict, V_SKIP, "skip verdict");
	ok(lr.rec[1].ktap.skip_all, "a file skipped as a whole stays so");
	is_str(lr.rec[1].ktap.skip_reason, "no hwsim", "its skip reason");
	is_int(lr.rec[3].attempt, 2, "attempt");
	is_str(lr.rec[3].dir, "aaa/t0001-first.2", "test folder");
	is_int(lr.rec[3].ktap.counts[KTAP_XFAIL], 1, "subtest counts rebuilt");
	is_str(lr.rec[3].ktap.cases[0].directive, "broken", "subtest directive");
	ok(lr.rec[2].reason == NULL, "no reason reads back as NULL");
	results_free(&lr);

	results_load(run1, &lr, &e);
	ok(lr.n == 2 && lr.rec[0].ktap.ncases == 2 && lr.rec[0].ktap.cases[1].result == KTAP_SKIP,
	   "subtest results");
	ok(lr.n == 2 && lr.rec[1].outcome.job_exit == 1 && lr.rec[1].verdict == V_FAIL,
	   "exit and fail verdict");
	results_free(&lr);
}

static void load_fails(const char *text, const char *want, const char *name)
{
	_cleanup_free_ char *dir = path_in("bad");
	_cleanup_free_ char *json = xasprintf("%s/results.json", dir);
	struct loaded_run lr;
	struct uerr e = { 0 };

	mkdir(dir, 0755);
	write_file_atomic(json, text, strlen(text));
	ok(results_load(dir, &lr, &e) == -1 && e.code == EXIT_USAGE && strstr(e.msg, json) &&
	       strstr(e.msg, want) && lr.n == 0,
	   "%s", name);
	if (!strstr(e.msg, want))
		diag("message: %s", e.msg);
}

#define HEAD "{\"format\": \"umlrun-results-1\", "

static void test_load_errors(void)
{
	_cleanup_free_ char *missing = path_in("missing");
	struct loaded_run lr;
	struct uerr e;

	ok(results_load(missing, &lr, &e) == -1 && e.code == EXIT_USAGE && strstr(e.msg, missing) &&
	       strstr(e.msg, "results.json"),
	   "no results.json: usage error naming it");
	load_fails("", "not valid JSON", "empty file");
	load_fails("{\"format\": ", "ends early", "cut short");
	load_fails("[]", "not a JSON object", "an array");
	load_fails("{} {}", "text after the end", "two objects");
	load_fails("{\"tests\": []}", "no \"format\"", "no format");
	load_fails("{\"format\": \"other\", \"tests\": []}", "is not umlrun-results-1",
		   "another format");
	load_fails(HEAD "\"mode\": 3, \"tests\": []}", "\"mode\" is not a string", "mode type");
	load_fails(HEAD "\"mode\": \"off\"}", "no \"tests\"", "no tests");
	load_fails(HEAD "\"tests\": [{\"id\": 1}]}", "tests[0]: \"id\" is not a string", "id type");
	load_fails(HEAD "\"tests\": [{\"id\": \"a/b.sh\", \"attempt\": 1, \"result\": \"meh\", "
			"\"end\": \"reported\", \"exit\": 0, \"sim_seconds\": 0, "
			"\"wall_seconds\": 0, \"dir\": \"a/b\"}]}",
		   "tests[0]: unknown \"result\" \"meh\"", "unknown verdict");
	load_fails(HEAD "\"tests\": [{\"id\": \"a/b.sh\", \"attempt\": 1, \"result\": \"pass\", "
			"\"end\": \"reported\", \"exit\": 0, \"sim_seconds\": 0, "
			"\"wall_seconds\": 0, \"dir\": \"a/b\", "
			"\"subtests\": [{\"n\": 1, \"name\": \"x\", \"result\": \"maybe\"}]}]}",
		   "tests[0].subtests[0]: unknown subtest result", "unknown subtest result");
	load_fails(HEAD "\"tests\": [{\"id\": \"a/b.sh\", \"attempt\": 1, \"result\": \"pass\", "
			"\"end\": \"reported\", \"exit\": 0, \"dir\": \"a/b\"}]}",
		   "tests[0]: no \"sim_seconds\"", "missing field");
}

/* ---- merge_runs ---- */

static void test_merge_ok(char **dirs)
{
	_cleanup_free_ char *out = path_in("merged");
	_cleanup_free_ char *out2 = path_in("merged2");
	_cleanup_free_ char *json = xasprintf("%s/results.json", out);
	_cleanup_free_ char *json2 = xasprintf("%s/results.json", out2);
	_cleanup_free_ char *junit = xasprintf("%s/junit.xml", out);
	_cleanup_free_ char *ktap_path = xasprintf("%s/ktap.txt", out);
	_cleanup_free_ char *ktap = NULL;
	_cleanup_free_ char *a = NULL;
	_cleanup_free_ char *b = NULL;
	_cleanup_free_ char *log1 = xasprintf("%s/net/t0001-a/console.log", out);
	_cleanup_free_ char *log2 = xasprintf("%s/net/t0002-b/console.log", out);
	_cleanup_free_ char *log3 = xasprintf("%s/aaa/t0001-first.2/console.log", out);
	char *log;
	char *reversed[] = { dirs[1], dirs[0] };
	struct loaded_run lr;
	struct uerr e;

	if (!ok(merge_runs(dirs, 2, out, &e) == 0, "merge: shards 1/2 and 2/2"))
		diag("%s", e.msg);
	ok(results_load(out, &lr, &e) == 0, "merged results.json reads back");
	is_int((long long)lr.n, 6, "every record of both shards");
	ok(lr.n == 6 && !strcmp(lr.rec[0].test->id, "aaa/t0001-first.sh") &&
	       lr.rec[0].attempt == 1 && lr.rec[1].attempt == 2 &&
	       !strcmp(lr.rec[2].test->id, "net/t0001-a.sh") &&
	       !strcmp(lr.rec[3].test->id, "net/t0002-b.sh") &&
	       !strcmp(lr.rec[4].test->id, "timers/t0001-z.sh") &&
	       !strcmp(lr.rec[5].test->id, "timers/t0003-c.sh"),
	   "ordered by id, then attempt");
	ok(lr.info.shard == NULL, "no shard field");
	is_int(lr.info.exit_code, EXIT_TIMEOUT, "exit code recomputed: a timeout");
	ok(lr.info.wall_seconds == 4.5, "wall seconds: the longest shard's");
	is_int(lr.info.seed, 77, "run information kept");
	ok(lr.info.noverlays == 2 && !strcmp(lr.info.overlays[1], "/ov/two \"quoted\""),
	   "overlays kept");
	is_int(lr.info.random_seed, 5, "random seed kept");
	results_free(&lr);
	a = slurp(json);
	has_str(a,
		"\"summary\": {\"pass\": 3, \"fail\": 1, \"skip\": 1, \"flaky\": 0, "
		"\"timeout\": 1",
		"summary over both shards");
	log = slurp(junit);
	has_str(log, "name=\"timers/t0003-c.sh\"", "junit.xml has shard 1's tests");
	has_str(log, "name=\"aaa/t0001-first.sh#2\"", "junit.xml has shard 2's tests");
	free(log);
	ktap = slurp(ktap_path);
	ok(ktap && !strncmp(ktap, "KTAP version 1\n1..6\n", 20), "ktap.txt: version and plan");
	has_str(ktap, "\n    ok 1 x\n    ok 2 y # SKIP no radio\nok 3 net/t0001-a.sh\n",
		"ktap.txt: subtests indented, then the file's result");
	has_str(ktap, "    not ok 1 known # TODO broken\nok 1 aaa/t0001-first.sh\n",
		"ktap.txt: a TODO subtest");
	has_str(ktap, "# aaa/t0001-first.sh (run 2)\n", "ktap.txt: a repeat says which run");
	has_str(ktap, "\n# net/t0001-a.sh\n", "ktap.txt: a single run has a plain header");
	has_str(ktap, "not ok 4 net/t0002-b.sh # TIMEOUT after 30 s\n", "ktap.txt: reason");
	has_str(ktap, "    1..0 # SKIP no hwsim\nok 5 timers/t0001-z.sh # SKIP no hwsim\n",
		"ktap.txt: a skipped file");
	has_str(ktap, "    not ok 2 y\nnot ok 6 timers/t0003-c.sh\n", "ktap.txt: a failed file");
	log = slurp(log1);
	is_str(log, "net/t0001-a.sh", "shard 1's logs under the merged folder");
	free(log);
	log = slurp(log2);
	is_str(log, "net/t0002-b.sh", "shard 2's logs in the same suite folder");
	free(log);
	ok(path_exists(log3), "a repeat's folder too");
	{
		_cleanup_free_ char *html = xasprintf("%s/report.html", out);

		ok(path_exists(html), "report.html written");
	}

	ok(merge_runs(reversed, 2, out2, &e) == 0, "merge: shards given in the other order");
	b = slurp(json2);
	ok(a && b && !strcmp(a, b), "the same results.json whatever the order");
}

static void test_merge_interrupted(char **dirs)
{
	_cleanup_free_ char *out = path_in("merged-int");
	_cleanup_free_ char *cut = write_run("cut", "2/2", 130, other);
	char *v[] = { dirs[0], cut };
	struct loaded_run lr;
	struct uerr e;

	ok(merge_runs(v, 2, out, &e) == 0, "merge with an interrupted shard");
	results_load(out, &lr, &e);
	is_int(lr.info.exit_code, 130, "an interrupted shard's exit code wins");
	results_free(&lr);
}

/* Refused: -1, EXIT_USAGE, a message naming the problem; nothing left behind. */
static void refused(char **dirs, size_t n, const char *out, const char *want, const char *name)
{
	_cleanup_free_ char *left = xasprintf("%s.merging-%ld", out, (long)getpid());
	bool existed = path_exists(out);
	struct uerr e = { 0 };

	ok(merge_runs(dirs, n, out, &e) == -1 && e.code == EXIT_USAGE && strstr(e.msg, want) &&
	       !strchr(e.msg, '\n'),
	   "refused: %s", name);
	if (!strstr(e.msg, want))
		diag("message: %s", e.msg);
	ok(path_exists(out) == existed && !path_exists(left), "refused: %s: nothing written", name);
}

/* A run's results.json with one text put in place of another. */
static void retag(const char *dir, const char *from, const char *to)
{
	_cleanup_free_ char *json = xasprintf("%s/results.json", dir);
	_cleanup_free_ char *text = slurp(json);
	char *at = text ? strstr(text, from) : NULL;
	_cleanup_free_ char *out = NULL;

	if (!at) {
		diag("retag: %s not in %s", from, json);
		return;
	}
	out = xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	write_file_atomic(json, out, strlen(out));
}

static void test_merge_refused(char **dirs)
{
	_cleanup_free_ char *out = path_in("refused");
	_cleanup_free_ char *full = path_in("full");
	_cleanup_free_ char *full_file = xasprintf("%s/x", full);
	_cleanup_free_ char *plain = write_run("plain", NULL, 0, other);
	_cleanup_free_ char *three = write_run("three", "2/3", 0, other);
	_cleanup_free_ char *again = write_run("again", "1/2", 0, other);
	_cleanup_free_ char *twice = write_run("twice", "2/2", 0, in_both);
	_cleanup_free_ char *stray = write_run("stray", "2/2", 0, other);
	_cleanup_free_ char *stray_dir = xasprintf("%s/timers/t0003-c", stray);
	_cleanup_free_ char *stray_log = xasprintf("%s/timers/t0003-c/console.log", stray);
	_cleanup_free_ char *nothing = path_in("nothing");
	_cleanup_free_ char *basic = write_run("basic", "2/2", 0, other);
	_cleanup_free_ char *kernel = write_run("kernel", "2/2", 0, other);
	_cleanup_free_ char *no_shard = xasprintf("%s is not a shard's run", plain);
	_cleanup_free_ char *both = xasprintf("%s and %s are both shard 1/2", dirs[0], again);

	refused((char *[]){ dirs[0], plain }, 2, out, no_shard, "a run without a shard");
	refused((char *[]){ dirs[0], three }, 2, out, "not shards of one split", "N disagrees");
	refused((char *[]){ dirs[0] }, 1, out, "shard 2/2 is missing", "a missing shard");
	refused((char *[]){ dirs[0], again }, 2, out, both, "a shard given twice");
	refused((char *[]){ dirs[0], dirs[1], again }, 3, out, "are both shard 1/2",
		"a third folder for two shards");
	refused((char *[]){ dirs[0], twice }, 2, out, "test net/t0001-a.sh ran in two shards",
		"a test in two shards");
	refused((char *[]){ dirs[0], nothing }, 2, out, "results.json", "a folder with no results");
	retag(basic, "\"mode\": \"inf-cpu\"", "\"mode\": \"basic\"");
	refused((char *[]){ dirs[0], basic }, 2, out, "under time travel inf-cpu but",
		"shards run under two time-travel modes");
	retag(kernel, "\"kernel_key\": \"abc\"", "\"kernel_key\": \"def\"");
	refused((char *[]){ dirs[0], kernel }, 2, out, "ran kernel abc but",
		"shards run on two kernels");
	refused((char *[]){ NULL }, 0, out, "nothing to merge", "no folders");
	mkdir_p(full, 0755);
	write_file_atomic(full_file, "x", 1);
	refused(dirs, 2, full, "already exists", "an output folder in use");
	/* Found while copying, after the checks: the temporary folder goes. */
	mkdir_p(stray_dir, 0755);
	write_file_atomic(stray_log, "x", 1);
	refused((char *[]){ dirs[0], stray }, 2, out,
		"t0003-c/console.log: another shard has this file too", "the same log file twice");
}

/* A shard run as write_run makes it, under another name: a copy to tamper with. */
static char *fresh_pair(const char *a, const char *b, char **second)
{
	*second = write_run(b, "2/2", 124, shard2);
	return write_run(a, "1/2", 1, shard1);
}

/*
 * A crafted shard with a link where the other has a test folder: merge
 * followed it and wrote the other shard's files at its target. Now the
 * shard is refused, and nothing is written there.
 */
static void test_merge_links(void)
{
	_cleanup_free_ char *b = NULL;
	_cleanup_free_ char *a = fresh_pair("linkA", "linkB", &b);
	_cleanup_free_ char *outside = path_in("outside");
	_cleanup_free_ char *landed = xasprintf("%s/console.log", outside);
	_cleanup_free_ char *hole = xasprintf("%s/net/t0002-b", a);
	_cleanup_free_ char *want = xasprintf("%s is a symbolic link", hole);
	_cleanup_free_ char *out = path_in("merged-link");
	_cleanup_free_ char *b2 = NULL;
	_cleanup_free_ char *a2 = fresh_pair("linkA2", "linkB2", &b2);
	_cleanup_free_ char *secret = path_in("secret");
	_cleanup_free_ char *log = xasprintf("%s/timers/t0003-c/console.log", a2);
	_cleanup_free_ char *want2 = xasprintf("%s is a symbolic link", log);

	mkdir_p(outside, 0755);
	if (symlink(outside, hole) < 0)
		diag("symlink: %s", strerror(errno));
	refused((char *[]){ a, b }, 2, out, want,
		"a test folder that is a link (in the first shard)");
	ok(!path_exists(landed), "nothing written through the link");
	refused((char *[]){ b, a }, 2, out, want,
		"a test folder that is a link (in the second shard)");
	ok(!path_exists(landed), "nothing written through it either way");

	/* A failed test's console.log linked to a private file: not copied, not read. */
	write_file_atomic(secret, "SECRET-TEXT", 11);
	chmod(secret, 0600);
	unlink(log);
	if (symlink(secret, log) < 0)
		diag("symlink: %s", strerror(errno));
	refused((char *[]){ a2, b2 }, 2, out, want2, "a console.log that is a link");
}

/* report.html shows and links no file through a link (html.c), merged or not. */
static void test_html_links(void)
{
	_cleanup_free_ char *run = path_in("html-run");
	_cleanup_free_ char *tdir = xasprintf("%s/s/t0001-a", run);
	_cleanup_free_ char *secret = path_in("html-secret");
	_cleanup_free_ char *secret_dir = path_in("html-secret-dir");
	_cleanup_free_ char *secret_log = xasprintf("%s/x.log", secret_dir);
	_cleanup_free_ char *console = xasprintf("%s/console.log", tdir);
	_cleanup_free_ char *ktap = xasprintf("%s/ktap.log", tdir);
	_cleanup_free_ char *art = xasprintf("%s/artifacts", tdir);
	_cleanup_free_ char *html = xasprintf("%s/report.html", run);
	_cleanup_free_ char *page = NULL;
	struct test t = { .id = "s/t0001-a.sh" };
	struct record r = { .test = &t, .attempt = 1, .dir = "s/t0001-a", .verdict = V_FAIL };
	struct run_info ri = { .mode = "inf-cpu" };
	struct uerr e;

	mkdir_p(tdir, 0755);
	mkdir_p(secret_dir, 0755);
	write_file_atomic(secret, "SECRET-TEXT\n", 12);
	chmod(secret, 0600);
	write_file_atomic(secret_log, "x", 1);
	if (symlink(secret, console) < 0 || symlink(secret, ktap) < 0 ||
	    symlink(secret_dir, art) < 0)
		diag("symlink: %s", strerror(errno));
	ktap_init(&r.ktap);
	if (!ok(report_write_html(html, run, &ri, &r, 1, &e) == 0, "report.html written"))
		diag("%s", e.msg);
	page = slurp(html);
	ok(page && !strstr(page, "SECRET-TEXT"), "report.html: a linked console.log is not read");
	has_str(page, "console.log could not be read", "report.html: says it could not be read");
	ok(page && !strstr(page, "ktap.log\">"), "report.html: no link to a linked ktap.log");
	ok(page && !strstr(page, "x.log"), "report.html: a linked artifacts folder is not scanned");
	ktap_free(&r.ktap);
}

/* A crafted reason or subtest name: no raw control character in ktap.txt or junit.xml. */
static void test_merge_controls(void)
{
	_cleanup_free_ char *b = NULL;
	_cleanup_free_ char *a = fresh_pair("ctlA", "ctlB", &b);
	_cleanup_free_ char *json = xasprintf("%s/results.json", a);
	_cleanup_free_ char *text = slurp(json);
	_cleanup_free_ char *out = path_in("merged-ctl");
	_cleanup_free_ char *ktap_path = xasprintf("%s/ktap.txt", out);
	_cleanup_free_ char *junit_path = xasprintf("%s/junit.xml", out);
	_cleanup_free_ char *ktap = NULL, *junit = NULL;
	struct strbuf sb = { 0 };
	struct uerr e;
	bool raw = false;
	const char *from = "\"name\": \"y\"", *at;

	/* Subtest "y" of net/t0001-a.sh gets ESC, CR, BEL and a C1 CSI. */
	at = text ? strstr(text, from) : NULL;
	if (!ok(at != NULL, "the shard's results.json has the subtest"))
		return;
	sb_printf(&sb, "%.*s\"name\": \"y\\u001b[2J\\r\\u0007\\u009b\"%s", (int)(at - text), text,
		  at + strlen(from));
	write_file_atomic(json, sb.buf, sb.len);
	sb_release(&sb);
	if (!ok(merge_runs((char *[]){ a, b }, 2, out, &e) == 0, "merge: a crafted subtest name"))
		diag("%s", e.msg);
	ktap = slurp(ktap_path);
	junit = slurp(junit_path);
	for (const char *p = ktap ? ktap : ""; *p; p++)
		raw |= (*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f ||
		       (unsigned char)*p == 0xc2;
	ok(ktap && !raw, "ktap.txt: no raw control character");
	has_str(ktap, "    ok 2 y\\x1b[2J\\x0d\\x07\\xc2\\x9b # SKIP no radio\n",
		"ktap.txt: the name as a run shows it");
	has_str(junit, "name=\"y\\x1b[2J\\x0d\\x07\\xc2\\x9b\"", "junit.xml: the same");
}

int main(void)
{
	char *dirs[2];

	plan(113);
	if (!mkdtemp(tmp)) {
		ok(false, "mkdtemp");
		return done_testing();
	}
	dirs[0] = write_run("shard1", "1/2", 1, shard1);
	dirs[1] = write_run("shard2", "2/2", 124, shard2);
	test_load(dirs[0], dirs[1]);
	test_load_errors();
	test_merge_ok(dirs);
	test_merge_interrupted(dirs);
	test_merge_refused(dirs);
	test_merge_links();
	test_html_links();
	test_merge_controls();
	free(dirs[0]);
	free(dirs[1]);
	rm_rf(tmp);
	return done_testing();
}
