// SPDX-License-Identifier: MIT
/* test_results_read.c - results.json text that must not be read back. */
#define _GNU_SOURCE
#include "results_read.h"

#include <stdio.h>

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

int main(void)
{
	struct loaded_run lr;
	struct uerr e;

	plan(29);
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
		       strstr(e.msg, "\"failed_attempts\" must be 0 or more"),
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
		/* A carriage return can come from a guest's KTAP line: kept. */
		_cleanup_free_ char *text = xasprintf(ONE_TEST, "s/t0001-a.sh", "", "1", "a\\r");

		ok(results_parse(text, strlen(text), "r.json", &lr, &e) == 0 &&
		       !strcmp(lr.rec[0].ktap.cases[0].title, "a\r"),
		   "a carriage return in a name: kept");
		results_free(&lr);
	}
	return done_testing();
}
