// SPDX-License-Identifier: MIT
/* test_starttime.c - --start and the kernel's time-travel-start= value. */
#define _GNU_SOURCE
#include "starttime.h"

#include <inttypes.h>
#include <time.h>

#include "tap.h"

static void test_good(void)
{
	static const struct {
		const char *when;
		int64_t secs;
	} cases[] = {
		{ "0", 0 },
		{ "1700000000", 1700000000 },
		{ "99999999999", 99999999999LL },
		/* The bound of both forms (found by tests/fuzz/fuzz_starttime.c:
		 * 9024-02-29 was read, its 12-digit seconds were not). */
		{ "253402300799", 253402300799LL },
		{ "9999-12-31T23:59:59Z", 253402300799LL },
		{ "9024-02-29", 222607785600LL },
		{ "0000000000000000001", 1 }, /* leading zeros: the value counts */
		{ "1970-01-01", 0 },
		{ "2024-02-29", 1709164800 },
		{ "2000-02-29", 951782400 }, /* divisible by 400: leap */
		{ "2024-02-29T12:30:00Z", 1709209800 },
		{ "2024-02-29t12:30:00z", 1709209800 },
		{ "2024-02-29T12:30Z", 1709209800 },
		{ "2024-02-29T12:30:00", 1709209800 }, /* no zone: UTC */
		{ "2024-02-29T12:30:00+02:00", 1709202600 },
		{ "2024-02-29T12:30:00+0200", 1709202600 },
		{ "2024-02-29T12:30:00-05:30", 1709229600 },
		{ "2024-02-29 12:30:00+02:00", 1709202600 },
		{ "2024-12-31T23:59:59Z", 1735689599 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t got = -42;
		struct uerr e = { 0 };
		int r = start_parse(cases[i].when, &got, &e);

		if (!ok(r == 0 && got == cases[i].secs, "start_parse '%s'", cases[i].when))
			diag("  got: r=%d secs=%" PRId64 " want %" PRId64 " (%s)", r, got,
			     cases[i].secs, e.msg);
	}
	{
		int64_t got = 0;
		struct uerr e = { 0 };
		time_t before = time(NULL);
		int r = start_parse("now", &got, &e);

		ok(r == 0 && got >= before && got <= time(NULL) + 1, "start_parse 'now'");
	}
}

static void test_bad(void)
{
	static const char *const bad[] = {
		"2023-02-29",		     /* not a leap year */
		"2100-02-29",		     /* divisible by 100: not leap */
		"2024-13-01",		     /* month 13 */
		"2024-00-10",		     /* month 0 */
		"2024-04-31",		     /* April has 30 days */
		"2024-01-00",		     /* day 0 */
		"yesterday-ish",	     /* words */
		"12abc",		     /* digits then junk */
		"",			     /* nothing */
		"-1",			     /* negative seconds */
		"1969-12-31",		     /* before 1970 */
		"1970-01-01T00:30:00+01:00", /* before 1970 once the offset applies */
		"253402300800",		     /* after 9999-12-31T23:59:59Z */
		"9999-12-31T23:59:59-00:01", /* the same, through the offset */
		"99999999999999999999999",   /* would overflow 64 bits */
		"2024-2-29",		     /* one-digit month */
		"2024-02-29T",		     /* T without a time */
		"2024-02-29T24:00",	     /* hour 24 */
		"2024-02-29T12:60",	     /* minute 60 */
		"2024-02-29T12:30:00+24:00", /* offset hour 24 */
		"2024-02-29T12:30:00Zjunk",  /* trailing junk */
		"2024-02-29junk",	     /* trailing junk after a date */
		" 1700000000",		     /* leading blank */
		"1700000000 ",		     /* trailing blank */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t got = 0;
		struct uerr e = { 0 };
		int r = start_parse(bad[i], &got, &e);
		_cleanup_free_ char *named = xasprintf("--start=%s:", bad[i]);

		if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, named),
			"start_parse rejects '%s', exit 2, names it", bad[i]))
			diag("  got: r=%d secs=%" PRId64 " code=%d msg='%s'", r, got, e.code,
			     e.msg);
	}
}

static void test_unit_from_help(void)
{
	static const char help61[] =
	    "User Mode Linux v6.1.0\n"
	    "\tavailable at http://user-mode-linux.sourceforge.net/\n\n"
	    "time-travel\n"
	    "time-travel=inf-cpu\n"
	    "time-travel=ext:[ID:]UNIX-SOCKET-PATH\n"
	    "    This option just enables basic time travel mode...\n\n"
	    "time-travel-start=<nanoseconds>\n"
	    "    Configure the UML instance's wall clock to start at this value rather than\n"
	    "    the host's wall clock at the time of UML boot.\n";
	static const char help5[] = "time-travel-start=<seconds>\n"
				    "    Configure the UML instance's wall clock to start at this "
				    "value rather than\n";
	static const char help_none[] = "User Mode Linux v6.1.0\n"
					"time-travel\n"
					"mem=<Amount of desired ram>\n";
	static const char help_odd[] = "time-travel-start=<jiffies>\n";

	is_int(start_unit_from_help(help61), START_UNIT_NANOSECONDS, "help: 6.1 nanoseconds");
	is_int(start_unit_from_help(help5), START_UNIT_SECONDS, "help: 5.x seconds");
	is_int(start_unit_from_help(help_none), START_UNIT_UNKNOWN, "help: no time-travel-start");
	is_int(start_unit_from_help(help_odd), START_UNIT_UNKNOWN, "help: unknown unit");
	is_int(start_unit_from_help(""), START_UNIT_UNKNOWN, "help: empty");
	for (int u = START_UNIT_UNKNOWN; u <= START_UNIT_NANOSECONDS; u++)
		is_int(start_unit_from_name(start_unit_name((enum start_unit)u)), u,
		       start_unit_name((enum start_unit)u));
	is_int(start_unit_from_name("fortnights"), START_UNIT_UNKNOWN, "unit name: unknown");
}

static void test_to_kernel(void)
{
	uint64_t out = 7;
	struct uerr e = { 0 };

	is_int(start_to_kernel(1700000000, START_UNIT_NANOSECONDS, &out, &e), 0, "ns: converts");
	ok(out == 1700000000000000000ULL, "ns: seconds * 1e9");
	is_int(start_to_kernel(1700000000, START_UNIT_SECONDS, &out, &e), 0, "s: converts");
	ok(out == 1700000000ULL, "s: as given");
	is_int(start_to_kernel(0, START_UNIT_NANOSECONDS, &out, &e), 0, "ns: the epoch");
	ok(out == 0, "ns: the epoch is 0");

	is_int(start_to_kernel(1700000000, START_UNIT_UNKNOWN, &out, &e), -1, "unknown unit fails");
	is_int(e.code, EXIT_INFRA, "unknown unit: exit 3 (the kernel is wrong)");
	has_str(e.msg, "time-travel-start", "unknown unit: names the parameter");

	/* The kernel's clock ends at TIME_SETTOD_SEC_MAX: 2232-04-18T23:47:15Z is the last. */
	is_int(start_to_kernel(8277292035LL, START_UNIT_NANOSECONDS, &out, &e), 0,
	       "ns: the last second the kernel sets");
	ok(out == 8277292035000000000ULL, "ns: the last second's value");
	e.code = 0;
	is_int(start_to_kernel(8277292036LL, START_UNIT_NANOSECONDS, &out, &e), -1,
	       "ns: one second more is refused (the guest would start at 1970)");
	is_int(e.code, EXIT_USAGE, "past the kernel's clock: exit 2");
	has_str(e.msg, "2232-04-18T23:47:15Z", "past the kernel's clock: names the last time");
	is_int(start_to_kernel(99999999999LL, START_UNIT_SECONDS, &out, &e), -1,
	       "s: the same bound in seconds");
	is_int(start_to_kernel(-1, START_UNIT_SECONDS, &out, &e), -1, "negative: fails");
	is_int(e.code, EXIT_USAGE, "negative: exit 2");
	{
		int64_t secs = 0;

		start_parse("9999-12-31", &secs, &e);
		is_int(start_to_kernel(secs, START_UNIT_NANOSECONDS, &out, &e), -1,
		       "ns: year 9999 overflows");
	}
}

/* START_DEFAULT and the date --help shows for it are the same instant. */
static void test_default(void)
{
	struct uerr e;
	int64_t got = -1;

	ok(start_parse(START_DEFAULT_ISO, &got, &e) == 0 && got == START_DEFAULT,
	   "START_DEFAULT_ISO is START_DEFAULT");
}

int main(void)
{
	plan(72);
	test_default();
	test_good();
	test_bad();
	test_unit_from_help();
	test_to_kernel();
	return done_testing();
}
