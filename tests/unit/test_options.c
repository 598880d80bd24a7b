// SPDX-License-Identifier: MIT
/* test_options.c - the command line: commands, options, their checks. */
#define _GNU_SOURCE
#include "options.h"
#include "kunit.h"
#include "sched.h"
#include "suite.h"

#include "tap.h"

/* Parses a NULL-terminated argv; returns opts_parse's result. */
static int parse(char **argv, struct opts *o, struct uerr *e)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(e, 0, sizeof(*e));
	return opts_parse(argc, argv, o, e);
}

/* The parse fails with EXIT_USAGE and a message holding want and want2. */
static void usage_error(char **argv, const char *want, const char *want2, const char *name)
{
	struct opts o;
	struct uerr e;
	int r = parse(argv, &o, &e);

	if (!ok(r < 0 && e.code == EXIT_USAGE, "%s: exit 2", name))
		diag("  got: r=%d code=%d msg='%s'", r, e.code, e.msg);
	has_str(e.msg, want, name);
	if (want2)
		has_str(e.msg, want2, name);
	opts_free(&o);
}

/*
 * ARG in argv (also the test's name): refused with exit 2 and want in the
 * message, or parsed when want is NULL.
 */
static void refused_or_parsed(char **argv, const char *arg, const char *want)
{
	struct opts o;
	struct uerr e;

	if (want) {
		usage_error(argv, arg, want, arg);
		return;
	}
	if (!ok(parse(argv, &o, &e) == 0, "%s accepted", arg))
		diag("  got: %s", e.msg);
	opts_free(&o);
}

static void test_defaults(void)
{
	char *argv[] = { "umlrun", "run", NULL };
	struct opts o;
	struct uerr e;

	is_int(parse(argv, &o, &e), 0, "run: parses");
	is_int(o.cmd, CMD_RUN, "run: command");
	is_str(o.cmd_name, "run", "run: command name");
	is_int(o.mode, TT_INF_CPU, "run: default mode inf-cpu");
	is_int(o.repeat, 1, "run: default repeat 1");
	ok(!o.help && !o.verbose && !o.check_determinism, "run: no flags by default");
	ok(!o.start && !o.mem && !o.kernel_src && !o.results_dir && !o.nconfigs,
	   "run: no values by default");
	is_int(o.nargs, 0, "run: no tests given");
	opts_free(&o);
}

static void test_modes(void)
{
	static const struct {
		const char *arg;
		enum tt_mode mode;
	} cases[] = {
		{ "--time-travel=basic", TT_BASIC },
		{ "--time-travel=off", TT_OFF },
		{ "--time-travel=inf-cpu", TT_INF_CPU },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* Start from a mode other than the wanted one. */
		char *argv[] = { "umlrun", "run",
				 cases[i].mode == TT_BASIC ? "--time-travel=off"
							   : "--time-travel=basic",
				 (char *)cases[i].arg, NULL };
		struct opts o;
		struct uerr e;

		if (!is_int(parse(argv, &o, &e), 0, cases[i].arg))
			diag("%s", e.msg);
		is_int(o.mode, cases[i].mode, cases[i].arg);
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "exec", "--time-travel", "basic", "--", "true", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "exec --time-travel basic: parses");
		is_int(o.mode, TT_BASIC, "exec --time-travel basic: mode");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "run", "--time-travel=fast", NULL };

		usage_error(argv, "fast", "unknown mode", "bad mode: named");
	}
	{
		char *argv[] = { "umlrun", "run", "--time-travel=", NULL };

		usage_error(argv, "unknown mode", NULL, "empty mode");
	}
}

static void test_commands(void)
{
	static const struct {
		const char *name;
		enum command cmd;
	} cases[] = {
		{ "build", CMD_BUILD }, { "run", CMD_RUN },   { "shell", CMD_SHELL },
		{ "list", CMD_LIST },	{ "help", CMD_HELP },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "umlrun", (char *)cases[i].name, NULL };
		struct opts o;
		struct uerr e;
		int r = parse(argv, &o, &e);

		ok(r == 0 && o.cmd == cases[i].cmd, "'%s' parses to its command", cases[i].name);
		opts_free(&o);
	}
	is_int(command_lookup("exec"), CMD_EXEC, "command_lookup exec");
	is_int(command_lookup("frobnicate"), CMD_NONE, "command_lookup unknown");
	{
		char *argv[] = { "umlrun", NULL };

		usage_error(argv, "no command", NULL, "no command");
	}
	{
		char *argv[] = { "umlrun", "frobnicate", NULL };

		usage_error(argv, "unknown command", "'frobnicate'", "unknown command named");
	}
}

static void test_bad_options(void)
{
	{
		char *argv[] = { "umlrun", "run", "--frobnicate", NULL };

		usage_error(argv, "--frobnicate", "umlrun run --help", "unknown long option");
	}
	{
		char *argv[] = { "umlrun", "run", "-x", NULL };

		usage_error(argv, "-x", NULL, "unknown short option");
	}
	{
		char *argv[] = { "umlrun", "run", "--start", NULL };

		usage_error(argv, "umlrun run --help", NULL, "option missing its value");
	}
	{
		char *argv[] = { "umlrun", "build", "--start=1", NULL };

		usage_error(argv, "option --start does", "does not apply", "build --start=1");
	}
	{
		char *argv[] = { "umlrun", "build", "-v", NULL };

		usage_error(argv, "-v", "does not apply", "build -v");
	}
	{
		char *argv[] = { "umlrun", "list", "--mem=1G", NULL };

		usage_error(argv, "option --mem does", "does not apply", "list --mem");
	}
	{
		char *argv[] = { "umlrun", "shell", "--repeat=2", NULL };

		usage_error(argv, "option --repeat does", "does not apply", "shell --repeat");
	}
	{
		char *argv[] = { "umlrun", "exec", "--results=x", "--", "true", NULL };

		usage_error(argv, "option --results does", "does not apply", "exec --results");
	}
	{
		char *argv[] = { "umlrun", "list", "--overlay=ov", NULL };

		usage_error(argv, "option --overlay does", "does not apply", "list --overlay");
	}
	{
		char *argv[] = { "umlrun", "exec", "--trace", "--", "true", NULL };

		usage_error(argv, "option --trace does", "does not apply", "exec --trace");
	}
	{
		char *argv[] = { "umlrun", "run", "--run=1,,2", NULL };

		usage_error(argv, "--run=1,,2: want test numbers", NULL, "run --run=1,,2");
	}
	{
		char *argv[] = { "umlrun", "exec", "--random-seed=9223372036854775808",
				 "--",	   "true", NULL };

		usage_error(argv, "below 2^63", NULL, "exec --random-seed=2^63");
	}
	{
		char *argv[] = { "umlrun", "prune", "--dry-run", "--config=x.config", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "prune --dry-run --config: accepted");
		ok(o.cmd == CMD_PRUNE && o.dry_run && o.nconfigs == 1,
		   "prune: command and options");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "run", "--dry-run", NULL };

		usage_error(argv, "option --dry-run does", "does not apply", "run --dry-run");
	}
	{
		char *argv[] = { "umlrun", "shell", "--random-seed=random", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "shell --random-seed=random: accepted");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "build", "extra", NULL };

		usage_error(argv, "'extra'", NULL, "build with an argument");
	}
	{
		char *argv[] = { "umlrun", "shell", "extra", NULL };

		usage_error(argv, "'extra'", NULL, "shell with an argument");
	}
	{
		char *argv[] = { "umlrun", "build", "--make-jobs=0", NULL };

		usage_error(argv, "--make-jobs=0", NULL, "make-jobs 0");
	}
}

static void test_exec(void)
{
	{
		char *argv[] = { "umlrun", "exec", NULL };

		usage_error(argv, "no command", "exec --", "exec without a command");
	}
	{
		char *argv[] = { "umlrun", "exec", "--", NULL };

		usage_error(argv, "no command", NULL, "exec -- without a command");
	}
	{
		char *argv[] = { "umlrun",  "exec",   "--mem=512M", "--",	 "sh", "-c",
				 "echo hi", "--help", "-v",	    "--start=1", NULL };
		static const char *const want[] = { "sh",     "-c", "echo hi",
						    "--help", "-v", "--start=1" };
		struct opts o;
		struct uerr e;
		bool same = true;

		is_int(parse(argv, &o, &e), 0, "exec -- cmd args: parses");
		is_int(o.cmd, CMD_EXEC, "exec: command");
		is_str(o.mem, "512M", "exec: its own option before --");
		ok(!o.help && !o.verbose && !o.start, "exec: options after -- are not umlrun's");
		is_int(o.nargs, 6, "exec: every argument after -- kept");
		for (int i = 0; i < o.nargs && i < 6; i++)
			same &= !strcmp(o.args[i], want[i]);
		ok(same, "exec: arguments verbatim and in order");
		opts_free(&o);
	}
	{
		/* Without "--", parsing stops at the command: its options stay its own. */
		char *argv[] = { "umlrun", "exec", "ls", "-l", "--help", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "exec cmd -l --help: parses");
		ok(!o.help, "exec cmd --help: --help belongs to the command");
		ok(o.nargs == 3 && !strcmp(o.args[0], "ls") && !strcmp(o.args[2], "--help"),
		   "exec cmd -l --help: all three are the command's");
		opts_free(&o);
	}
	{
		/* run (every command but exec) takes options after its operands too. */
		char *argv[] = { "umlrun", "run", "smoke", "-q", "timers", "--jobs=2", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "run SUITE -q SUITE --jobs=2: parses");
		ok(o.quiet && o.jobs == 2 && o.nargs == 2 && !strcmp(o.args[0], "smoke") &&
		       !strcmp(o.args[1], "timers"),
		   "run: options after the suites are umlrun's, the suites stay in order");
		opts_free(&o);
	}
}

static void test_run_values(void)
{
	{
		char *argv[] = { "umlrun",
				 "run",
				 "--start=2024-02-29",
				 "--mem=1G",
				 "--results=/tmp/r",
				 "--kernel-src=/src/linux",
				 "--config=a.config",
				 "--config",
				 "b.config",
				 "--make-jobs=8",
				 "--timeout=30",
				 "--wall-timeout=20",
				 "--repeat=3",
				 "--check-determinism",
				 "--suite-dir=/s",
				 "--trace",
				 "--immediate",
				 "--run=1,3-",
				 "--random-seed=42",
				 "--overlay=ov1",
				 "--overlay",
				 "ov2",
				 "-v",
				 "net",
				 "time/t0001-clock",
				 NULL };
		struct opts o;
		struct uerr e;
		int r = parse(argv, &o, &e);

		if (!is_int(r, 0, "run with every option: parses"))
			diag("%s", e.msg);
		is_str(o.start, "2024-02-29", "run: --start kept as given");
		is_str(o.mem, "1G", "run: --mem");
		is_str(o.results_dir, "/tmp/r", "run: --results");
		is_str(o.kernel_src, "/src/linux", "run: --kernel-src");
		ok(o.nconfigs == 2 && !strcmp(o.configs[0], "a.config") &&
		       !strcmp(o.configs[1], "b.config"),
		   "run: --config repeated, in order");
		is_int(o.make_jobs, 8, "run: --make-jobs");
		is_int(o.timeout, 30, "run: --timeout");
		ok(o.wall_timeout == 20.0, "run: --wall-timeout");
		is_int(o.repeat, 3, "run: --repeat");
		ok(o.check_determinism, "run: --check-determinism");
		is_str(o.suite_dir, "/s", "run: --suite-dir");
		ok(o.trace && o.immediate, "run: --trace, --immediate");
		is_str(o.run_list, "1,3-", "run: --run");
		is_str(o.random_seed, "42", "run: --random-seed");
		ok(o.noverlays == 2 && !strcmp(o.overlays[0], "ov1") &&
		       !strcmp(o.overlays[1], "ov2"),
		   "run: --overlay repeated, in order");
		ok(o.verbose, "run: -v");
		ok(o.nargs == 2 && !strcmp(o.args[0], "net") &&
		       !strcmp(o.args[1], "time/t0001-clock"),
		   "run: tests after the options");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "run", "--check-determinism", NULL };

		usage_error(argv, "--check-determinism", "--repeat", "determinism without repeat");
	}
	{
		char *argv[] = { "umlrun", "run", "--repeat=1", "--check-determinism", NULL };

		usage_error(argv, "--repeat", NULL, "determinism with --repeat=1");
	}
	{
		char *argv[] = { "umlrun", "run", "--repeat=2", "--check-determinism", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "determinism with --repeat=2: accepted");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "run", "--repeat=0", NULL };

		usage_error(argv, "--repeat=0", NULL, "--repeat=0");
	}
}

static void test_mem(void)
{
	static const char *const good[] = { "256M", "1G", "65536K", "268435456" };
	static const char *const bad[] = { "",	  "M",	 "lots", "256MB", "256MK",
					   "1MG", "-1G", "1.5G", "256 M" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		_cleanup_free_ char *arg = xasprintf("--mem=%s", good[i]);
		char *argv[] = { "umlrun", "shell", arg, NULL };
		struct opts o;
		struct uerr e;
		int r = parse(argv, &o, &e);

		ok(r == 0 && o.mem && !strcmp(o.mem, good[i]), "--mem=%s accepted", good[i]);
		opts_free(&o);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		_cleanup_free_ char *arg = xasprintf("--mem=%s", bad[i]);
		_cleanup_free_ char *name = xasprintf("--mem='%s' rejected", bad[i]);
		char *argv[] = { "umlrun", "shell", arg, NULL };

		usage_error(argv, arg, NULL, name);
	}
}

/* --mem within what boots a guest and what the host has (exit 2, one line, before a boot). */
static void test_mem_range(void)
{
	static const struct {
		const char *size;
		const char *want; /* NULL: accepted */
	} cases[] = {
		{ "16M", "below the 32M a guest needs to boot" },
		{ "31M", "below the 32M" },
		{ "32767K", "below the 32M" },
		{ "1048576", "below the 32M" },
		{ "100000G", "more than this host's" },
		{ "32M", NULL },
		{ "33554432", NULL },
	};
	struct uerr e;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		_cleanup_free_ char *arg = xasprintf("--mem=%s", cases[i].size);
		char *argv[] = { "umlrun", "exec", arg, "--", "true", NULL };

		refused_or_parsed(argv, arg, cases[i].want);
	}
	ok(guest_mem_max() >= 1ULL << 30, "the host's RAM is known (and 1G or more)");
	{
		_cleanup_free_ char *max = xasprintf("%lluK", guest_mem_max() >> 10);
		_cleanup_free_ char *over = xasprintf("%lluK", (guest_mem_max() >> 10) + 1);

		is_int(guest_mem_check("--mem", max, &e), 0, "the host's RAM itself is accepted");
		is_int(guest_mem_check("--mem", over, &e), -1, "1K more is refused");
	}
	memset(&e, 0, sizeof(e));
	ok(guest_mem_check("s/settings:2: mem=16M", "16M", &e) < 0 && e.code == EXIT_USAGE &&
	       !strncmp(e.msg, "s/settings:2: mem=16M: below", 28) && !strchr(e.msg, '\n'),
	   "guest_mem_check: one line, after the caller's prefix (a suite's settings)");
}

/* --run: tests are numbered from 1, ranges run upwards (else every test skips). */
static void test_run_list(void)
{
	static const struct {
		const char *list;
		const char *want; /* NULL: accepted */
	} cases[] = {
		{ "3-1", "the range 3-1 runs backwards; write 1-3" },
		{ "1,5-2", "the range 5-2 runs backwards" },
		{ "0", "numbered from 1, not 0" },
		{ "0-2", "numbered from 1, not 0" },
		{ "-0", "numbered from 1, not 0" },
		{ "2,0-", "numbered from 1, not 0" },
		{ "1234567890", "at most 9 digits" },
		{ "2-2", NULL },
		{ "1,3-", NULL },
		{ "-3", NULL },
		{ "7", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		_cleanup_free_ char *arg = xasprintf("--run=%s", cases[i].list);
		char *argv[] = { "umlrun", "run", arg, NULL };

		refused_or_parsed(argv, arg, cases[i].want);
	}
}

static void test_timeout(void)
{
	static const struct {
		const char *arg;
		long want; /* 0: rejected */
	} cases[] = {
		{ "--timeout=1", 1 },
		{ "--timeout=3153600000", 3153600000L }, /* 100 years, the limit */
		{ "--timeout=0", 0 },
		{ "--timeout=-5", 0 },
		{ "--timeout=3153600001", 0 },
		{ "--timeout=99999999999999999999", 0 },
		{ "--timeout=10s", 0 },
		{ "--timeout=", 0 },
		{ "--wall-timeout=604800", 604800 }, /* a week, the limit */
		{ "--wall-timeout=604801", 0 },
		{ "--wall-timeout=0", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "umlrun", "run", (char *)cases[i].arg, NULL };
		struct opts o;
		struct uerr e;
		int r = parse(argv, &o, &e);
		bool wall = !strncmp(cases[i].arg, "--wall", 6);
		long got = wall ? (long)o.wall_timeout : o.timeout;

		if (cases[i].want)
			ok(r == 0 && got == cases[i].want, "%s accepted", cases[i].arg);
		else if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, cases[i].arg),
			     "%s rejected, named", cases[i].arg))
			diag("  got: r=%d code=%d msg='%s'", r, e.code, e.msg);
		opts_free(&o);
	}
}

static void test_help(void)
{
	static const char *const cmds[] = { "build", "run", "exec", "shell", "list", "help" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[] = { "umlrun", (char *)cmds[i], "--help", NULL };
		struct opts o;
		struct uerr e;
		int r = parse(argv, &o, &e);
		_cleanup_free_ char *want = xasprintf("Usage: umlrun %s", cmds[i]);

		ok(r == 0 && o.help && o.cmd == command_lookup(cmds[i]), "%s --help: help asked",
		   cmds[i]);
		has_str(command_usage(o.cmd), want, want);
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "run", "-h", NULL };
		struct opts o;
		struct uerr e;

		ok(parse(argv, &o, &e) == 0 && o.help, "run -h: help asked");
		opts_free(&o);
	}
	{
		/* Help wins over missing or conflicting arguments. */
		char *argv[] = { "umlrun", "run", "--check-determinism", "--help", NULL };
		struct opts o;
		struct uerr e;

		ok(parse(argv, &o, &e) == 0 && o.help, "run --check-determinism --help: help");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "--help", NULL };
		struct opts o;
		struct uerr e;

		ok(parse(argv, &o, &e) == 0 && o.cmd == CMD_HELP && o.nargs == 0,
		   "umlrun --help: the help command");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "-h", NULL };
		struct opts o;
		struct uerr e;

		ok(parse(argv, &o, &e) == 0 && o.cmd == CMD_HELP, "umlrun -h: the help command");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "help", "run", NULL };
		struct opts o;
		struct uerr e;

		ok(parse(argv, &o, &e) == 0 && o.cmd == CMD_HELP && o.nargs == 1 &&
		       command_lookup(o.args[0]) == CMD_RUN,
		   "help run: names the run command");
		opts_free(&o);
	}
	{
		/* The hidden list of a command's options, for scripts (test_help.c checks it). */
		char *argv[] = { "umlrun", "help", "--options", "run", NULL };
		char *none[] = { "umlrun", "help", "--options", NULL };
		char *other[] = { "umlrun", "run", "--options", NULL };
		struct opts o;
		struct uerr e;

		ok(parse(argv, &o, &e) == 0 && o.cmd == CMD_HELP && o.options_list &&
		       o.nargs == 1 && command_lookup(o.args[0]) == CMD_RUN,
		   "help --options run: run's options asked");
		opts_free(&o);
		usage_error(none, "help --options: name one command", NULL,
			    "help --options: no command");
		usage_error(other, "option --options does not apply", NULL,
			    "run --options: help's alone");
	}
	has_str(command_usage(CMD_NONE), "Commands:", "umlrun's own usage lists commands");
	has_str(command_usage(CMD_RUN), "--check-determinism", "run's usage names its options");
}

/* Options added for scale-out runs (issue 5) and the fixes they brought. */
static void test_scale_options(void)
{
	struct opts o;
	struct uerr e;

	{
		char *argv[] = { "umlrun", "build", "--start", "1", NULL };

		usage_error(argv, "option --start does", NULL,
			    "separate value: the option is named");
	}
	{
		char *argv[] = { "umlrun", "run", "--mem=0", NULL };

		usage_error(argv, "--mem=0", NULL, "--mem=0 is refused");
	}
	{
		char *argv[] = { "umlrun",	"run",	       "-j",	      "3",
				 "--retry=2",	"--filter=a*", "--filter=b*", "--exclude=c*",
				 "--shuffle=7", "--shard=2/4", "smoke",	      NULL };

		ok(parse(argv, &o, &e) == 0, "run scale options parse");
		is_int(o.jobs, 3, "-j 3");
		is_int(o.retry, 2, "--retry=2");
		is_int((int)o.nfilters, 2, "two --filter");
		is_int((int)o.nexcludes, 1, "one --exclude");
		ok(o.shuffle && o.seed == 7, "--shuffle=7 keeps the seed");
		is_str(o.shard, "2/4", "--shard kept as given");
		is_int(o.nargs, 1, "the suite stays an argument");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "run", "--shuffle=0", NULL };

		usage_error(argv, "--shuffle=0", NULL, "a zero seed is refused");
	}
	{
		char *argv[] = { "umlrun", "run", "--jobs=0", NULL };

		usage_error(argv, "--jobs=0", "1 to 256", "-j 0 is refused");
	}
	{
		char *argv[] = { "umlrun", "merge", "a", NULL };

		usage_error(argv, "--output=DIR", NULL, "merge needs --output");
	}
	{
		char *argv[] = { "umlrun", "compare", "--time-travel=off", NULL };

		usage_error(argv, "compare", "basic or inf-cpu", "compare against off is refused");
	}
	{
		char *argv[] = { "umlrun", "run", "--rerun-failed", "smoke", NULL };

		usage_error(argv, "--rerun-failed", NULL, "--rerun-failed takes no tests");
	}
}

static void test_cpu_cost(void)
{
	{
		char *argv[] = { "umlrun", "run", "--cpu-cost=2000,jitter=50", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "--cpu-cost=2000,jitter=50: parses");
		ok(o.cpu_cost_ns == 2000 && o.cpu_cost_jitter == 50, "--cpu-cost: ns and jitter");
		opts_free(&o);
	}
	{
		char *argv[] = { "umlrun", "exec", "--cpu-cost=1", "--", "true", NULL };
		struct opts o;
		struct uerr e;

		is_int(parse(argv, &o, &e), 0, "exec --cpu-cost=1: parses");
		ok(o.cpu_cost_ns == 1 && o.cpu_cost_jitter == 0, "--cpu-cost without jitter: 0 %%");
		opts_free(&o);
	}
	static const char *const bad[] = { "--cpu-cost=0",	 "--cpu-cost=2000,jitter=101",
					   "--cpu-cost=2000,50", "--cpu-cost=1000000001",
					   "--cpu-cost=2us",	 "--cpu-cost=2000,jitter=" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "umlrun", "run", (char *)bad[i], NULL };

		usage_error(argv, bad[i] + 2, "NS[,jitter=PCT]", bad[i]);
	}
}

/* umlrun kunit takes kunit.py's run options under their names (docs/kunit.md). */
static void test_kunit_options(void)
{
	char *argv[] = { "umlrun",
			 "kunit",
			 "--filter=speed>slow, module=example",
			 "--filter_action=skip",
			 "--kernel_args=kunit.stats_enabled=2 quiet",
			 "--kernel_args=loglevel=8",
			 "--kconfig_add=CONFIG_KASAN=y",
			 "--kconfig_add=# CONFIG_KUNIT_DEBUGFS is not set",
			 "--run_isolated=suite",
			 "--raw_output",
			 "--jobs=3",
			 "--timeout=40",
			 "--arch=um",
			 "time*",
			 NULL };
	char *json[] = { "umlrun", "kunit", "--json", "--failed", "--list_tests", NULL };
	char *json_file[] = { "umlrun", "kunit", "--json=out.json", "--summary", NULL };
	struct opts o;
	struct uerr e;

	is_int(parse(argv, &o, &e), 0, "kunit: kunit.py's options parse");
	is_int((long long)o.nfilters, 1, "kunit: --filter kept");
	is_str(o.filter_action, "skip", "kunit: --filter_action");
	is_int((long long)o.nkernel_args, 2, "kunit: --kernel_args repeatable");
	is_int((long long)o.nkconfig_adds, 2, "kunit: --kconfig_add repeatable");
	is_str(o.run_isolated, "suite", "kunit: --run_isolated");
	/* kunit.py: a bare --raw_output is --raw_output=kunit. */
	is_str(o.raw_output, "kunit", "kunit: bare --raw_output means kunit");
	is_int(o.jobs, 3, "kunit: --jobs (--make-jobs)");
	is_int(o.timeout, 40, "kunit: --timeout (--wall-timeout)");
	is_str(o.args[0], "time*", "kunit: the GLOB after the options");
	opts_free(&o);
	is_int(parse(json, &o, &e), 0, "kunit: --json --failed --list_tests parse");
	ok(o.json && !o.json_file && o.failed && o.list,
	   "kunit: --json to stdout, --list_tests is --list");
	opts_free(&o);
	/* kunit.py massages --json FILE to --json=FILE only with '=': so here. */
	is_int(parse(json_file, &o, &e), 0, "kunit: --json=FILE parses");
	ok(o.json && o.json_file && !strcmp(o.json_file, "out.json") && o.summary,
	   "kunit: --json=FILE and --summary");
	opts_free(&o);
	{
		char *a[] = { "umlrun", "kunit", "--filter=speed>slow", "--filter=module=x", NULL };
		_cleanup_free_ char *f = NULL;

		is_int(parse(a, &o, &e), 0, "kunit: two --filter parse");
		f = kunit_filter_param(o.filters, o.nfilters);
		is_str(f, "speed>slow,module=x",
		       "kunit: filters joined as the kernel's kunit.filter=");
		opts_free(&o);
	}
	{
		char *a[] = { "umlrun", "kunit", "--filter=speed>slow, module=example", NULL };
		_cleanup_free_ char *f = NULL;

		is_int(parse(a, &o, &e), 0, "kunit: a filter list parses");
		f = kunit_filter_param(o.filters, o.nfilters);
		is_str(f, "speed>slow,module=example",
		       "kunit: blanks after a comma dropped (the kernel skips them)");
		opts_free(&o);
	}
	/* Each refused with exit 2 and the reason. */
	{
		static const struct {
			const char *arg, *want;
		} bad[] = {
			{ "--filter=speed slow", "ATTR OP VALUE" },
			{ "--filter=speed=>slow", "ATTR OP VALUE" },
			{ "--filter=speed>slow;reboot", "ATTR OP VALUE" },
			{ "--filter=speed>", "ATTR OP VALUE" },
			{ "--filter_action=run", "the one action is skip" },
			{ "--run_isolated=file", "use suite or test" },
			{ "--raw_output=some", "use all" },
			{ "--kernel_args=a=\"b c\"", "without quotes" },
			{ "--kernel_args= ", "kernel parameters" },
			{ "--kconfig_add=KASAN=y", "CONFIG_NAME=VALUE" },
			{ "--kconfig_add=CONFIG_KASAN", "CONFIG_NAME=VALUE" },
			{ "--arch=x86_64", "User-Mode Linux only" },
			{ "--build_dir=.kunit", "builds in its cache" },
			{ "--make_options=CC=clang", "use --config=FRAGMENT" },
			{ "--alltests", "all_tests.config" },
			{ "--qemu_args=-smp 8", "not QEMU" },
			{ "--cross_compile=aarch64-", "for this host" },
			{ "--junit", "RUN/junit.xml" },
			/* its counters would go with the guest's folder */
			{ "--profile=gcov", "kunit keeps no coverage counters" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char *a[] = { "umlrun", "kunit", (char *)bad[i].arg, NULL };

			usage_error(a, bad[i].want, NULL, bad[i].arg);
		}
	}
	/* Combinations that mean nothing, refused. */
	{
		static const struct {
			const char *a1, *a2, *want;
		} bad[] = {
			{ "--list", "--list_suites", "give one" },
			{ "--list_tests_attr", "--run_isolated=test", "a list runs nothing" },
			{ "--build-only", "--no-build", "give one" },
			{ "--build-only", "--json", "boots nothing" },
			{ "--raw_output=all", "--json", "unparsed" },
			{ "--summary", "--failed", "give one" },
			{ "--jobs=2", "--make-jobs=2", "--make-jobs" },
			{ "--timeout=9", "--wall-timeout=9", "--wall-timeout" },
			{ "--filter_action=skip", "-q", "give --filter too" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char *a[] = { "umlrun", "kunit", (char *)bad[i].a1, (char *)bad[i].a2,
				      NULL };
			_cleanup_free_ char *name = xasprintf("%s %s", bad[i].a1, bad[i].a2);

			usage_error(a, bad[i].want, NULL, name);
		}
	}
	/* kunit.py's names are kunit's: run keeps its own meaning. */
	{
		char *a[] = { "umlrun", "run", "--kconfig_add=CONFIG_X=y", NULL };
		char *b[] = { "umlrun", "compare", "--json=x", NULL };

		usage_error(a, "does not apply", NULL, "run --kconfig_add: not run's");
		usage_error(b, "takes no value", NULL, "compare --json=x: no FILE");
	}
}

/* hwsim --tshark: a flag of hwsim alone, off unless given. */
static void test_hwsim_tshark(void)
{
	char *with[] = { "umlrun", "hwsim", "--hostap=t", "--tshark", "ap_open", NULL };
	char *without[] = { "umlrun", "hwsim", "--hostap=t", NULL };
	char *run[] = { "umlrun", "run", "--tshark", NULL };
	char *value[] = { "umlrun", "hwsim", "--hostap=t", "--tshark=yes", NULL };
	struct opts o;
	struct uerr e;

	is_int(parse(with, &o, &e), 0, "hwsim --tshark: parses");
	ok(o.tshark && o.nargs == 1, "hwsim --tshark: set, the case still an argument");
	opts_free(&o);
	is_int(parse(without, &o, &e), 0, "hwsim without --tshark: parses");
	ok(!o.tshark, "hwsim: no tshark by default");
	opts_free(&o);
	usage_error(run, "option --tshark does", "does not apply", "run --tshark: hwsim's alone");
	usage_error(value, "takes no value", NULL, "hwsim --tshark=yes: a flag");
	has_str(command_usage(CMD_HWSIM), "  --tshark ", "hwsim --help names --tshark");
}

/*
 * An option a command does nothing with is refused by it, as any option
 * of another command is ("does not apply"); one it acts on parses (and its
 * --help says it: test_help.c).
 */
static void test_idle_refused(void)
{
	static const struct {
		const char *cmd, *arg;
		bool refused;
	} cases[] = {
		/* prune builds nothing: make's jobs select no kernel to keep */
		{ "prune", "--make-jobs=2", true },
		/* kunit.py's name for --list: kunit's alone */
		{ "run", "--list_tests", true },
		{ "kselftest", "--list_tests", true },
		{ "hwsim", "--list_tests", true },
		/* the harness's: kselftest's wrappers, hwsim's batches do not source it */
		{ "kselftest", "--trace", true },
		{ "kselftest", "--immediate", true },
		{ "kselftest", "--run=1", true },
		{ "hwsim", "--trace", true },
		{ "hwsim", "--immediate", true },
		{ "hwsim", "--run=1", true },
		{ "hwsim", "--seeds=1-2", false },
		{ "hwsim", "--exclude=x", false },
		{ "hwsim", "--durations=d", false },
		{ "hwsim", "--shuffle=3", false },
		{ "hwsim", "--timeout=9", false },
		{ "hwsim", "--overlay=o", false },
		{ "hwsim", "--mount=m", false },
		{ "hwsim", "--seccomp=off", false },
		{ "hwsim", "--cpu-cost=5", false },
		{ "hwsim", "--trace-event=t:e", false },
		{ "hwsim", "--kprobe-event=p:x y", false },
		{ "hwsim", "--profile=kasan", false },
		{ "hwsim", "--make-jobs=2", false },
		{ "kunit", "--profile=kasan", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* hwsim needs its tree; the others take it as a case (or refuse it). */
		bool hwsim = !strcmp(cases[i].cmd, "hwsim");
		char *a[] = { "umlrun", (char *)cases[i].cmd, (char *)cases[i].arg,
			      hwsim ? "--hostap=t" : NULL, NULL };
		_cleanup_free_ char *name = xasprintf("%s %s", cases[i].cmd, cases[i].arg);
		_cleanup_free_ char *opt = xstrndup(cases[i].arg, strcspn(cases[i].arg, "="));
		_cleanup_free_ char *want =
		    xasprintf("%s: option %s does not apply", cases[i].cmd, opt);
		struct opts o;
		struct uerr e;

		if (cases[i].refused) {
			usage_error(a, want, NULL, name);
			continue;
		}
		if (!ok(parse(a, &o, &e) == 0, "%s: parses", name))
			diag("  got: %s", e.msg);
		opts_free(&o);
	}
}

int main(void)
{
	plan(169 + 26 + 4 + 18 + 21 + 25 + 3 + 18 + 2 * 19 + 2 * 9 + 2 * 2 + 10 + 2 * 10 + 14 + 5);
	{
		/* The help's defaults are suite.h's (one home for the limits). */
		_cleanup_free_ char *t = xasprintf("else %d)", TEST_TIMEOUT_DEFAULT);
		_cleanup_free_ char *w = xasprintf("else %d)", TEST_WALL_TIMEOUT_DEFAULT);
		_cleanup_free_ char *m =
		    xasprintf("at least the time limit + %d\n", SCHED_WALL_MARGIN);

		ok(strstr(command_usage(CMD_RUN), t) != NULL, "run --help: the default timeout");
		ok(strstr(command_usage(CMD_RUN), w) != NULL,
		   "run --help: the default wall timeout");
		ok(strstr(command_usage(CMD_RUN), m) && strstr(command_usage(CMD_EXEC), m),
		   "run and exec --help: the wall timeout's margin off inf-cpu (sched.h's)");
	}
	test_defaults();
	test_modes();
	test_commands();
	test_bad_options();
	test_hwsim_tshark();
	test_idle_refused();
	test_exec();
	test_run_values();
	test_mem();
	test_mem_range();
	test_run_list();
	test_timeout();
	test_help();
	test_scale_options();
	test_cpu_cost();
	test_kunit_options();
	return done_testing();
}
