// SPDX-License-Identifier: MIT
/*
 * test_init.c - the guest init's command line parser (rootfs/init.c),
 * included with its main renamed, as tests/fuzz/fuzz_init.c does.
 */
int init_main(void);
#define main init_main
#include "../../rootfs/init.c"
#undef main

#include "tap.h"

static __typeof__(param) defaults;

/* Parses a copy of cmdline into param, from the defaults. */
static int parse(const char *cmdline)
{
	static char line[8192];

	free(param.argv[0]);
	param = defaults;
	snprintf(line, sizeof(line), "%s", cmdline);
	return parse_cmdline(line);
}

int main(void)
{
	defaults = param;
	ctl_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	plan(19);

	is_int(parse("mem=512M time-travel=basic umlrun.mode=basic umlrun.timeout=900 "
		     "umlrun.try=2 umlrun.harness=\"-x --run=1,3\" "
		     "umlrun.test=wireless/t0006-timers.sh"),
	       0, "boot.c's command line parses");
	is_str(param.harness, "-x --run=1,3", "a quoted value keeps its blanks, loses its quotes");
	is_str(param.test, "wireless/t0006-timers.sh", "the test after it");
	is_str(param.mode, "basic", "umlrun.mode");
	is_int(param.timeout, 900, "umlrun.timeout");
	is_str(param.try, "2", "umlrun.try");

	is_int(parse("\"umlrun.test=s/t0001-a b.sh\" quiet"), 0, "a quote before the key");
	is_str(param.test, "s/t0001-a b.sh", "groups the whole parameter, as the kernel does");

	is_int(parse("umlrun.argv=7368002d63006563686f2061206200"), 0, "umlrun.argv decodes");
	ok(param.argv[0] && !strcmp(param.argv[0], "sh") && !strcmp(param.argv[1], "-c") &&
	       !strcmp(param.argv[2], "echo a b") && !param.argv[3],
	   "into sh, -c, 'echo a b'");

	/* Found by tests/fuzz/fuzz_init.c (LeakSanitizer): a malformed argv
	 * leaked its buffer; it is refused and freed now. */
	is_int(parse("umlrun.argv=73zz00"), -1, "umlrun.argv with a bad digit: refused");
	ok(!param.argv[0], "and no argv left");
	is_int(parse("umlrun.argv="), -1, "umlrun.argv empty: refused");
	is_int(parse("umlrun.argv=736"), -1, "umlrun.argv of odd length: refused");

	/* strtol read junk as 0, and 0 is "no limit": the job ran unbounded. */
	is_int(parse("umlrun.timeout=abc umlrun.test=s/t0001-a.sh"), -1,
	       "umlrun.timeout=abc: refused, not read as no limit");
	is_int(parse("umlrun.timeout=-5 umlrun.test=s/t0001-a.sh"), -1,
	       "negative timeout: refused");
	is_int(parse("umlrun.timeout=10x umlrun.test=s/t0001-a.sh"), -1,
	       "timeout with junk after it: refused");
	is_int(parse("umlrun.timeout=0 umlrun.shell=1"), 0, "timeout 0 (a shell's): no limit");

	is_int(parse("umlrun.mode=inf-cpu umlrun.timeout=600"), -1, "no job: refused");
	free(param.argv[0]);
	return done_testing();
}
