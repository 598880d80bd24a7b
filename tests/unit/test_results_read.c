// SPDX-License-Identifier: MIT
/* test_results_read.c - results.json text that must not be read back. */
#define _GNU_SOURCE
#include "results_read.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "tap.h"

/* One test with one subtest; the %s go into its fields. */
#define ONE_TEST                                                                                   \
	"{\"format\": \"umlrun-results-1\", \"mode\": \"inf-cpu\", \"tests\": [{\"id\": "          \
	"\"%s\", \"attempt\": 1, \"result\": \"fail\", \"reason\": \"%s\", \"end\": "              \
	"\"reported\", \"exit\": 1, \"sim_seconds\": %s, \"wall_seconds\": 0.5, \"dir\": "         \
	"\"s/t0001-a.sh\", \"subtests\": [{\"n\": 1, \"name\": \"%s\", \"result\": \"fail\"}]}]}"

static int parse(const char *id, const char *reason, const char *sim, const char *name,
		 struct loaded_run *lr, struct uerr *e)
{
	_cleanup_free_ char *text = xasprintf(ONE_TEST, id, reason, sim, name);

	memset(e, 0, sizeof(*e));
	return results_parse(text, strlen(text), "r.json", lr, e);
}

static void refused(const char *id, const char *reason, const char *sim, const char *name,
		    const char *want, const char *what)
{
	struct loaded_run lr;
	struct uerr e;
	int r = parse(id, reason, sim, name, &lr, &e);

	if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, want), "%s: refused", what))
		diag("  got: r=%d msg='%s'", r, e.msg);
	ok(lr.n == 0 && !lr.rec, "%s: nothing left loaded", what);
	results_free(&lr);
}

/*
 * Control characters in what goes into ktap.txt, junit.xml or a message
 * come back as \xHH of their bytes, as sched.c's line_byte shows them in a
 * run; tab and the rest of UTF-8 stay.
 */
static void test_controls(void)
{
	static const char shard[] = "\"shard\": \"1\\u001b]0;x\\u0007/2\", ";
	_cleanup_free_ char *text =
	    xasprintf(ONE_TEST, "s/t0001-a.sh", "ERROR \\u001b[2J\\u007fgone\\tstill é", "1",
		      "a\\u001bb\\u0007c\\u0085d");
	_cleanup_free_ char *with_shard = NULL;
	_cleanup_free_ char *raw = NULL;
	struct loaded_run lr;
	struct uerr e = { 0 };
	char *at;

	if (!ok(results_parse(text, strlen(text), "r.json", &lr, &e) == 0,
		"control characters: read"))
		diag("%s", e.msg);
	is_str(lr.n ? lr.rec[0].reason : NULL, "ERROR \\x1b[2J\\x7fgone\tstill é",
	       "a reason's ESC and DEL shown as \\xHH, tab and é kept");
	is_str(lr.n ? lr.rec[0].ktap.cases[0].title : NULL, "a\\x1bb\\x07c\\xc2\\x85d",
	       "a subtest name's ESC, BEL and C1 NEL shown as \\xHH of their bytes");
	results_free(&lr);
	/* An id is a test's name, which holds no control character (suite.c). */
	refused("s/t0001-a\\u009b.sh", "", "1", "a",
		"tests[0]: \"id\" \"s/t0001-a\\xc2\\x9b.sh\" is not SUITE/FILE",
		"an id with a C1 CSI (shown as \\xc2\\x9b)");

	at = strstr(text, "\"tests\"");
	with_shard = xasprintf("%.*s%s%s", (int)(at - text), text, shard, at);
	memset(&e, 0, sizeof(e));
	ok(results_parse(with_shard, strlen(with_shard), "r.json", &lr, &e) == 0 &&
	       !strcmp(lr.info.shard, "1\\x1b]0;x\\x07/2"),
	   "a shard's ESC and BEL shown as \\xHH (it goes into messages)");
	results_free(&lr);

	/* A byte that is not UTF-8 (json-c passes it): a lone 0x9b is CSI to some terminals. */
	raw = xasprintf(ONE_TEST, "s/t0001-a.sh", "bad \x9b byte", "1", "a");
	memset(&e, 0, sizeof(e));
	ok(results_parse(raw, strlen(raw), "r.json", &lr, &e) == 0 && lr.n &&
	       !strcmp(lr.rec[0].reason, "bad \\x9b byte"),
	   "a byte that is not UTF-8 shown as \\x9b");
	results_free(&lr);
}

/* text with its first `from` replaced by `to`. */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void parse_refused(const char *text, const char *want, const char *what)
{
	struct loaded_run lr;
	struct uerr e = { 0 };
	int r = results_parse(text, strlen(text), "r.json", &lr, &e);

	if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, want) && !strchr(e.msg, '\n'),
		"%s: refused", what))
		diag("  got: r=%d msg='%s'", r, e.msg);
	results_free(&lr);
}

/* Numbers no run writes: a merge would print them back. */
static void test_bounds(void)
{
	_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
	_cleanup_free_ char *attempt = replaced(text, "\"attempt\": 1", "\"attempt\": 2147483647");
	_cleanup_free_ char *most = replaced(text, "\"attempt\": 1", "\"attempt\": 1000000");
	_cleanup_free_ char *wall =
	    replaced(text, "\"wall_seconds\": 0.5", "\"wall_seconds\": 1e300");
	_cleanup_free_ char *sim = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1e300", "a");
	_cleanup_free_ char *century = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "3153600000", "a");
	_cleanup_free_ char *run_wall =
	    replaced(text, "\"tests\"", "\"wall_seconds\": 1e300, \"tests\"");
	_cleanup_free_ char *exit256 = replaced(text, "\"tests\"", "\"exit_code\": 256, \"tests\"");
	_cleanup_free_ char *dir = replaced(text, "\"s/t0001-a.sh\", \"subtests\"",
					    "\"s/t0001-\\u001b[2J\", \"subtests\"");
	struct loaded_run lr;
	struct uerr e = { 0 };

	parse_refused(attempt,
		      "r.json: tests[0]: \"attempt\" must be from 1 to 1000000, not 2147483647",
		      "attempt 2147483647");
	ok(results_parse(most, strlen(most), "r.json", &lr, &e) == 0 &&
	       lr.rec[0].attempt == 1000000,
	   "attempt 1000000: read");
	results_free(&lr);
	parse_refused(sim, "r.json: tests[0]: \"sim_seconds\" is not a number of seconds from 0 to",
		      "sim_seconds 1e300");
	parse_refused(wall, "r.json: tests[0]: \"wall_seconds\" is not a number of seconds",
		      "a test's wall_seconds 1e300");
	parse_refused(run_wall, "r.json: \"wall_seconds\" is not a number of seconds",
		      "the run's wall_seconds 1e300");
	parse_refused(exit256, "r.json: \"exit_code\" is not an exit status from 0 to 255: 256",
		      "exit_code 256 (merge exited 0 with it)");
	memset(&e, 0, sizeof(e));
	ok(results_parse(century, strlen(century), "r.json", &lr, &e) == 0,
	   "a century of simulated seconds (the longest timeout): read");
	results_free(&lr);
	parse_refused(dir, "r.json: tests[0]: \"dir\" holds a control character",
		      "a test folder with ESC");
}

/*
 * What no run writes, which merge took: the run folder as a test's folder,
 * a test twice, an id that is a path, a "tests" of the wrong type.
 */
static void test_odd_content(void)
{
	_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
	_cleanup_free_ char *dot = replaced(text, "\"dir\": \"s/t0001-a.sh\"", "\"dir\": \".\"");
	_cleanup_free_ char *dotstep =
	    replaced(text, "\"dir\": \"s/t0001-a.sh\"", "\"dir\": \"s/./t\"");
	_cleanup_free_ char *empty_step =
	    replaced(text, "\"dir\": \"s/t0001-a.sh\"", "\"dir\": \"s//t0001-a\"");
	_cleanup_free_ char *tests_str =
	    replaced(text, "\"tests\": [", "\"tests\": \"x\", \"no\": [");
	const char *first = strstr(text, "{\"id\"");
	_cleanup_free_ char *one = xasprintf("%.*s", (int)(strlen(first) - 2), first);
	_cleanup_free_ char *twice = xasprintf("%.*s%s, %s]}", (int)(first - text), text, one, one);
	_cleanup_free_ char *other =
	    replaced(one, "\"id\": \"s/t0001-a.sh\"", "\"id\": \"s/t0002-b.sh\"");
	_cleanup_free_ char *same_dir =
	    xasprintf("%.*s%s, %s]}", (int)(first - text), text, one, other);
	_cleanup_free_ char *retry = replaced(one, "\"attempt\": 1", "\"attempt\": 2");
	_cleanup_free_ char *retry_dir =
	    replaced(retry, "\"dir\": \"s/t0001-a.sh\"", "\"dir\": \"s/t0001-a.2\"");
	_cleanup_free_ char *repeat =
	    xasprintf("%.*s%s, %s]}", (int)(first - text), text, one, retry_dir);
	struct loaded_run lr;
	struct uerr e = { 0 };

	parse_refused(dot,
		      "r.json: tests[0]: \"dir\" must be a folder inside the run folder "
		      "(SUITE/tNNNN-name), not \".\"",
		      "\"dir\": \".\" (the run folder itself)");
	parse_refused(dotstep, "\"dir\" must be a folder inside the run folder", "a dir of s/./t");
	parse_refused(empty_step, "\"dir\" must be a folder inside the run folder",
		      "a dir of s//t0001-a");
	parse_refused(twice,
		      "r.json: tests[1]: s/t0001-a.sh (attempt 1) is listed twice, also as "
		      "tests[0]: a run lists each test once",
		      "the same test twice in one file");
	parse_refused(same_dir,
		      "r.json: tests[1]: \"dir\" s/t0001-a.sh is also tests[0]'s: a run gives each "
		      "test a folder of its own",
		      "two tests in one folder");
	if (!ok(results_parse(repeat, strlen(repeat), "r.json", &lr, &e) == 0 && lr.n == 2,
		"a test's two attempts (--repeat), each in its own folder: read"))
		diag("  got: %s", e.msg);
	results_free(&lr);
	parse_refused(tests_str, "r.json: \"tests\" is not an array", "\"tests\": \"x\"");
	for (size_t i = 0; i < 6; i++) {
		static const char *const ids[] = { "../../etc/t0001-x.sh", "./t0001-x.sh",
						   "s/../t0001-x.sh",	   "../t0001-x.sh",
						   "t0001-x.sh",	   "s/t0001 x.sh" };
		_cleanup_free_ char *want =
		    xasprintf("tests[0]: \"id\" \"%s\" is not SUITE/FILE", ids[i]);

		refused(ids[i], "", "1", "a", want, ids[i]);
	}
}

/* A run keeps 100,000 results of a test file; a file bounds umlrun's memory. */
static void test_size_bounds(void)
{
	const char *case1 = "{\"n\": 1, \"name\": \"a\", \"result\": \"pass\"}";
	_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
	const char *at = strstr(text, "\"subtests\": [") + strlen("\"subtests\": [");
	struct strbuf many = { 0 }, all = { 0 };
	char tmp[] = "/tmp/umlrun-test-big-XXXXXX";
	struct loaded_run lr;
	struct uerr e = { 0 };
	int fd;

	sb_add(&many, text, (size_t)(at - text));
	for (int i = 0; i <= KTAP_MAX_CASES; i++)
		sb_printf(&many, "%s%s", i ? ", " : "", case1);
	sb_printf(&many, "]}]}");
	parse_refused(
	    many.buf,
	    "r.json: tests[0]: 100001 subtests: a run keeps at most 100000 of a test file",
	    "100,001 subtests in one test");
	sb_add(&all, text, (size_t)(at - text));
	for (int i = 0; i <= RESULTS_SUBTESTS_MAX; i++)
		sb_add(&all, i ? ", 0" : "0", i ? 3 : 1);
	sb_printf(&all, "]}]}");
	parse_refused(all.buf,
		      "r.json: 1000001 subtests in all: umlrun reads at most 1000000 from one file",
		      "1,000,001 subtests in one file");
	sb_release(&many);
	sb_release(&all);
	fd = mkstemp(tmp);
	ok(fd >= 0 && ftruncate(fd, RESULTS_FILE_MAX + 1) == 0 &&
	       results_load_file(tmp, &lr, &e) < 0 && e.code == EXIT_USAGE &&
	       strstr(e.msg, "is larger than umlrun reads back (64 MiB"),
	   "a results.json over 64 MiB: refused before it is read");
	results_free(&lr);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
}

/* results_load reads a run folder's results.json only as a file of its own. */
static void test_link(void)
{
	char tmp[] = "/tmp/umlrun-test-rr-XXXXXX";
	_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
	_cleanup_free_ char *real = NULL, *json = NULL, *run = NULL, *want = NULL;
	struct loaded_run lr;
	struct uerr e = { 0 };

	if (!ok(mkdtemp(tmp) != NULL, "mkdtemp"))
		return;
	real = xasprintf("%s/elsewhere.json", tmp);
	run = xasprintf("%s/run", tmp);
	json = xasprintf("%s/results.json", run);
	want = xasprintf("%s is a symbolic link", json);
	write_file_atomic(real, text, strlen(text));
	mkdir(run, 0755);
	if (symlink(real, json) < 0)
		diag("symlink: %s", strerror(errno));
	ok(results_load(run, &lr, &e) < 0 && e.code == EXIT_USAGE && strstr(e.msg, want),
	   "a results.json that is a symbolic link: refused");
	if (!strstr(e.msg, want))
		diag("  got: %s", e.msg);
	results_free(&lr);
	memset(&e, 0, sizeof(e));
	ok(results_load_file(json, &lr, &e) == 0,
	   "results_load_file (--durations FILE, given by the user) follows it");
	results_free(&lr);
	rm_rf(tmp);
}

int main(void)
{
	struct loaded_run lr;
	struct uerr e;

	plan(46 + 1 + 19 + 3 + 3);
	if (!is_int(parse("s/t0001-a.sh", "", "1.25", "first", &lr, &e), 0, "a good file parses"))
		diag("%s", e.msg);
	is_str(lr.rec[0].test->id, "s/t0001-a.sh", "its id");
	ok(lr.rec[0].outcome.sim_seconds == 1.25, "its simulated seconds");
	is_str(lr.rec[0].ktap.cases[0].title, "first", "its subtest");
	ok(!lr.dir, "results_parse: no folder");
	results_free(&lr);

	/* Found by tests/fuzz/fuzz_results.c: each of these was read, and a
	 * merge would have written it into its ktap.txt or results.json. */
	refused("s/t0001-a.sh", "", "1", "second\\nok 2 made up", "tests[0].subtests[0]: \"name\"",
		"a subtest name with a line break");
	refused("s/t0001-a.sh\\nok 9 x", "", "1", "a", "tests[0]: \"id\"",
		"an id with a line break");
	refused("s/t0001-a.sh", "SKIP x\\nok 9 y", "1", "a", "tests[0]: \"reason\"",
		"a reason with a line break");
	refused("s/t0001-a.sh", "", "NaN", "a", "\"sim_seconds\" is not a number of seconds",
		"NaN seconds (written back as nan: not JSON)");
	refused("s/t0001-a.sh", "", "Infinity", "a", "\"sim_seconds\"", "infinite seconds");
	refused("s/t0001-a.sh", "", "-1.5", "a", "\"sim_seconds\"", "negative seconds");
	{
		/* Found by fuzz_results: a negative count of failed tries was read. */
		_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
		_cleanup_free_ char *bad = NULL;
		char *at = strstr(text, "\"dir\"");

		bad = xasprintf("%.*s\"failed_attempts\": -1, %s", (int)(at - text), text, at);
		memset(&e, 0, sizeof(e));
		ok(results_parse(bad, strlen(bad), "r.json", &lr, &e) < 0 &&
		       strstr(e.msg, "\"failed_attempts\" must be from 0 to 1000000"),
		   "failed_attempts of -1: refused");
		ok(lr.n == 0, "failed_attempts of -1: nothing left loaded");
		results_free(&lr);
	}
	{
		/* A test's cost is read back; a negative count is refused. */
		_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
		_cleanup_free_ char *good = NULL, *bad = NULL;
		char *at = strstr(text, "\"dir\"");
#define COST                                                                                       \
	"\"cost\": {\"guest_forks\": 30, \"guest_page_faults\": 2930, "                            \
	"\"host_user_seconds\": 0.4, \"host_system_seconds\": 0.7, "                               \
	"\"host_page_faults\": 7216, \"host_context_switches\": %d}, "
		_cleanup_free_ char *c1 = xasprintf(COST, 23906), *c2 = xasprintf(COST, -1);
#undef COST

		good = xasprintf("%.*s%s%s", (int)(at - text), text, c1, at);
		bad = xasprintf("%.*s%s%s", (int)(at - text), text, c2, at);
		memset(&e, 0, sizeof(e));
		ok(results_parse(good, strlen(good), "r.json", &lr, &e) == 0 &&
		       lr.rec[0].outcome.cost.guest_forks == 30 &&
		       lr.rec[0].outcome.cost.host_context_switches == 23906,
		   "a test's cost is read");
		results_free(&lr);
		memset(&e, 0, sizeof(e));
		ok(results_parse(bad, strlen(bad), "r.json", &lr, &e) < 0 &&
		       strstr(e.msg, "negative"),
		   "a negative cost count: refused");
		results_free(&lr);
	}
	{
		/* The wall-clock stall breaker's episodes are read back; a negative count is
		 * refused. */
		_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
		_cleanup_free_ char *good =
		    replaced(text, "\"dir\"", "\"stall_breaker\": 3, \"dir\"");
		_cleanup_free_ char *bad =
		    replaced(text, "\"dir\"", "\"stall_breaker\": -1, \"dir\"");

		memset(&e, 0, sizeof(e));
		ok(results_parse(good, strlen(good), "r.json", &lr, &e) == 0 &&
		       lr.rec[0].outcome.stall_breaks == 3,
		   "a test's stall_breaker count is read");
		results_free(&lr);
		memset(&e, 0, sizeof(e));
		ok(results_parse(text, strlen(text), "r.json", &lr, &e) == 0 &&
		       lr.rec[0].outcome.stall_breaks == 0,
		   "no stall_breaker: none");
		results_free(&lr);
		parse_refused(bad, "\"stall_breaker\" must not be negative",
			      "a negative stall_breaker count");
	}
	/* A folder outside the run folder: merge would copy it, the report link it. */
	for (size_t i = 0; i < 3; i++) {
		static const char *const dirs[] = { "/etc", "../../etc", "s/../../x" };
		_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a");
		_cleanup_free_ char *bad = NULL;
		char *at = strstr(text, "\"s/t0001-a.sh\", \"subtests\"");

		bad = xasprintf("%.*s\"%s\"%s", (int)(at - text), text, dirs[i],
				at + strlen("\"s/t0001-a.sh\""));
		memset(&e, 0, sizeof(e));
		ok(results_parse(bad, strlen(bad), "r.json", &lr, &e) < 0 &&
		       strstr(e.msg, "must be a folder inside the run folder"),
		   "a test folder of %s: refused", dirs[i]);
		ok(lr.n == 0, "a test folder of %s: nothing left loaded", dirs[i]);
		results_free(&lr);
	}
	{
		static const char text[] = "{\"format\": \"umlrun-results-1\"} junk";

		memset(&e, 0, sizeof(e));
		ok(results_parse(text, sizeof(text) - 1, "r.json", &lr, &e) < 0 &&
		       strstr(e.msg, "r.json: not valid JSON: text after the end"),
		   "text after the object: refused, named by the name given");
	}
	{
		/* A carriage return can come from a guest's KTAP line: shown, as a run shows it. */
		_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a\\r");

		ok(results_parse(text, strlen(text), "r.json", &lr, &e) == 0 &&
		       !strcmp(lr.rec[0].ktap.cases[0].title, "a\\x0d"),
		   "a carriage return in a name: shown as \\x0d");
		results_free(&lr);
	}
	test_controls();
	test_bounds();
	test_odd_content();
	test_size_bounds();
	test_link();
	return done_testing();
}
