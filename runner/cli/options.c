// SPDX-License-Identifier: MIT
/* options.c - commands, their options and usage text. */
#define _GNU_SOURCE
#include "options.h"
#include "finish.h"
#include "hwsim.h"
#include "kernel_cache.h"
#include "kunit.h"
#include "profile.h"
#include "sched.h"
#include "starttime.h"
#include "suite.h"

#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

enum {
	O_HELP = 'h',
	O_VERBOSE = 'v',
	O_QUIET = 'q',
	O_JOBS = 'j',
	O_TT = 256,
	O_START,
	O_MEM,
	O_RESULTS,
	O_KSRC,
	O_CONFIG,
	O_MAKE_JOBS,
	O_TIMEOUT,
	O_WALL_TIMEOUT,
	O_REPEAT,
	O_DETERMINISM,
	O_SUITE_DIR,
	O_RETRY,
	O_FILTER,
	O_EXCLUDE,
	O_LIST,
	O_SHUFFLE,
	O_RERUN_FAILED,
	O_SHARD,
	O_DURATIONS,
	O_OUTPUT,
	O_SAMPLE,
	O_JSON,
	O_OVERLAY,
	O_TRACE,
	O_IMMEDIATE,
	O_RUN_LIST,
	O_RANDOM_SEED,
	O_DRY_RUN,
	O_KERNEL,
	O_SECCOMP,
	O_KUNITCONFIG,
	O_MOUNT,
	O_PLAIN,
	O_SEEDS,
	O_TRACE_EVENT,
	O_KPROBE_EVENT,
	O_PROFILE,
	O_GDB,
	O_GDB_GUEST,
	O_CPU_COST,
	O_HOSTAP,
	O_MODULE,
	O_FILTER_ACTION,
	O_KERNEL_ARGS,
	O_KCONFIG_ADD,
	O_RUN_ISOLATED,
	O_LIST_SUITES,
	O_LIST_ATTR,
	O_RAW_OUTPUT,
	O_SUMMARY,
	O_FAILED,
	O_BUILD_ONLY,
	O_NO_BUILD,
	O_ARCH,
	O_KUNITPY_REFUSED,
	O_GDB_GUEST_SOURCE,
	O_TSHARK,
	O_OPTIONS,
	O_END /* not an option: one past the last */
};

/*
 * Every option once: its name, whether it takes a value, what parse_option
 * knows it by, the commands that take it (a bit per command), and its help.
 * getopt's table is made from it (long_opts), opts_parse refuses an option
 * the command is not among, and each command's --help is composed from the
 * rows of the options it takes, in the order of the rows (command_usage).
 * Several names may share an id (kunit.py's).
 */
#define C(cmd) (1u << CMD_##cmd)
/* Every command (bit 0, CMD_NONE, is none). */
#define ALL_CMDS (((1u << CMD_COUNT) - 1) & ~1u)
/* Commands that build a kernel; that boot a guest; that select test files; that run them. */
#define KERNEL_CMDS                                                                                \
	(C(BUILD) | C(RUN) | C(EXEC) | C(SHELL) | C(COMPARE) | C(PRUNE) | C(KSELFTEST) |           \
	 C(KUNIT) | C(HWSIM))
#define BOOT_CMDS   (C(RUN) | C(EXEC) | C(SHELL) | C(COMPARE) | C(KSELFTEST) | C(HWSIM))
#define SELECT_CMDS (C(RUN) | C(LIST) | C(COMPARE) | C(KSELFTEST) | C(HWSIM))
#define SUITE_CMDS  (C(RUN) | C(KSELFTEST) | C(HWSIM))
_Static_assert(CMD_COUNT <= 32, "the commands outgrew the options' bitmask");

/* The code's numbers that the help texts show, as strings. */
#define STR_(x)		  #x
#define STR(x)		  STR_(x)
#define H_MEM_MIN	  STR(GUEST_MEM_MIN_MB) "M"
#define H_TIMEOUT	  STR(TEST_TIMEOUT_DEFAULT)
#define H_WALL_TIMEOUT	  STR(TEST_WALL_TIMEOUT_DEFAULT)
#define H_WALL_MARGIN	  STR(SCHED_WALL_MARGIN)
#define H_KUNIT_WALL	  STR(KUNIT_WALL_TIMEOUT_DEFAULT)
#define H_HWSIM_CASE_WALL STR(HWSIM_CASE_WALL_TIMEOUT)
#define H_HWSIM_TIMEOUT	  STR(HWSIM_TIMEOUT)
#define H_HWSIM_BATCH_MIN STR(HWSIM_BATCH_MIN)
#define H_HWSIM_BATCH_MAX STR(HWSIM_BATCH_MAX)

/*
 * An option's line in --help: the first column ("-j, --jobs=N") and the
 * description, set from column HELP_COL, its lines separated by "\n"
 * (help_put). A "\n" in the first column starts another line of it; one at
 * its end puts the description on the line below.
 */
struct help {
	const char *col, *text;
};

/*
 * What some commands' --help says of an option instead of its row's line
 * (the first entry that names the command counts):
 *
 *	FOR(cmds, col, text)		other words (col NULL: the row's column)
 *	FOR_AT(cmds, at, col, text)	other words, shown before the line of
 *					option --AT instead of in the row's place
 *	SAID_BY(cmds, by)		no line: option --BY's line names it too
 *	UNSAID(cmds)			no line, and none names it: only for an
 *					option taken to be refused with a reason
 *					of its own (kunit.py's), and help's -h
 *					and its hidden --options; test_help.c
 *					lists each such pair
 *
 * An option a command does nothing with is not for it (the row leaves the
 * command out, which then refuses it); one it acts on, its help says.
 */
struct help_for {
	unsigned cmds;
	struct help help;
	const char *at, *by;
	bool unsaid;
};
/* clang-format off */
#define FOR(cmds, col, text)	    { (cmds), { (col), (text) }, NULL, NULL, false }
#define FOR_AT(cmds, at, col, text) { (cmds), { (col), (text) }, (at), NULL, false }
#define SAID_BY(cmds, by)	    { (cmds), { NULL, NULL }, NULL, (by), false }
#define UNSAID(cmds)		    { (cmds), { NULL, NULL }, NULL, NULL, true }
#define HELP_FOR(...)		    (const struct help_for[]){ __VA_ARGS__, { 0 } }

/* kunit.py's options umlrun refuses, with a reason (kunitpy_refused). */
#define KUNITPY_REFUSED(name)                                                                      \
	{ name, optional_argument, O_KUNITPY_REFUSED, C(KUNIT),                                    \
	  .help_for = HELP_FOR(UNSAID(C(KUNIT))) }
/* clang-format on */

/*
 * The rows in the order --help shows them. A command whose help shows
 * them otherwise moves a line with FOR_AT; a row without a name is a line
 * of help only (a command's operands among its options).
 */
static const struct option_row {
	const char *name;
	int has_arg;
	int id;
	unsigned cmds;
	struct help help;
	const struct help_for *help_for; /* { 0 }-ended, or NULL */
} options[] = {
	/* hwsim's own */
	{ "hostap", required_argument, O_HOSTAP, C(HWSIM),
	  .help = { "--hostap=TREE", "the hostap checkout (required; never written to)" } },
	{ "module", required_argument, O_MODULE, C(HWSIM),
	  .help = { "--module=MODULE", "the cases of tests/hwsim/test_MODULE.py, as\n"
				       "run-tests.py -f; repeatable" } },
	{ NULL, 0, 0, C(HWSIM),
	  .help = { "CASE, PREFIX*", "cases by name (default: every case)" } },
	{ "tshark", no_argument, O_TSHARK, C(HWSIM),
	  .help = { "--tshark", "Debian's tshark in the guests' root (a root of its\n"
				"own, about 150 MB more): the cases that read their\n"
				"captures with it run instead of skipping" } },
	/* kunit's own, with kunit.py's names */
	{ "kunitconfig", required_argument, O_KUNITCONFIG, C(KUNIT),
	  .help = { "--kunitconfig=FILE|DIR",
		    "the tests to build, as kunit.py takes it: a DIR means\n"
		    "DIR/.kunitconfig; looked up here, then in the kernel\n"
		    "tree (e.g. lib/kunit), then in umlrun's folder\n"
		    "(uml-config/kunit/...); repeatable (default: the\n"
		    "tree's tools/testing/kunit/configs/default.config)" } },
	{ "kconfig_add", required_argument, O_KCONFIG_ADD, C(KUNIT),
	  .help = { "--kconfig_add=CONFIG_X=Y", "one more kunitconfig line (repeatable; another\n"
						"kernel, built once)" } },
	{ "filter_action", required_argument, O_FILTER_ACTION, C(KUNIT),
	  .help = { "--filter_action=skip", "report the filtered tests skipped instead" } },
	{ "kernel_args", required_argument, O_KERNEL_ARGS, C(KUNIT),
	  .help = { "--kernel_args=ARGS", "more kernel parameters, after umlrun's (repeatable)" } },
	{ "run_isolated", required_argument, O_RUN_ISOLATED, C(KUNIT),
	  .help = { "--run_isolated=suite|test", "one boot per suite, or per test" } },
	{ "list_suites", no_argument, O_LIST_SUITES, C(KUNIT),
	  .help = { "--list_suites", "print the selected suites' names" } },
	{ "list_tests_attr", no_argument, O_LIST_ATTR, C(KUNIT),
	  .help = { "--list_tests_attr", "print the selected tests with their attributes" } },
	{ "build-only", no_argument, O_BUILD_ONLY, C(KUNIT),
	  .help = { "--build-only", "build the kernel (kunit.py build) and boot nothing" } },
	{ "no-build", no_argument, O_NO_BUILD, C(KUNIT),
	  .help = { "--no-build", "run the kernel these options built before (kunit.py\n"
				  "exec); exit 2 if there is none" } },
	{ "raw_output", optional_argument, O_RAW_OUTPUT, C(KUNIT),
	  .help = { "--raw_output[=kunit|all]", "print the console's KUnit lines (all: the whole\n"
						"console) instead of umlrun's KTAP" } },
	{ "summary", no_argument, O_SUMMARY, C(KUNIT),
	  .help = { "--summary", "print only the summary lines" } },
	{ "failed", no_argument, O_FAILED, C(KUNIT),
	  .help = { "--failed", "print only failed suites' lines, and the summary" } },
	/* the guest */
	{ "time-travel", required_argument, O_TT, BOOT_CMDS | C(KUNIT),
	  .help = { "--time-travel=MODE", "off, basic or inf-cpu (default " TT_DEFAULT_NAME ")" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "start", required_argument, O_START, BOOT_CMDS | C(KUNIT),
	  .help = { "--start=WHEN", "guest clock at boot: Unix seconds, ISO-8601 or 'now'\n"
				    "(default " START_DEFAULT_ISO " under time travel)" },
	  HELP_FOR(FOR(C(KUNIT), NULL, "guest clock at boot, as for 'umlrun run'"),
		   FOR(C(HWSIM), NULL,
		       "guest clock at boot (default: the midnight after a\n"
		       "day of the tree's test certificates' validity)")) },
	{ "mem", required_argument, O_MEM, BOOT_CMDS | C(KUNIT),
	  .help = { "--mem=SIZE", "guest memory, " H_MEM_MIN
				  " to the host's RAM (default " GUEST_MEM_DEFAULT ", or\n"
				  "the suite's mem=)" },
	  HELP_FOR(FOR(C(KUNIT), NULL,
		       "guest memory, " H_MEM_MIN " to the host's RAM (default " KUNIT_MEM_DEFAULT
		       ", as\n"
		       "kunit.py)"),
		   FOR(C(HWSIM), NULL, "guest memory (default " HWSIM_MEM ")")) },
	{ "suite-dir", required_argument, O_SUITE_DIR,
	  C(RUN) | C(EXEC) | C(SHELL) | C(LIST) | C(COMPARE),
	  .help = { "--suite-dir=DIR", "suites from DIR instead of the project's testsuites/\n"
				       "(with the project's lib/ files, harness.sh among them,\n"
				       "added to its lib/)" } },
	{ "overlay", required_argument, O_OVERLAY, BOOT_CMDS,
	  .help = { "--overlay=DIR", "lay DIR over the guest's root, e.g. your own build as\n"
				     "DIR/usr/sbin/hostapd (with the libraries it needs);\n"
				     "repeatable" },
	  HELP_FOR(FOR(C(HWSIM), NULL,
		       "lay DIR over the guests' root, e.g. a tool the cases\n"
		       "call (they run the tree's own hostapd and\n"
		       "wpa_supplicant); repeatable")) },
	{ "mount", required_argument, O_MOUNT, BOOT_CMDS,
	  .help = { "--mount=HOST[:GUEST][:rw]",
		    "the host folder HOST at GUEST in the guest (default\n"
		    "/mnt/NAME), read-only unless :rw; repeatable" } },
	{ "random-seed", required_argument, O_RANDOM_SEED, BOOT_CMDS | C(KUNIT),
	  .help = { "--random-seed=N", "the guest's random numbers come from N (default 0:\n"
				       "the same in every run); 'random' picks one and prints it" },
	  HELP_FOR(FOR(C(KUNIT), NULL, "the guest's random numbers come from N (default 0)"),
		   SAID_BY(C(HWSIM), "retry")) },
	{ "seccomp", required_argument, O_SECCOMP, BOOT_CMDS | C(KUNIT),
	  .help = { "--seccomp=WHEN", "UML's seccomp userspace (kernels from 6.16): auto (when\n"
				      "the kernel has it), on or off (ptrace, as 6.1 always is)" },
	  HELP_FOR(FOR(C(KUNIT), NULL, "UML's seccomp userspace: auto, on or off")) },
	{ "cpu-cost", required_argument, O_CPU_COST, BOOT_CMDS,
	  .help = { "--cpu-cost=NS[,jitter=PCT]",
		    "in inf-cpu, each guest system call takes NS\n"
		    "simulated ns, varied by up to PCT % from the random\n"
		    "seed: seeded schedules for races (docs/timers.md)" } },
	/* the kernel: the commands that boot name these on one line */
	{ "kernel", required_argument, O_KERNEL, KERNEL_CMDS | C(DOCTOR),
	  .help = { "--kernel=VERSION",
		    "Debian's linux-source-VERSION: 6.1, 6.12 or 7.2\n"
		    "(default " KERNEL_DEFAULT "; fetched from Debian when not installed)" },
	  HELP_FOR(FOR(C(HWSIM),
		       "--kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --make-jobs=N,\n"
		       "--profile=NAME",
		       "the kernel, as for 'umlrun build', with\n"
		       "uml-config/hwsim/hwsim.config; --make-jobs also\n"
		       "builds the tree's programs"),
		   FOR(BOOT_CMDS,
		       "--kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --make-jobs=N,\n"
		       "--profile=NAME",
		       "the kernel, as for 'umlrun build'"),
		   FOR(C(PRUNE),
		       "--kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --profile=NAME\n",
		       "the kernel to keep, as for 'umlrun build'"),
		   FOR(C(DOCTOR), "--kernel=VERSION, --kernel-src=DIR",
		       "the kernel to look for, as for\n"
		       "'umlrun build'"),
		   FOR_AT(C(KUNIT), "jobs",
			  "--kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --make-jobs=N,\n"
			  "--profile=NAME",
			  "the kernel, as for 'umlrun build'")) },
	{ "kernel-src", required_argument, O_KSRC, KERNEL_CMDS | C(DOCTOR),
	  .help = { "--kernel-src=DIR", "build from this kernel tree (out of tree) instead\n"
					"of a Debian package" },
	  HELP_FOR(SAID_BY(BOOT_CMDS | C(PRUNE) | C(DOCTOR) | C(KUNIT), "kernel")) },
	{ "config", required_argument, O_CONFIG, KERNEL_CMDS,
	  .help = { "--config=FRAGMENT", "merge this config fragment too (repeatable)" },
	  HELP_FOR(SAID_BY(BOOT_CMDS | C(PRUNE) | C(KUNIT), "kernel")) },
	{ "profile", required_argument, O_PROFILE, KERNEL_CMDS,
	  .help = { "--profile=NAME", "a debug kernel, cached apart: hardened, kasan, lockdep\n"
				      "or gcov (uml-config/profiles/NAME.config)" },
	  HELP_FOR(SAID_BY(BOOT_CMDS | C(PRUNE) | C(KUNIT), "kernel")) },
	/* not prune's: it builds nothing, and make's jobs select no kernel */
	{ "make-jobs", required_argument, O_MAKE_JOBS, KERNEL_CMDS & ~C(PRUNE),
	  .help = { "--make-jobs=N", "parallel make jobs (default: number of CPUs)" },
	  HELP_FOR(SAID_BY(BOOT_CMDS | C(KUNIT), "kernel")) },
	{ "trace-event", required_argument, O_TRACE_EVENT, BOOT_CMDS,
	  .help = { "--trace-event=LIST", "trace these kernel events from boot (the kernel's\n"
					  "trace_event=, e.g. timer:hrtimer_start,timer:*;\n"
					  "repeatable): each test's artifacts/trace.txt" } },
	{ "kprobe-event", required_argument, O_KPROBE_EVENT, BOOT_CMDS,
	  .help = { "--kprobe-event=SPEC",
		    "a kprobe event from boot (kprobe_event=; needs kprobes,\n"
		    "which UML lacks)" } },
	/* the run */
	{ "results", required_argument, O_RESULTS, SELECT_CMDS | C(KUNIT),
	  .help = { "--results=DIR", "where run folders go (default ./" RESULTS_DIR_DEFAULT ")" },
	  HELP_FOR(FOR_AT(C(LIST), "help", NULL,
			  "where --rerun-failed finds the last run (default\n"
			  "./" RESULTS_DIR_DEFAULT ")"),
		   FOR_AT(C(COMPARE), "timeout", NULL,
			  "where the two run folders go (default ./" RESULTS_DIR_DEFAULT ")"),
		   SAID_BY(C(HWSIM), "retry")) },
	{ "jobs", required_argument, O_JOBS, SUITE_CMDS | C(COMPARE) | C(KUNIT),
	  .help = { "-j, --jobs=N", "guests at once (default: number of CPUs)" },
	  HELP_FOR(FOR(C(KUNIT), NULL, "--make-jobs, as kunit.py names it"),
		   FOR(C(HWSIM), NULL, "guests at once (default: one per CPU)")) },
	{ "arch", required_argument, O_ARCH, C(KUNIT),
	  .help = { "--arch=um", "accepted (User-Mode Linux is all umlrun runs)" } },
	{ "sample", required_argument, O_SAMPLE, C(COMPARE),
	  .help = { "--sample=N", "only N of the tests (a fixed choice, by id)" } },
	{ "json", optional_argument, O_JSON, C(COMPARE) | C(KUNIT),
	  .help = { "--json", "print JSON instead of a table" },
	  HELP_FOR(FOR_AT(C(KUNIT), "summary", "--json[=FILE]",
			  "print kunit.py's JSON of the results (to FILE)")) },
	{ "timeout", required_argument, O_TIMEOUT, SUITE_CMDS | C(EXEC) | C(COMPARE) | C(KUNIT),
	  .help = { "--timeout=SECONDS", "simulated-time limit per test file (default: the\n"
					 "suite's settings, else " H_TIMEOUT ")" },
	  HELP_FOR(FOR(C(EXEC), NULL, "simulated-time limit (default " H_TIMEOUT ")"),
		   FOR(C(COMPARE), "--timeout, --wall-timeout", "as for 'umlrun run'"),
		   SAID_BY(C(KUNIT), "wall-timeout"),
		   FOR_AT(C(HWSIM), "mem", NULL,
			  "simulated-time limit of a batch (default " H_HWSIM_TIMEOUT ")")) },
	{ "wall-timeout", required_argument, O_WALL_TIMEOUT,
	  SUITE_CMDS | C(EXEC) | C(COMPARE) | C(KUNIT),
	  .help = { "--wall-timeout=SECONDS",
		    "wall-clock limit per test file (default: the\n"
		    "suite's settings, else " H_WALL_TIMEOUT "); with time travel off\n"
		    "or basic, at least the time limit + " H_WALL_MARGIN },
	  HELP_FOR(FOR(C(EXEC), NULL,
		       "wall-clock limit (default " H_WALL_TIMEOUT "); with time travel off\n"
		       "or basic, at least the time limit + " H_WALL_MARGIN),
		   SAID_BY(C(COMPARE), "timeout"),
		   FOR_AT(C(KUNIT), "results", "--wall-timeout=SECONDS, --timeout=SECONDS\n",
			  "wall-clock limit of a boot (default " H_KUNIT_WALL ", as kunit.py)"),
		   FOR_AT(C(HWSIM), "mem", NULL,
			  "wall-clock limit of one case (default " H_HWSIM_CASE_WALL ")")) },
	{ "repeat", required_argument, O_REPEAT, SUITE_CMDS,
	  .help = { "--repeat=N", "run each test file N times" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "check-determinism", no_argument, O_DETERMINISM, SUITE_CMDS,
	  .help = { "--check-determinism", "with --repeat: fail if the guest's output differs\n"
					   "between runs, showing the first difference" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "seeds", required_argument, O_SEEDS, SUITE_CMDS,
	  .help = { "--seeds=A-B", "run each test file once per guest random seed A..B (in\n"
				   "parallel guests), list the seeds that fail and print\n"
				   "the command that replays the first" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "retry", required_argument, O_RETRY, SUITE_CMDS,
	  .help = { "--retry=N", "run a failing test again up to N times; one that then\n"
				 "passes is reported flaky" },
	  HELP_FOR(FOR(C(HWSIM),
		       "--retry=N, --repeat=N, --check-determinism, --seeds=A-B, --shard=K/N,\n"
		       "--durations=FILE, --filter=GLOB, --exclude=GLOB, --shuffle[=SEED],\n"
		       "--time-travel=MODE, --random-seed=N, --results=DIR, -q, -v\n",
		       "as for 'umlrun run', by test file (a batch)")) },
	/* which tests */
	{ "plain", required_argument, O_PLAIN, C(RUN) | C(LIST) | C(COMPARE),
	  .help = { "--plain=DIR", "run the executables in DIR as a suite: exit 0 passes,\n"
				   "4 skips, else fails (repeatable; not with --suite-dir)" } },
	{ "filter", required_argument, O_FILTER, SELECT_CMDS | C(KUNIT),
	  .help = { "--filter=GLOB", "only tests whose id (SUITE/tNNNN-name.sh) matches" },
	  HELP_FOR(FOR_AT(C(KUNIT), "filter_action", "--filter=ATTRS",
			  "only tests whose attributes match, e.g. 'speed>slow'\n"
			  "or 'speed>slow, module=example' (kunit.filter=)"),
		   SAID_BY(C(HWSIM), "retry")) },
	{ "exclude", required_argument, O_EXCLUDE, SELECT_CMDS,
	  .help = { "--exclude=GLOB", "not the tests whose id matches (both repeatable)" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "rerun-failed", no_argument, O_RERUN_FAILED, C(RUN) | C(LIST) | C(COMPARE) | C(HWSIM),
	  .help = { "--rerun-failed", "only the tests that failed in the last run" },
	  HELP_FOR(FOR(C(HWSIM), NULL, "only the cases that failed in the last run")) },
	{ "shard", required_argument, O_SHARD, SELECT_CMDS,
	  .help = { "--shard=K/N", "only share K of N (for CI machines running in parallel;\n"
				   "merge their results with 'umlrun merge')" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "durations", required_argument, O_DURATIONS, SELECT_CMDS,
	  .help = { "--durations=FILE", "test durations (results.json or 'ID SECONDS' lines) to\n"
					"balance shards; every shard must use the same file" },
	  HELP_FOR(SAID_BY(C(HWSIM), "retry")) },
	{ "shuffle", optional_argument, O_SHUFFLE, SELECT_CMDS,
	  .help = { "--shuffle[=SEED]", "run in a random order; the seed is printed to replay it" },
	  /* compare prints its table alone: the seed is in the run folders */
	  HELP_FOR(FOR(C(COMPARE), NULL,
		       "run in a random order, the same both times; the seed\n"
		       "is each run folder's results.json \"seed\""),
		   SAID_BY(C(HWSIM), "retry")) },
	/* what a run prints */
	{ "list", no_argument, O_LIST, SUITE_CMDS | C(KUNIT),
	  .help = { "--list", "print the selected tests and run nothing" },
	  HELP_FOR(FOR_AT(C(KUNIT), "list_suites", "--list, --list_tests",
			  "print the selected SUITE.CASE names (one boot), run\n"
			  "nothing"),
		   FOR_AT(C(HWSIM), "tshark", NULL,
			  "print the cases a run would run (MODULE CASE), in\n"
			  "its order; run nothing")) },
	/* kunit.py's name for --list: kunit's alone, as kunit.py's other names are */
	{ "list_tests", no_argument, O_LIST, C(KUNIT),
	  .help_for = HELP_FOR(SAID_BY(C(KUNIT), "list")) },
	{ "quiet", no_argument, O_QUIET, SUITE_CMDS | C(KUNIT),
	  .help = { "-q, --quiet", "print only each test file's result line (ktap.txt\n"
				   "keeps every test's lines)" },
	  HELP_FOR(FOR(C(KUNIT), NULL, "print only each suite's result line"),
		   SAID_BY(C(HWSIM), "retry")) },
	{ "verbose", no_argument, O_VERBOSE, SUITE_CMDS | C(KUNIT),
	  .help = { "-v, --verbose", "copy each guest's console to stderr (with -j, each\n"
				     "line tagged [SUITE/TEST])" },
	  HELP_FOR(FOR(C(KUNIT), NULL, "copy the guest's console to stderr"),
		   SAID_BY(C(HWSIM), "retry")) },
	/*
	 * the harness's -x, -i and --run: run's alone, as neither hwsim's
	 * batches nor kselftest's wrappers source harness.sh
	 */
	{ "trace", no_argument, O_TRACE, C(RUN),
	  .help = { "--trace", "trace the test bodies (the harness's -x, set -x) into\n"
			       "each console.log; with -v, live" } },
	{ "immediate", no_argument, O_IMMEDIATE, C(RUN),
	  .help = { "--immediate", "stop a test file at its first failing test (-i)" } },
	{ "run", required_argument, O_RUN_LIST, C(RUN),
	  .help = { "--run=LIST", "only these tests of each file, e.g. 1,3-4 (the\n"
				  "harness's --run); the others are reported skipped" } },
	/* debugging */
	{ "gdb", optional_argument, O_GDB, C(RUN) | C(EXEC) | C(SHELL),
	  .help = { "--gdb[=FILE]", "the guest kernel under the host's gdb, paused before\n"
				    "init (simulated time stands still while stopped);\n"
				    "with FILE, gdb runs its commands in batch mode" } },
	{ "gdb-guest", optional_argument, O_GDB_GUEST, C(EXEC),
	  .help = { "--gdb-guest[=FILE]", "COMMAND under gdbserver in the guest, the host's gdb\n"
					  "on it over a serial line (time travel off unless\n"
					  "--time-travel); with FILE, gdb's commands in batch\n"
					  "mode" } },
	{ "gdb-guest-source", required_argument, O_GDB_GUEST_SOURCE, C(EXEC),
	  .help = { "--gdb-guest-source=DIR",
		    "gdb may read the program's source files in DIR (and\n"
		    "looks there); repeatable" } },
	/* merge's and prune's own */
	{ "output", required_argument, O_OUTPUT, C(MERGE),
	  .help = { "--output=DIR", "where the merged results go (must not exist)" } },
	{ "dry-run", no_argument, O_DRY_RUN, C(PRUNE),
	  .help = { "--dry-run", "say what would be removed, remove nothing" } },
	KUNITPY_REFUSED("build_dir"),
	KUNITPY_REFUSED("make_options"),
	KUNITPY_REFUSED("alltests"),
	KUNITPY_REFUSED("cross_compile"),
	KUNITPY_REFUSED("qemu_config"),
	KUNITPY_REFUSED("qemu_args"),
	KUNITPY_REFUSED("junit"),
	/*
	 * help --options CMD: the options CMD takes, for scripts (the bash
	 * completion, make man-check: command_options); not in help's help
	 */
	{ "options", no_argument, O_OPTIONS, C(HELP), .help_for = HELP_FOR(UNSAID(C(HELP))) },
	/* every command takes it; help's own help is its two lines */
	{ "help", no_argument, O_HELP, ALL_CMDS, .help = { "-h, --help", "show this help" },
	  HELP_FOR(UNSAID(C(HELP))) },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))
static struct option long_opts[N_OPTIONS + 1];
/* The row of each long_opts entry (the rows of help only have none). */
static const struct option_row *long_rows[N_OPTIONS];

/* getopt's table, from options[] (once). */
static void long_opts_make(void)
{
	size_t n = 0;

	if (long_opts[0].name)
		return;
	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (!options[i].name)
			continue;
		long_rows[n] = &options[i];
		long_opts[n++] =
		    (struct option){ options[i].name, options[i].has_arg, NULL, options[i].id };
	}
}

/* The row of what getopt_long returned: by li for a long option, else by its letter. */
static const struct option_row *option_row(int c, int li)
{
	if (c >= 256)
		return long_rows[li];
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (options[i].id == c)
			return &options[i];
	return NULL;
}

/*
 * A command: its name and its --help, composed (command_usage) of head,
 * the lines of the options it takes (options[]) and tail.
 */
static const struct command_desc {
	enum command cmd;
	const char *name;
	const char *head; /* the usage line, what it does, a blank line */
	/* Its options in its own words, instead of the rows' lines (but -h's). */
	const char *options;
	/*
	 * With options: it takes the options of command like, as options
	 * says, but some, which follow options (help_refused).
	 */
	enum command like;
	const char *tail; /* after the options: exit status, environment */
} commands[] = {
	{ CMD_BUILD, "build",
	  .head = "Usage: umlrun build [OPTIONS]\n"
		  "Build (or find in the cache) the time-travel kernel and the guest's root "
		  "folder.\n"
		  "\n" },
	{ CMD_RUN, "run",
	  .head = "Usage: umlrun run [OPTIONS] [SUITE | SUITE/TEST ...]\n"
		  "Run test files, each in its own guest, and report KTAP on stdout.\n"
		  "With no argument, every suite runs.\n"
		  "\n",
	  .tail = "\n"
		  "Exit status: 0 all passed, 1 a test failed, 2 usage, 3 infrastructure\n"
		  "(build, boot, crash), 124 timeout, 128+N umlrun killed by signal N.\n" },
	{ CMD_EXEC, "exec",
	  .head = "Usage: umlrun exec [OPTIONS] -- COMMAND [ARG...]\n"
		  "Run one command in a guest under time travel, streaming its output, and\n"
		  "exit with its status.\n"
		  "\n" },
	{ CMD_SHELL, "shell",
	  .head = "Usage: umlrun shell [OPTIONS]\n"
		  "Boot the test guest with an interactive shell on this terminal (in\n"
		  "/suite, with the suites read-only); 'exit' powers it off.\n"
		  "\n" },
	{ CMD_LIST, "list",
	  .head = "Usage: umlrun list [OPTIONS] [SUITE ...]\n"
		  "List the test files (all suites by default), as 'run' would select them.\n"
		  "\n" },
	{ CMD_MERGE, "merge",
	  .head = "Usage: umlrun merge --output=DIR RUN_DIR...\n"
		  "Merge the run folders of the shards of one run (umlrun run --shard=K/N)\n"
		  "into one results.json, junit.xml, ktap.txt and report.html in DIR. Fails\n"
		  "if a shard is missing or two shards ran the same test.\n"
		  "\n" },
	{ CMD_COMPARE, "compare",
	  .head = "Usage: umlrun compare [OPTIONS] [SUITE | SUITE/TEST ...]\n"
		  "Run the tests with time travel off and in the chosen mode, in one go, and\n"
		  "print per test and in total: simulated seconds, wall seconds each way and\n"
		  "their ratio.\n"
		  "\n" },
	{ CMD_PRUNE, "prune",
	  .head = "Usage: umlrun prune [OPTIONS]\n"
		  "Remove the cached kernels and root folders that the current inputs (the\n"
		  "project's fragments and packages, and these options) do not select. What\n"
		  "was used in the last hour stays: another umlrun may be using it.\n"
		  "\n" },
	{ CMD_DOCTOR, "doctor",
	  .head = "Usage: umlrun doctor [OPTIONS]\n"
		  "Check what this host must offer umlrun: the Debian packages, ptrace,\n"
		  "/dev/shm, seccomp, Landlock, namespaces, TMPDIR, free disk in the cache\n"
		  "and whether the kernel is built. One line per check: 'ok', 'warn' (umlrun\n"
		  "works, maybe slower or less confined) or 'FAIL' with how to fix it.\n"
		  "\n",
	  .tail = "\n"
		  "Environment: UMLRUN_PACKAGES=FILE checks the packages FILE lists instead\n"
		  "of the project's debian-packages.\n"
		  "Exit status: 0 nothing failed, 3 a check failed.\n" },
	{ CMD_KSELFTEST, "kselftest",
	  .head = "Usage: umlrun kselftest [OPTIONS] [TARGET...]\n"
		  "Build the kernel's own selftests of TARGET (default timers; a folder of\n"
		  "tools/testing/selftests in the kernel source the guest kernel comes from),\n"
		  "static, once (cached), and run each program as a test file of the suite\n"
		  "kselftest-TARGET, as 'umlrun run' runs suites. A program that cannot run in\n"
		  "a UML guest under time travel is reported skipped, with the reason\n"
		  "(docs/kselftest.md).\n"
		  "\n",
	  .options =
	      "  Every option of 'umlrun run' but those it refuses (below), e.g. -j2,\n"
	      "  --filter='*/t*-leap-a-day.sh', --retry=N, --repeat=N --check-determinism,\n"
	      "  --shard=K/N, --list, --time-travel=off (real time: of the programs that poll\n"
	      "  the clock, only the short runs), --kernel-src=DIR. It refuses:\n",
	  .like = CMD_RUN,
	  .tail = "\n"
		  "Exit status: as 'umlrun run'; 2 for an unknown TARGET, 3 for one that does\n"
		  "not build.\n" },
	{ CMD_KUNIT, "kunit",
	  .head = "Usage: umlrun kunit [OPTIONS] [GLOB]\n"
		  "Build a kernel with KUnit and the kunitconfig (cached, like 'umlrun build'),\n"
		  "boot it once under time travel and report each KUnit suite as a test file\n"
		  "kunit/SUITE, its cases as subtests, as 'umlrun run' reports: KTAP on stdout,\n"
		  "a results folder, the same exit status (docs/kunit.md). GLOB selects suites,\n"
		  "or SUITE.CASE, as kunit.py's filter_glob (the kernel's kunit.filter_glob=).\n"
		  "kunit.py's options keep their names and meaning (docs/kunit.md has a table).\n"
		  "\n",
	  .tail = "\n"
		  "Exit status: as 'umlrun run'; 2 for a missing kunitconfig, an option of it\n"
		  "that the kernel does not keep, or a GLOB that selects no suite.\n" },
	{ CMD_HWSIM, "hwsim",
	  .head = "Usage: umlrun hwsim --hostap=TREE [OPTIONS] [CASE|PREFIX*...]\n"
		  "Run hostap's own tests/hwsim suite of TREE, unchanged: build its programs\n"
		  "with the suite's example configs (cached by the tree's C sources), boot\n"
		  "guests of a kernel and root folder of their own (python3 and what the cases\n"
		  "need), start the daemons with the tree's start.sh and run the cases with its\n"
		  "run-tests.py, " H_HWSIM_BATCH_MIN " to " H_HWSIM_BATCH_MAX " cases a guest, -j "
		  "guests at once. Each case is one\n"
		  "KTAP result; a guest stuck in a case is stopped, the case failed, and the\n"
		  "cases after it go on in a fresh guest (docs/hwsim.md).\n"
		  "\n",
	  .tail = "\n"
		  "Environment: UMLRUN_PACKAGES=FILE checks the packages FILE lists instead\n"
		  "of the project's debian-packages (its hwsim ones; with --tshark its tshark).\n"
		  "Exit status: as 'umlrun run'; 2 for a TREE that is not hostap, an unknown\n"
		  "case or module; 3 for a tree that does not build or packages missing.\n" },
	{ CMD_HELP, "help",
	  .head = "Usage: umlrun help [COMMAND]\n"
		  "Show the help of umlrun or of one command.\n" },
};

static const char main_usage[] =
    "Usage: umlrun COMMAND [OPTIONS] [ARGS]\n"
    "Run timer-bound Linux test suites in User-Mode Linux under time travel.\n"
    "\n"
    "Commands:\n"
    "  build     build the time-travel kernel and the guest's root folder\n"
    "  run       run test suites, report KTAP, write a results folder\n"
    "  exec      run one command in a guest and exit with its status\n"
    "  shell     boot a guest with an interactive shell\n"
    "  list      list the test files\n"
    "  merge     merge the results of shards run on several machines\n"
    "  compare   time the tests with time travel off and on\n"
    "  prune     remove cached kernels and root folders no longer used\n"
    "  doctor    check what this host must offer umlrun\n"
    "  kselftest build and run the kernel's selftests (default: timers)\n"
    "  kunit     build and run the kernel's KUnit tests in one guest\n"
    "  hwsim     build and run hostap's own tests/hwsim suite\n"
    "  help      show help (also: umlrun COMMAND --help)\n"
    "\n"
    "Exit status: 0 all passed, 1 a test failed, 2 usage, 3 infrastructure,\n"
    "124 timeout, 128+N killed by signal N.\n";

/* One entry per command of UMLRUN_COMMANDS: a new command needs its help here. */
_Static_assert(sizeof(commands) / sizeof(commands[0]) == CMD_COUNT - 1,
	       "every command of UMLRUN_COMMANDS has one entry in commands[]");

static const struct command_desc *desc_of(enum command c)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].cmd == c)
			return &commands[i];
	return NULL;
}

enum command command_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].cmd;
	return CMD_NONE;
}

/* The column the descriptions start in; the widest line. */
#define HELP_COL   25
#define HELP_WIDTH 80

/* Appends a line of help: "  COL", padded to HELP_COL (or two blanks), and its text. */
static void help_put(struct strbuf *sb, const struct help *h)
{
	const char *col = h->col, *nl;
	size_t width;

	while ((nl = strchr(col, '\n'))) {
		sb_printf(sb, "  %.*s\n", (int)(nl - col), col);
		col = nl + 1;
	}
	width = 2 + strlen(col);
	sb_printf(sb, "  %s%*s", col, width < HELP_COL ? (int)(HELP_COL - width) : 2, "");
	for (const char *t = h->text;; t = nl + 1) {
		nl = strchrnul(t, '\n');
		sb_printf(sb, "%.*s\n", (int)(nl - t), t);
		if (!*nl)
			return;
		sb_printf(sb, "%*s", HELP_COL, "");
	}
}

/*
 * The options of command d->like that d refuses, from the rows, after d's
 * own words: "--name" separated by commas, on lines of their own indented
 * by four blanks (a line that starts "  -" would be a line of options d
 * takes).
 */
static void help_refused(struct strbuf *sb, const struct command_desc *d)
{
	size_t col = 0;

	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_row *r = &options[i];
		size_t len;

		if (!r->name || !(r->cmds & (1u << d->like)) || (r->cmds & (1u << d->cmd)))
			continue;
		len = 2 + strlen(r->name);
		/* Room for the comma after it too. */
		if (col && col + 2 + len + 1 > HELP_WIDTH) {
			sb_adds(sb, ",\n");
			col = 0;
		} else if (col) {
			sb_adds(sb, ", ");
			col += 2;
		}
		if (!col) {
			sb_adds(sb, "    ");
			col = 4;
		}
		sb_printf(sb, "--%s", r->name);
		col += len;
	}
	if (col)
		sb_adds(sb, "\n");
}

/* What command c's help says of row r instead of its line: NULL, its line. */
static const struct help_for *help_for(const struct option_row *r, enum command c)
{
	for (const struct help_for *f = r->help_for; f && f->cmds; f++)
		if (f->cmds & (1u << c))
			return f;
	return NULL;
}

/* The line of row r in command d's help, in *h; false: it has none of its own. */
static bool help_of(const struct option_row *r, const struct command_desc *d, struct help *h)
{
	const struct help_for *f = help_for(r, d->cmd);

	if (!(r->cmds & (1u << d->cmd)) || (d->options && r->id != O_HELP))
		return false;
	*h = r->help;
	if (f && (f->unsaid || f->by))
		return false;
	if (f && f->help.col)
		h->col = f->help.col;
	if (f)
		h->text = f->help.text;
	return h->col != NULL;
}

/* The rows' lines in d's help: each row's in its place, or before --AT's. */
static void help_options(struct strbuf *sb, const struct command_desc *d)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct help_for *f;
		struct help h;

		for (size_t j = 0; j < N_OPTIONS && options[i].name; j++) {
			f = help_for(&options[j], d->cmd);
			if (f && f->at && !strcmp(f->at, options[i].name) &&
			    help_of(&options[j], d, &h))
				help_put(sb, &h);
		}
		f = help_for(&options[i], d->cmd);
		if ((!f || !f->at) && help_of(&options[i], d, &h))
			help_put(sb, &h);
	}
}

const char *command_usage(enum command c)
{
	static char *usage[CMD_COUNT];
	const struct command_desc *d = desc_of(c);
	struct strbuf sb = { 0 };

	if (!d)
		return main_usage;
	if (usage[c])
		return usage[c];
	sb_adds(&sb, d->head);
	if (d->options)
		sb_adds(&sb, d->options);
	if (d->like)
		help_refused(&sb, d);
	help_options(&sb, d);
	if (d->tail)
		sb_adds(&sb, d->tail);
	return usage[c] = sb_detach(&sb);
}

const char *command_options(enum command c)
{
	static char *list[CMD_COUNT];
	struct strbuf sb = { 0 };

	if (c <= CMD_NONE || c >= CMD_COUNT)
		return "";
	if (list[c])
		return list[c];
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_row *r = &options[i];
		const struct help_for *f = help_for(r, c);

		if (!r->name || !(r->cmds & (1u << c)) || (f && f->unsaid))
			continue;
		sb_printf(&sb, "--%s%s", r->name, r->has_arg == required_argument ? "=" : "");
		if (r->id < 256)
			sb_printf(&sb, " -%c", r->id);
		sb_adds(&sb, "\n");
	}
	/* A command that takes none (help): "", not NULL. */
	return list[c] = sb.len ? sb_detach(&sb) : xstrdup("");
}

const char *option_name(size_t i, int *letter)
{
	if (i >= N_OPTIONS)
		return NULL;
	*letter = options[i].id < 256 ? options[i].id : 0;
	return options[i].name ? options[i].name : "";
}

bool option_takes(size_t i, enum command c)
{
	return i < N_OPTIONS && options[i].name && (options[i].cmds & (1u << c));
}

bool option_said(size_t i, enum command c)
{
	const struct command_desc *d = desc_of(c);
	const struct help_for *f;

	if (!option_takes(i, c) || !d || (d->options && options[i].id != O_HELP))
		return false;
	f = help_for(&options[i], c);
	return !f || !f->unsaid;
}

/* The row of a long option as given, "--NAME[=VALUE]", an unambiguous prefix as getopt takes it. */
static const struct option_row *long_row(const char *word)
{
	size_t len = strcspn(word, "=");
	const struct option_row *prefixed = NULL;

	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (!options[i].name || strncmp(options[i].name, word, len))
			continue;
		if (!options[i].name[len])
			return &options[i];
		/* Several match a prefix only when they are one option (getopt refuses others). */
		if (!prefixed)
			prefixed = &options[i];
	}
	return prefixed;
}

int opt_word(const struct opts *o, int i, const char **name, const char **value)
{
	const char *w = o->opt_words[i];
	const char *next = i + 1 < o->nopt_words ? o->opt_words[i + 1] : NULL;
	const struct option_row *row;

	*name = *value = NULL;
	if (w[0] != '-' || !strcmp(w, "--"))
		return 1;
	if (w[1] == '-') {
		row = long_row(w + 2);
		if (!row)
			return 1;
		*name = row->name;
		if (strchr(w, '=')) {
			*value = strchr(w, '=') + 1;
			return 1;
		}
		if (row->has_arg != required_argument || !next)
			return 1;
		*value = next;
		return 2;
	}
	/* Short ones, one or a cluster (-qv); one that takes a value ends it (-j2, -qj 2). */
	for (const char *p = w + 1; *p; p++) {
		row = option_row((unsigned char)*p, 0);
		if (!row || row->has_arg != required_argument)
			continue;
		*name = p == w + 1 ? row->name : NULL;
		*value = p[1] ? p + 1 : next;
		return p[1] || !next ? 1 : 2;
	}
	if (!w[2] && (row = option_row((unsigned char)w[1], 0)))
		*name = row->name;
	return 1;
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = (char *)s;
}

/* Options with a number: the bounds, and what the user is told. */
static int parse_number(struct opts *o, int c, const char *arg, struct uerr *e)
{
	static const struct {
		int opt;
		const char *name;
		long min, max;
	} nums[] = {
		{ O_MAKE_JOBS, "--make-jobs", 1, 1024 },
		{ O_JOBS, "--jobs", 1, 256 },
		{ O_TIMEOUT, "--timeout", 1, TEST_TIMEOUT_MAX },
		{ O_WALL_TIMEOUT, "--wall-timeout", 1, TEST_WALL_TIMEOUT_MAX },
		{ O_REPEAT, "--repeat", 1, 10000 },
		{ O_RETRY, "--retry", 0, 100 },
		{ O_SAMPLE, "--sample", 1, 1000000 },
	};
	long v = 0;

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (nums[i].opt != c)
			continue;
		if (parse_long(arg, nums[i].min, nums[i].max, &v) < 0)
			return uerr_set(e, EXIT_USAGE, "%s=%s: give a whole number from %ld to %ld",
					nums[i].name, arg, nums[i].min, nums[i].max);
		break;
	}
	switch (c) {
	case O_MAKE_JOBS:
		o->make_jobs = (int)v;
		break;
	case O_JOBS:
		o->jobs = (int)v;
		break;
	case O_TIMEOUT:
		o->timeout = v;
		break;
	case O_WALL_TIMEOUT:
		o->wall_timeout = (double)v;
		break;
	case O_REPEAT:
		o->repeat = (int)v;
		break;
	case O_RETRY:
		o->retry = (int)v;
		break;
	case O_SAMPLE:
		o->sample = (int)v;
		break;
	}
	return 0;
}

/*
 * --trace-event=LIST as the kernel's trace_event= takes it: [SYSTEM:]EVENT
 * items separated by single commas, each a name or a glob (timer:*).
 * Nothing else may reach the command line.
 */
static bool trace_event_list_ok(const char *s)
{
	static const char name[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_*";
	const char *item = s;

	for (;;) {
		size_t len = strcspn(item, ",");
		size_t a = strspn(item, name);

		if (a < len && item[a] == ':')
			a += 1 + strspn(item + a + 1, name);
		if (!len || a != len || item[0] == ':' || item[len - 1] == ':')
			return false;
		if (!item[len])
			return true;
		item += len + 1;
	}
}

/* --cpu-cost=NS[,jitter=PCT]: 1 ns to 1 s per system call, jitter 0 to 100 %. */
static int parse_cpu_cost(struct opts *o, const char *arg, struct uerr *e)
{
	const char *comma = strchr(arg, ',');
	_cleanup_free_ char *ns = xstrndup(arg, comma ? (size_t)(comma - arg) : strlen(arg));
	long v = 0, pct = 0;

	if (parse_long(ns, 1, 1000000000, &v) < 0 ||
	    (comma &&
	     (strncmp(comma + 1, "jitter=", 7) || parse_long(comma + 8, 0, 100, &pct) < 0)))
		return uerr_set(
		    e, EXIT_USAGE,
		    "--cpu-cost=%s: give NS[,jitter=PCT], nanoseconds per system call "
		    "(1 to 1000000000) and a jitter of 0 to 100 %%, e.g. 2000,jitter=50",
		    arg);
	o->cpu_cost_ns = v;
	o->cpu_cost_jitter = (int)pct;
	return 0;
}

/*
 * --run=LIST as the harness takes it: N, N-M, -M and N- items, separated
 * by single commas. Tests are numbered from 1, and a range runs upwards:
 * 0 or 3-1 would select nothing, so every test would be skipped and the
 * run pass.
 */
static int run_list_check(const char *s, struct uerr *e)
{
	const char *item = s;

	for (;;) {
		const char *end = item + strcspn(item, ",");
		size_t len = (size_t)(end - item);
		size_t digits = strspn(item, "0123456789");
		size_t dash = digits < len && item[digits] == '-';
		size_t more = dash ? strspn(item + digits + 1, "0123456789") : 0;
		long lo = 1, hi = LONG_MAX;

		if (!len || digits + dash + more != len || (dash && len == 1))
			return uerr_set(e, EXIT_USAGE,
					"--run=%s: want test numbers and ranges, e.g. --run=1,3-4",
					s);
		/* At most 9 digits: the harness compares them in shell arithmetic. */
		if (digits > 9 || more > 9)
			return uerr_set(e, EXIT_USAGE,
					"--run=%s: a test number has at most 9 digits", s);
		if (digits)
			lo = strtol(item, NULL, 10);
		if (more)
			hi = strtol(item + digits + 1, NULL, 10);
		if ((digits && lo == 0) || (more && hi == 0))
			return uerr_set(e, EXIT_USAGE, "--run=%s: tests are numbered from 1, not 0",
					s);
		if (lo > hi)
			return uerr_set(e, EXIT_USAGE,
					"--run=%s: the range %.*s runs backwards; write %ld-%ld", s,
					(int)len, item, hi, lo);
		if (!*end)
			return 0;
		item = end + 1;
	}
}

/*
 * --kernel_args as kunit.py passes them: words of the kernel command line
 * (several in one, blank-separated, as kunit.py's list joins them), no
 * quotes (the guest's line is split on blanks: docs/kunit.md).
 */
static bool kernel_args_ok(const char *s)
{
	bool word = false;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 && *p != '\t')
			return false;
		if (*p == '"' || *p == '\'' || *p == 0x7f)
			return false;
		word |= *p != ' ' && *p != '\t';
	}
	return word;
}

/* A kunitconfig line: CONFIG_NAME=VALUE, or "# CONFIG_NAME is not set". */
static bool kconfig_line_ok(const char *s)
{
	const char *p = s;
	size_t n;

	if (!strncmp(p, "# ", 2))
		p += 2;
	if (strncmp(p, "CONFIG_", 7))
		return false;
	n = strspn(p + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	if (!n)
		return false;
	p += 7 + n;
	if (s[0] == '#')
		return !strcmp(p, " is not set");
	if (*p++ != '=' || !*p)
		return false;
	for (; *p; p++)
		if ((unsigned char)*p < 0x20)
			return false;
	return true;
}

/* kunit.py's options umlrun does not take, and why (docs/kunit.md's table). */
static const char *kunitpy_refused(const char *name)
{
	static const struct {
		const char *name, *why;
	} refused[] = {
		{ "--build_dir", "--build_dir: umlrun builds in its cache (a kernel per "
				 "configuration, found again by its key); nothing to give" },
		{ "--make_options", "--make_options: umlrun's kernel is keyed by its inputs, "
				    "and make variables are not one; use --config=FRAGMENT" },
		{ "--alltests",
		  "--alltests: give --kunitconfig=tools/testing/kunit/configs/all_tests.config "
		  "(kunit.py's own list; hours to build on a small host)" },
		{ "--cross_compile", "--cross_compile: umlrun builds User-Mode Linux for this host "
				     "only" },
		{ "--qemu_config", "--qemu_config: umlrun runs User-Mode Linux, not QEMU" },
		{ "--qemu_args", "--qemu_args: umlrun runs User-Mode Linux, not QEMU" },
		{ "--junit", "--junit: umlrun writes its JUnit XML to every run folder "
			     "(RUN/junit.xml, one test file per suite)" },
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(refused[i].name, name))
			return refused[i].why;
	return "unknown option";
}

static int parse_option(struct opts *o, int c, const char *name, const char *arg, struct uerr *e)
{
	switch (c) {
	case O_HELP:
		o->help = true;
		return 0;
	case O_VERBOSE:
		o->verbose = true;
		return 0;
	case O_QUIET:
		o->quiet = true;
		return 0;
	case O_KUNITPY_REFUSED:
		return uerr_set(e, EXIT_USAGE, "kunit: %s (docs/kunit.md)", kunitpy_refused(name));
	case O_TT:
		o->mode_given = true;
		if (tt_mode_parse(arg, &o->mode) < 0)
			return uerr_set(e, EXIT_USAGE,
					"--time-travel=%s: unknown mode; use off, basic or inf-cpu",
					arg);
		return 0;
	case O_START:
		o->start = arg;
		return 0;
	case O_MEM: {
		_cleanup_free_ char *what = xasprintf("--mem=%s", arg);

		if (!mem_size_valid(arg))
			return uerr_set(e, EXIT_USAGE, "%s: give a size such as 256M or 1G", what);
		if (guest_mem_check(what, arg, e) < 0)
			return -1;
		o->mem = arg;
		return 0;
	}
	case O_RESULTS:
		o->results_dir = arg;
		return 0;
	case O_SUITE_DIR:
		o->suite_dir = arg;
		return 0;
	case O_CPU_COST:
		return parse_cpu_cost(o, arg, e);
	case O_SECCOMP:
		if (strcmp(arg, "auto") && strcmp(arg, "on") && strcmp(arg, "off"))
			return uerr_set(e, EXIT_USAGE, "--seccomp=%s: use auto, on or off", arg);
		o->seccomp = arg;
		return 0;
	case O_KERNEL:
		if (!kernel_version_find(arg))
			return uerr_set(e, EXIT_USAGE,
					"--kernel=%s: unknown version; umlrun knows %s (or give "
					"--kernel-src DIR)",
					arg, kernel_version_names());
		o->kernel = arg;
		return 0;
	case O_KSRC:
		o->kernel_src = arg;
		return 0;
	case O_KUNITCONFIG:
		push(&o->kunitconfigs, &o->nkunitconfigs, arg);
		return 0;
	case O_HOSTAP:
		o->hostap = arg;
		return 0;
	case O_MODULE:
		push(&o->modules, &o->nmodules, arg);
		return 0;
	case O_TSHARK:
		o->tshark = true;
		return 0;
	case O_CONFIG:
		push(&o->configs, &o->nconfigs, arg);
		return 0;
	case O_TRACE:
		o->trace = true;
		return 0;
	case O_IMMEDIATE:
		o->immediate = true;
		return 0;
	case O_DRY_RUN:
		o->dry_run = true;
		return 0;
	case O_SEEDS: {
		unsigned long long a, b;
		int used = 0;

		if (sscanf(arg, "%llu-%llu%n", &a, &b, &used) != 2 || arg[used] || *arg == '-' ||
		    strchr(arg, '+') || b < a || b - a >= 10000 || b > LLONG_MAX)
			return uerr_set(e, EXIT_USAGE,
					"--seeds=%s: give a range A-B of random seeds, A <= B, at "
					"most 10000 of them (e.g. 1-50)",
					arg);
		o->seeds_from = a;
		o->seeds_to = b;
		o->seeds = true;
		return 0;
	}
	case O_TRACE_EVENT:
		if (!trace_event_list_ok(arg))
			return uerr_set(
			    e, EXIT_USAGE,
			    "--trace-event=%s: want SYSTEM:EVENT names separated by "
			    "commas, e.g. timer:hrtimer_start,timer:hrtimer_expire_entry",
			    arg);
		push(&o->trace_events, &o->ntrace_events, arg);
		return 0;
	case O_KPROBE_EVENT:
		if (!*arg || strpbrk(arg, ";\"\n\t,"))
			return uerr_set(
			    e, EXIT_USAGE,
			    "--kprobe-event=%s: want one probe as the kernel's "
			    "kprobe_events file takes it, e.g. 'p:myprobe do_nanosleep'",
			    arg);
		push(&o->kprobe_events, &o->nkprobe_events, arg);
		return 0;
	case O_PROFILE:
		if (!profile_find(arg))
			return uerr_set(e, EXIT_USAGE,
					"--profile=%s: unknown profile; umlrun knows %s", arg,
					profile_names());
		o->profile = arg;
		return 0;
	case O_GDB:
		if (arg && !*arg)
			return uerr_set(e, EXIT_USAGE, "--gdb=FILE: the file name is empty");
		o->gdb = true;
		o->gdb_script = arg;
		return 0;
	case O_GDB_GUEST:
		if (arg && !*arg)
			return uerr_set(e, EXIT_USAGE, "--gdb-guest=FILE: the file name is empty");
		o->gdb_guest = true;
		o->gdb_guest_script = arg;
		return 0;
	case O_GDB_GUEST_SOURCE:
		if (!*arg)
			return uerr_set(e, EXIT_USAGE,
					"--gdb-guest-source=DIR: the folder is empty");
		if (o->ngdb_guest_sources == GDB_GUEST_SOURCES_MAX)
			return uerr_set(e, EXIT_USAGE, "--gdb-guest-source: at most %d folders",
					GDB_GUEST_SOURCES_MAX);
		o->gdb_guest_sources[o->ngdb_guest_sources++] = arg;
		return 0;
	case O_RANDOM_SEED:
		if (strcmp(arg, "random")) {
			char *end;

			errno = 0;
			unsigned long long v = strtoull(arg, &end, 10);

			if (errno || end == arg || *end || *arg == '-' || v > LLONG_MAX)
				return uerr_set(
				    e, EXIT_USAGE,
				    "--random-seed=%s: give a whole number below 2^63, or "
				    "'random'",
				    arg);
		}
		o->random_seed = arg;
		return 0;
	case O_RUN_LIST:
		if (run_list_check(arg, e) < 0)
			return -1;
		o->run_list = arg;
		return 0;
	case O_MOUNT:
		push(&o->mounts, &o->nmounts, arg);
		return 0;
	case O_PLAIN:
		push(&o->plains, &o->nplains, arg);
		return 0;
	case O_OVERLAY:
		push(&o->overlays, &o->noverlays, arg);
		return 0;
	case O_DETERMINISM:
		o->check_determinism = true;
		return 0;
	case O_FILTER:
		push(&o->filters, &o->nfilters, arg);
		return 0;
	case O_EXCLUDE:
		push(&o->excludes, &o->nexcludes, arg);
		return 0;
	case O_LIST:
		o->list = true;
		return 0;
	case O_SHUFFLE:
		o->shuffle = true;
		if (arg) {
			char *end;

			errno = 0;
			o->seed = strtoull(arg, &end, 10);
			/* strtoull takes "-1" as 2^64-1. */
			if (errno || end == arg || *end || !o->seed ||
			    !isdigit((unsigned char)*arg))
				return uerr_set(e, EXIT_USAGE,
						"--shuffle=%s: give a seed, a whole number above 0",
						arg);
		}
		return 0;
	case O_RERUN_FAILED:
		o->rerun_failed = true;
		return 0;
	case O_SHARD:
		o->shard = arg;
		return 0;
	case O_DURATIONS:
		o->durations = arg;
		return 0;
	case O_OUTPUT:
		o->output = arg;
		return 0;
	case O_JSON:
		if (arg && o->cmd != CMD_KUNIT)
			return uerr_set(e, EXIT_USAGE, "--json takes no value here ('%s')", arg);
		if (arg && !*arg)
			return uerr_set(e, EXIT_USAGE, "--json=FILE: the file name is empty");
		o->json = true;
		o->json_file = arg;
		return 0;
	case O_FILTER_ACTION:
		if (strcmp(arg, "skip"))
			return uerr_set(e, EXIT_USAGE,
					"--filter_action=%s: the one action is skip (kunit.py's "
					"choice; without it filtered tests do not run)",
					arg);
		o->filter_action = arg;
		return 0;
	case O_KERNEL_ARGS:
		if (!kernel_args_ok(arg))
			return uerr_set(e, EXIT_USAGE,
					"--kernel_args=%s: want kernel parameters separated by "
					"blanks, without quotes or control characters",
					arg);
		push(&o->kernel_args, &o->nkernel_args, arg);
		return 0;
	case O_KCONFIG_ADD:
		if (!kconfig_line_ok(arg))
			return uerr_set(e, EXIT_USAGE,
					"--kconfig_add=%s: want one option as a kunitconfig line, "
					"CONFIG_NAME=VALUE or '# CONFIG_NAME is not set'",
					arg);
		push(&o->kconfig_adds, &o->nkconfig_adds, arg);
		return 0;
	case O_RUN_ISOLATED:
		if (strcmp(arg, "suite") && strcmp(arg, "test"))
			return uerr_set(e, EXIT_USAGE,
					"--run_isolated=%s: use suite or test (one boot each)",
					arg);
		o->run_isolated = arg;
		return 0;
	case O_LIST_SUITES:
		o->list_suites = true;
		return 0;
	case O_LIST_ATTR:
		o->list_attr = true;
		return 0;
	case O_RAW_OUTPUT:
		/* kunit.py: a bare --raw_output is kunit's lines only. */
		if (arg && strcmp(arg, "all") && strcmp(arg, "full") && strcmp(arg, "kunit"))
			return uerr_set(e, EXIT_USAGE,
					"--raw_output=%s: use all (or full: the whole console) or "
					"kunit (KUnit's lines only, the default)",
					arg);
		o->raw_output = arg ? arg : "kunit";
		return 0;
	case O_SUMMARY:
		o->summary = true;
		return 0;
	case O_FAILED:
		o->failed = true;
		return 0;
	case O_BUILD_ONLY:
		o->build_only = true;
		return 0;
	case O_NO_BUILD:
		o->no_build = true;
		return 0;
	case O_OPTIONS:
		o->options_list = true;
		return 0;
	case O_ARCH:
		if (strcmp(arg, "um"))
			return uerr_set(e, EXIT_USAGE,
					"--arch=%s: umlrun runs User-Mode Linux only (--arch=um); "
					"for another architecture use kunit.py with QEMU",
					arg);
		return 0;
	default:
		return parse_number(o, c, arg, e);
	}
}

/* umlrun kunit's options, together. */
static int kunit_combination(struct opts *o, struct uerr *e)
{
	int lists = o->list + o->list_suites + o->list_attr;
	_cleanup_free_ char *filter = NULL;

	if (lists > 1)
		return uerr_set(e, EXIT_USAGE,
				"kunit: --list (--list_tests), --list_suites and --list_tests_attr "
				"each print a list; give one");
	if (o->build_only && o->no_build)
		return uerr_set(e, EXIT_USAGE,
				"kunit: --build-only builds and runs nothing, --no-build runs and "
				"builds nothing; give one");
	if (o->build_only && (lists || o->run_isolated || o->json || o->raw_output || o->summary ||
			      o->failed || o->nargs))
		return uerr_set(
		    e, EXIT_USAGE,
		    "kunit: --build-only boots nothing: no GLOB, list, --run_isolated or "
		    "output option with it");
	if (o->raw_output && (o->json || o->summary || o->failed))
		return uerr_set(
		    e, EXIT_USAGE,
		    "kunit: --raw_output prints the console unparsed: --json, --summary "
		    "and --failed have nothing to work on (as under kunit.py)");
	if (o->summary && o->failed)
		return uerr_set(e, EXIT_USAGE,
				"kunit: --summary prints no test, --failed the failed ones; give "
				"one");
	if (lists && o->run_isolated)
		return uerr_set(e, EXIT_USAGE,
				"kunit: a list runs nothing: not with --run_isolated");
	if (o->jobs && o->make_jobs)
		return uerr_set(e, EXIT_USAGE,
				"kunit: --jobs is kunit.py's name for --make-jobs; give one");
	if (o->timeout && o->wall_timeout)
		return uerr_set(e, EXIT_USAGE,
				"kunit: --timeout is kunit.py's name for --wall-timeout; give one");
	if (o->nfilters && !(filter = kunit_filter_param(o->filters, o->nfilters)))
		return uerr_set(e, EXIT_USAGE,
				"kunit: --filter='%s': want ATTR OP VALUE filters separated by "
				"commas, e.g. 'speed>slow, module=example' (OP: < > <= >= != =)",
				o->filters[o->nfilters - 1]);
	if (o->filter_action && !o->nfilters)
		return uerr_set(e, EXIT_USAGE,
				"kunit: --filter_action=skip skips what --filter leaves out; give "
				"--filter too");
	/* The .gcda files stay in the guest's folder, which goes with the stage. */
	if (o->profile && profile_find(o->profile)->gcov)
		return uerr_set(
		    e, EXIT_USAGE,
		    "kunit: --profile=%s: kunit keeps no coverage counters ('umlrun run "
		    "--profile=%s' reports them); give another profile",
		    o->profile, o->profile);
	return 0;
}

/* What must hold once every option is read. */
static int check_combination(struct opts *o, const struct command_desc *d, struct uerr *e)
{
	if (o->options_list && o->nargs != 1)
		return uerr_set(e, EXIT_USAGE, "help --options: name one command");
	if (o->cmd == CMD_EXEC && o->nargs == 0)
		return uerr_set(e, EXIT_USAGE,
				"exec: no command given; use 'umlrun exec -- COMMAND [ARG...]'");
	if ((o->cmd == CMD_BUILD || o->cmd == CMD_SHELL || o->cmd == CMD_DOCTOR) && o->nargs > 0)
		return uerr_set(e, EXIT_USAGE,
				"%s: unexpected argument '%s'; see 'umlrun %s --help'", d->name,
				o->args[0], d->name);
	if (o->cmd == CMD_HWSIM && !o->hostap)
		return uerr_set(e, EXIT_USAGE,
				"hwsim: no hostap tree given; use 'umlrun hwsim --hostap=TREE' "
				"with a hostap checkout");
	if (o->check_determinism && o->repeat < 2)
		return uerr_set(e, EXIT_USAGE,
				"--check-determinism needs --repeat=N with N of 2 or more");
	if (o->seeds && (o->repeat > 1 || o->random_seed))
		return uerr_set(e, EXIT_USAGE,
				"--seeds runs each test once per seed: not with --repeat or "
				"--random-seed");
	if (o->nplains && o->suite_dir)
		return uerr_set(e, EXIT_USAGE,
				"--plain and --suite-dir both name the suites; give one");
	if (o->ngdb_guest_sources && !o->gdb_guest)
		return uerr_set(e, EXIT_USAGE,
				"--gdb-guest-source names sources for --gdb-guest's gdb: give "
				"--gdb-guest too");
	if (o->gdb && o->gdb_guest)
		return uerr_set(e, EXIT_USAGE,
				"--gdb debugs the kernel, --gdb-guest a guest program: give one");
	/* gdbserver misreads registers under UML's seccomp userspace (session.c). */
	if (o->gdb_guest && o->seccomp && !strcmp(o->seccomp, "on"))
		return uerr_set(e, EXIT_USAGE,
				"--gdb-guest needs UML's ptrace userspace: gdbserver misreads a "
				"guest program's registers under --seccomp=on (use auto or off)");
	if (o->gdb && o->cmd == CMD_RUN && (o->jobs > 1 || o->repeat > 1 || o->seeds || o->retry))
		return uerr_set(
		    e, EXIT_USAGE,
		    "--gdb debugs one guest: not with -j, --repeat, --seeds or --retry");
	if (o->cmd == CMD_KUNIT && kunit_combination(o, e) < 0)
		return -1;
	if (o->cmd == CMD_KUNIT && o->nargs > 1)
		return uerr_set(
		    e, EXIT_USAGE,
		    "kunit: one GLOB only (e.g. 'time_test*' or 'kunit*.example*'); see "
		    "'umlrun kunit --help'");
	if (o->kernel && o->kernel_src)
		return uerr_set(
		    e, EXIT_USAGE,
		    "--kernel and --kernel-src both name the kernel's source; give one");
	if (o->cmd == CMD_MERGE && (!o->output || o->nargs == 0))
		return uerr_set(e, EXIT_USAGE,
				"merge: give --output=DIR and the shards' run folders; see 'umlrun "
				"merge --help'");
	if (o->nargs > 0 && (o->cmd == CMD_BUILD || o->cmd == CMD_PRUNE || o->cmd == CMD_DOCTOR ||
			     o->cmd == CMD_SHELL))
		return uerr_set(e, EXIT_USAGE,
				"%s takes no arguments, not '%s'; see 'umlrun %s --help'",
				o->cmd_name, o->args[0], o->cmd_name);
	if (o->rerun_failed && o->nargs > 0)
		return uerr_set(e, EXIT_USAGE,
				"--rerun-failed picks the tests itself; give no SUITE or TEST");
	if (o->cmd == CMD_COMPARE && o->mode == TT_OFF)
		return uerr_set(e, EXIT_USAGE,
				"compare: --time-travel=off is what it compares against; choose "
				"basic or inf-cpu");
	return 0;
}

int opts_parse(int argc, char **argv, struct opts *o, struct uerr *e)
{
	const struct command_desc *d;
	char **av = argv + 1;
	int c;
	int li = 0;

	memset(o, 0, sizeof(*o));
	o->mode = TT_DEFAULT;
	o->repeat = 1;
	if (argc < 2)
		return uerr_set(e, EXIT_USAGE, "no command given; see 'umlrun --help'");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		o->cmd = CMD_HELP;
		return 0;
	}
	o->cmd = command_lookup(argv[1]);
	if (o->cmd == CMD_NONE)
		return uerr_set(e, EXIT_USAGE, "unknown command '%s'; see 'umlrun --help'",
				argv[1]);
	d = desc_of(o->cmd);
	o->cmd_name = d->name;
	/* 0: glibc starts afresh, ordering mode too (opts_parse may run again). */
	optind = 0;
	opterr = 0;
	/*
	 * "+" for exec: stop at the first non-option, so its command keeps
	 * its own options. Every other command takes its options before or
	 * after its operands (umlrun run wireless -j2).
	 */
	long_opts_make();
	while ((c = getopt_long(argc - 1, av, o->cmd == CMD_EXEC ? "+hvqj:" : "hvqj:", long_opts,
				&li)) != -1) {
		/* The option as the user would name it, whatever form was used. */
		char name[64];
		const char *this = name;

		if (c >= 256)
			snprintf(name, sizeof(name), "--%s", long_opts[li].name);
		else if (c == '?' || c == ':')
			this = av[optind - 1];
		else
			snprintf(name, sizeof(name), "-%c", c);

		if (c == '?' || c == ':') {
			/* --help=x: getopt names it by its short letter, -h. */
			if (this && !strncmp(this, "--", 2) && strchr(this, '='))
				return uerr_set(e, EXIT_USAGE,
						"%s: %s: unknown option, or one that takes no "
						"value; see 'umlrun %s --help'",
						d->name, this, d->name);
			/* --jobs with no value: getopt names it by its short letter, -j. */
			if (optopt && optopt < 256 && !(this && !strncmp(this, "--", 2)))
				return uerr_set(
				    e, EXIT_USAGE,
				    "%s: unknown option -%c or missing value; see 'umlrun "
				    "%s --help'",
				    d->name, optopt, d->name);
			return uerr_set(e, EXIT_USAGE,
					"%s: unknown option %s or missing value; see 'umlrun %s "
					"--help'",
					d->name, this, d->name);
		}
		if (!(option_row(c, li)->cmds & (1u << o->cmd)))
			return uerr_set(e, EXIT_USAGE,
					"%s: option %s does not apply; see 'umlrun %s --help'",
					d->name, this, d->name);
		if (parse_option(o, c, this, optarg, e) < 0)
			return -1;
	}
	o->opt_words = av + 1;
	o->nopt_words = optind - 1;
	o->args = av + optind;
	o->nargs = argc - 1 - optind;
	if (o->help)
		return 0;
	return check_combination(o, d, e);
}

void opts_free(struct opts *o)
{
	free(o->configs);
	free(o->overlays);
	free(o->mounts);
	free(o->plains);
	free(o->kunitconfigs);
	o->kunitconfigs = NULL;
	free(o->modules);
	o->modules = NULL;
	free(o->filters);
	free(o->excludes);
	free(o->kernel_args);
	free(o->kconfig_adds);
	o->kernel_args = o->kconfig_adds = NULL;
	free(o->trace_events);
	free(o->kprobe_events);
	o->trace_events = o->kprobe_events = NULL;
	o->configs = o->overlays = o->filters = o->excludes = o->mounts = o->plains = NULL;
}
