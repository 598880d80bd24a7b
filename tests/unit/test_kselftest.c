// SPDX-License-Identifier: MIT
/* test_kselftest.c - target names, settings, build errors, the skip table. */
#define _GNU_SOURCE
#include "kselftest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

static void test_target_names(void)
{
	static const struct {
		const char *name;
		bool ok;
	} cases[] = {
		{ "timers", true },
		{ "futex", true },
		{ "net/forwarding", true },
		{ "drivers/net/bonding", true },
		{ "", false },
		{ "/timers", false },
		{ "timers/", false },
		{ "../timers", false },
		{ "net/../..", false },
		{ "net//x", false },
		{ "-j2", false },
		{ "tim ers", false },
		{ "timers;rm", false },
		{ "$(x)", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ok(kselftest_target_name_ok(cases[i].name) == cases[i].ok, "target name '%s': %s",
		   cases[i].name, cases[i].ok ? "taken" : "refused");
}

static void test_timeout(void)
{
	is_int(kselftest_timeout(NULL), KSELFTEST_TIMEOUT_DEFAULT,
	       "no settings file: kselftest's 45 s");
	is_int(kselftest_timeout("timeout=0\n"), KSELFTEST_TIMEOUT_NONE,
	       "timeout=0 (no limit): a simulated day");
	is_int(kselftest_timeout("# comment\ntimeout=300"), 300,
	       "timeout= after a comment, no final newline");
	is_int(kselftest_timeout("other=1\n"), KSELFTEST_TIMEOUT_DEFAULT,
	       "a settings file without timeout=: the default");
	is_int(kselftest_timeout("timeout=ten\n"), -1, "timeout=ten: refused");
	is_int(kselftest_timeout("timeout=-5\n"), -1, "timeout=-5: refused");
	is_int(kselftest_timeout("timeout=5s\n"), -1, "timeout=5s: refused");
}

static void test_error_lines(void)
{
	const char *log = "make: Entering directory '/x/timers'\n"
			  "gcc -static -O3 nanosleep.c -o /o/nanosleep\n"
			  "nanosleep.c:12:3: error: unknown type name 'foo'\n"
			  "nanosleep.c: In function 'main':\n"
			  "/usr/bin/ld: libc.a(clock_adjtime.o): multiple definition of "
			  "`clock_adjtime'\n"
			  "/bin/sh: 6: rsync: not found\n"
			  "x.c:1:10: fatal error: foo.h: No such file or directory\n"
			  "make: *** [../lib.mk:155: /o/nanosleep] Error 1\n";
	char *got = kselftest_error_lines(log, 3);

	is_str(got,
	       "nanosleep.c:12:3: error: unknown type name 'foo' | /usr/bin/ld: "
	       "libc.a(clock_adjtime.o): multiple definition of `clock_adjtime' | /bin/sh: 6: "
	       "rsync: not found",
	       "error lines: the first three, named, joined");
	free(got);
	got = kselftest_error_lines(log, 10);
	has_str(got, "fatal error: foo.h", "error lines: fatal errors count");
	lacks_str(got, "Entering directory", "error lines: not make's chatter");
	free(got);
	ok(kselftest_error_lines("make: Nothing to be done\n", 3) == NULL,
	   "error lines: none in a clean log");
	ok(kselftest_error_lines(NULL, 3) == NULL, "error lines: no log");
}

/* Whether sh -n accepts a rule's script, in the braces it is generated in. */
static bool shell_parses(const char *script)
{
	FILE *p = popen("sh -n", "w");

	if (!p)
		return false;
	fprintf(p, "{\n%s\n}\n", script);
	return pclose(p) == 0;
}

static void test_rules(void)
{
	struct ksft_how how;
	const char *why;

	why = kselftest_rule("timers", "posix_timers", TT_INF_CPU, NULL, true, false, &how);
	has_str(why, "ITIMER_VIRTUAL", "posix_timers: skipped, saying why");
	why = kselftest_rule("timers", "posix_timers", TT_OFF, NULL, true, false, &how);
	ok(why != NULL, "posix_timers: skipped with time travel off too");
	why = kselftest_rule("timers", "inconsistency-check", TT_INF_CPU, NULL, false, false, &how);
	ok(why == NULL && how.script && strstr(how.script, "-t 1 -c") && !how.cost_ns,
	   "inconsistency-check under inf-cpu without the cost: one clock at a time, by a script");
	why = kselftest_rule("timers", "inconsistency-check", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL && !how.script && !how.args && how.cost_ns == 50000000,
	   "inconsistency-check under inf-cpu with the cost: as written, 50 ms a call");
	why = kselftest_rule("timers", "inconsistency-check", TT_BASIC, NULL, true, false, &how);
	ok(why == NULL && how.script && !how.cost_ns,
	   "inconsistency-check under basic time travel: the script (the cost is inf-cpu's)");
	ok(how.script && shell_parses(how.script),
	   "inconsistency-check's script is valid shell (an apostrophe in its message broke it)");
	ok(how.script && strstr(how.script, "umlrun's syscall-cost patch"),
	   "inconsistency-check's script says which clocks it leaves out, and why");
	why = kselftest_rule("timers", "threadtest", TT_INF_CPU, NULL, false, false, &how);
	ok(why && !strncmp(why, "UML limitation: ", 16) && strstr(why, "syscall-cost patch"),
	   "threadtest under inf-cpu without the cost: a UML limitation, naming the patch");
	why = kselftest_rule("timers", "threadtest", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL && how.cost_ns, "threadtest under inf-cpu with the cost: runs");
	why = kselftest_rule("timers", "threadtest", TT_OFF, NULL, true, false, &how);
	ok(why == NULL && how.args && !strcmp(how.args, "-t 1") && !how.cost_ns,
	   "threadtest with time travel off: runs, with -t 1");
	why = kselftest_rule("timers", "set-2038", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL && how.cost_ns == 10000000,
	   "set-2038 with the cost: 10 ms a call, inside nsleep-lat's 40 ms bound");
	why = kselftest_rule("timers", "skew_consistency", TT_OFF, NULL, true, false, &how);
	ok(why != NULL, "skew_consistency with time travel off: skipped (600 s of polling)");
	why = kselftest_rule("timers", "rtcpie", TT_INF_CPU, NULL, true, false, &how);
	ok(why && !strncmp(why, "missing kernel option: ", 23), "rtcpie: a missing kernel option");
	why = kselftest_rule("timers", "rtcpie", TT_INF_CPU, "CONFIG_A=y\nCONFIG_UML_RTC=y\n", true,
			     false, &how);
	ok(why == NULL, "rtcpie: runs when the kernel has CONFIG_UML_RTC");
	why =
	    kselftest_rule("timers", "alarmtimer-suspend", TT_INF_CPU,
			   "# CONFIG_UML_RTC is not set\nCONFIG_UML_RTC_X=y\n", true, false, &how);
	ok(why != NULL, "alarmtimer-suspend: skipped when the option is off (not its prefix)");
	why = kselftest_rule("timers", "nanosleep", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL && how.args == NULL && !how.cost_ns,
	   "nanosleep: runs, no arguments, no cost");
	why = kselftest_rule("timens", "gettime_perf", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL && !how.args && how.cost_ns == 50000000,
	   "timens gettime_perf under inf-cpu with the cost: as written, 50 ms a call");
	why = kselftest_rule("timens", "gettime_perf", TT_INF_CPU, NULL, false, false, &how);
	ok(why && !strncmp(why, "UML limitation: ", 16) && strstr(why, "vDSO"),
	   "timens gettime_perf without the cost: skipped, its vDSO polling the reason");
	why = kselftest_rule("timens", "gettime_perf", TT_BASIC, NULL, true, false, &how);
	ok(why != NULL, "timens gettime_perf under basic time travel: skipped");
	why = kselftest_rule("timens", "gettime_perf", TT_OFF, NULL, true, false, &how);
	ok(why == NULL && !how.cost_ns, "timens gettime_perf with time travel off: runs (24 s)");
	why = kselftest_rule("timer", "s/posix_timers", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL, "a rule matches whole names only");
	why = kselftest_rule("futex", "posix_timers", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL, "a rule is for its target only");

	/* A kernel with the stall breaker: the pollers run as written, at no cost. */
	why = kselftest_rule("timers", "inconsistency-check", TT_INF_CPU, NULL, true, true, &how);
	ok(why == NULL && !how.args && !how.script && !how.cost_ns,
	   "inconsistency-check under the stall breaker: as written, no cost");
	why = kselftest_rule("timers", "set-2038", TT_INF_CPU, NULL, true, true, &how);
	ok(why == NULL && !how.cost_ns, "set-2038 under the stall breaker: no cost");
	why = kselftest_rule("timens", "gettime_perf", TT_INF_CPU, NULL, false, true, &how);
	ok(why == NULL && !how.args && !how.cost_ns,
	   "timens gettime_perf under the stall breaker: runs, without the cost patch too");
	why = kselftest_rule("timers", "threadtest", TT_INF_CPU, NULL, true, true, &how);
	ok(why == NULL && !how.args && !how.cost_ns,
	   "threadtest under the stall breaker: as written (30 s, not -t 1), no cost");
	why = kselftest_rule("timers", "leapcrash", TT_INF_CPU, NULL, true, true, &how);
	ok(why == NULL && !how.cost_ns, "leapcrash under the stall breaker: no cost");
	why = kselftest_rule("timers", "clocksource-switch", TT_INF_CPU, NULL, true, true, &how);
	ok(why == NULL && !how.args && !how.cost_ns,
	   "clocksource-switch under the stall breaker: as written (its parent's polls count), "
	   "no cost");
	why = kselftest_rule("timers", "clocksource-switch", TT_INF_CPU, NULL, true, false, &how);
	ok(why == NULL && how.cost_ns == 50000000,
	   "clocksource-switch on a kernel without the breaker: its cost");
	why = kselftest_rule("timers", "inconsistency-check", TT_BASIC, NULL, true, true, &how);
	ok(why == NULL && how.script, "the stall breaker is inf-cpu's: basic keeps the script");
	why = kselftest_rule("timers", "posix_timers", TT_INF_CPU, NULL, true, true, &how);
	ok(why && strstr(why, "ITIMER_VIRTUAL"), "the stall breaker does not end a skip");
}

static void test_suite_name(void)
{
	char *n = kselftest_suite_name("timers");

	is_str(n, "kselftest-timers", "suite name");
	free(n);
	n = kselftest_suite_name("drivers/net/bonding");
	is_str(n, "kselftest-drivers-net-bonding", "suite name: '/' becomes '-'");
	free(n);
}

int main(void)
{
	test_target_names();
	test_timeout();
	test_error_lines();
	test_rules();
	test_suite_name();
	return done_testing();
}
