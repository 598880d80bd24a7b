// SPDX-License-Identifier: MIT
/* options.c - commands, their options and usage text. */
#define _GNU_SOURCE
#include "options.h"
#include "kernel_cache.h"
#include "kunit.h"
#include "profile.h"
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
	O_END /* not an option: one past the last */
};

/*
 * Every option once: its name, whether it takes a value, what parse_option
 * knows it by, and the commands that take it (a bit per command). getopt's
 * table is made from it (long_opts), and opts_parse refuses an option the
 * command is not among. Several names may share an id (kunit.py's).
 */
#define C(cmd) (1u << CMD_##cmd)
/* Commands that build a kernel; that boot a guest; that select test files; that run them. */
#define KERNEL_CMDS                                                                                \
	(C(BUILD) | C(RUN) | C(EXEC) | C(SHELL) | C(COMPARE) | C(PRUNE) | C(KSELFTEST) |           \
	 C(KUNIT) | C(HWSIM))
#define BOOT_CMDS   (C(RUN) | C(EXEC) | C(SHELL) | C(COMPARE) | C(KSELFTEST) | C(HWSIM))
#define SELECT_CMDS (C(RUN) | C(LIST) | C(COMPARE) | C(KSELFTEST) | C(HWSIM))
#define SUITE_CMDS  (C(RUN) | C(KSELFTEST) | C(HWSIM))
_Static_assert(CMD_COUNT <= 32, "the commands outgrew the options' bitmask");

static const struct option_row {
	const char *name;
	int has_arg;
	int id;
	unsigned cmds;
} options[] = {
	{ "help", no_argument, O_HELP, 0 },
	{ "verbose", no_argument, O_VERBOSE, SUITE_CMDS | C(KUNIT) },
	{ "quiet", no_argument, O_QUIET, SUITE_CMDS | C(KUNIT) },
	{ "jobs", required_argument, O_JOBS, SUITE_CMDS | C(COMPARE) | C(KUNIT) },
	{ "time-travel", required_argument, O_TT, BOOT_CMDS | C(KUNIT) },
	{ "start", required_argument, O_START, BOOT_CMDS | C(KUNIT) },
	{ "mem", required_argument, O_MEM, BOOT_CMDS | C(KUNIT) },
	{ "results", required_argument, O_RESULTS, SELECT_CMDS | C(KUNIT) },
	{ "kernel-src", required_argument, O_KSRC, KERNEL_CMDS | C(DOCTOR) },
	{ "kernel", required_argument, O_KERNEL, KERNEL_CMDS | C(DOCTOR) },
	{ "seccomp", required_argument, O_SECCOMP, BOOT_CMDS | C(KUNIT) },
	{ "kunitconfig", required_argument, O_KUNITCONFIG, C(KUNIT) },
	{ "mount", required_argument, O_MOUNT, BOOT_CMDS },
	{ "plain", required_argument, O_PLAIN, C(RUN) | C(LIST) | C(COMPARE) },
	{ "seeds", required_argument, O_SEEDS, SUITE_CMDS },
	{ "trace-event", required_argument, O_TRACE_EVENT, BOOT_CMDS },
	{ "kprobe-event", required_argument, O_KPROBE_EVENT, BOOT_CMDS },
	{ "profile", required_argument, O_PROFILE, KERNEL_CMDS },
	{ "gdb", optional_argument, O_GDB, C(RUN) | C(EXEC) | C(SHELL) },
	{ "gdb-guest", optional_argument, O_GDB_GUEST, C(EXEC) },
	{ "cpu-cost", required_argument, O_CPU_COST, BOOT_CMDS },
	{ "hostap", required_argument, O_HOSTAP, C(HWSIM) },
	{ "module", required_argument, O_MODULE, C(HWSIM) },
	{ "tshark", no_argument, O_TSHARK, C(HWSIM) },
	{ "gdb-guest-source", required_argument, O_GDB_GUEST_SOURCE, C(EXEC) },
	{ "config", required_argument, O_CONFIG, KERNEL_CMDS },
	{ "make-jobs", required_argument, O_MAKE_JOBS, KERNEL_CMDS },
	{ "timeout", required_argument, O_TIMEOUT, SUITE_CMDS | C(EXEC) | C(COMPARE) | C(KUNIT) },
	{ "wall-timeout", required_argument, O_WALL_TIMEOUT,
	  SUITE_CMDS | C(EXEC) | C(COMPARE) | C(KUNIT) },
	{ "repeat", required_argument, O_REPEAT, SUITE_CMDS },
	{ "check-determinism", no_argument, O_DETERMINISM, SUITE_CMDS },
	{ "suite-dir", required_argument, O_SUITE_DIR,
	  C(RUN) | C(EXEC) | C(SHELL) | C(LIST) | C(COMPARE) },
	{ "retry", required_argument, O_RETRY, SUITE_CMDS },
	{ "filter", required_argument, O_FILTER, SELECT_CMDS | C(KUNIT) },
	{ "exclude", required_argument, O_EXCLUDE, SELECT_CMDS },
	{ "list", no_argument, O_LIST, SUITE_CMDS | C(KUNIT) },
	{ "shuffle", optional_argument, O_SHUFFLE, SELECT_CMDS },
	{ "rerun-failed", no_argument, O_RERUN_FAILED, C(RUN) | C(LIST) | C(COMPARE) | C(HWSIM) },
	{ "shard", required_argument, O_SHARD, SELECT_CMDS },
	{ "durations", required_argument, O_DURATIONS, SELECT_CMDS },
	{ "output", required_argument, O_OUTPUT, C(MERGE) },
	{ "sample", required_argument, O_SAMPLE, C(COMPARE) },
	{ "json", optional_argument, O_JSON, C(COMPARE) | C(KUNIT) },
	{ "filter_action", required_argument, O_FILTER_ACTION, C(KUNIT) },
	{ "kernel_args", required_argument, O_KERNEL_ARGS, C(KUNIT) },
	{ "kconfig_add", required_argument, O_KCONFIG_ADD, C(KUNIT) },
	{ "run_isolated", required_argument, O_RUN_ISOLATED, C(KUNIT) },
	{ "list_tests", no_argument, O_LIST, SUITE_CMDS | C(KUNIT) },
	{ "list_suites", no_argument, O_LIST_SUITES, C(KUNIT) },
	{ "list_tests_attr", no_argument, O_LIST_ATTR, C(KUNIT) },
	{ "raw_output", optional_argument, O_RAW_OUTPUT, C(KUNIT) },
	{ "summary", no_argument, O_SUMMARY, C(KUNIT) },
	{ "failed", no_argument, O_FAILED, C(KUNIT) },
	{ "build-only", no_argument, O_BUILD_ONLY, C(KUNIT) },
	{ "no-build", no_argument, O_NO_BUILD, C(KUNIT) },
	{ "arch", required_argument, O_ARCH, C(KUNIT) },
	{ "build_dir", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "make_options", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "alltests", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "cross_compile", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "qemu_config", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "qemu_args", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "junit", optional_argument, O_KUNITPY_REFUSED, C(KUNIT) },
	{ "overlay", required_argument, O_OVERLAY, BOOT_CMDS },
	{ "trace", no_argument, O_TRACE, SUITE_CMDS },
	{ "immediate", no_argument, O_IMMEDIATE, SUITE_CMDS },
	{ "run", required_argument, O_RUN_LIST, SUITE_CMDS },
	{ "random-seed", required_argument, O_RANDOM_SEED, BOOT_CMDS | C(KUNIT) },
	{ "dry-run", no_argument, O_DRY_RUN, C(PRUNE) },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))
static struct option long_opts[N_OPTIONS + 1];

/* getopt's table, from options[] (once). */
static void long_opts_make(void)
{
	if (long_opts[0].name)
		return;
	for (size_t i = 0; i < N_OPTIONS; i++)
		long_opts[i] =
		    (struct option){ options[i].name, options[i].has_arg, NULL, options[i].id };
}

/* The row of what getopt_long returned: by li for a long option, else by its letter. */
static const struct option_row *option_row(int c, int li)
{
	if (c >= 256)
		return &options[li];
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (options[i].id == c)
			return &options[i];
	return NULL;
}

#define GDB_HELP                                                                                   \
	"  --gdb[=FILE]           the guest kernel under the host's gdb, paused before\n"          \
	"                         init (simulated time stands still while stopped);\n"             \
	"                         with FILE, gdb runs its commands in batch mode\n"

#define BOOT_HELP                                                                                  \
	"  --time-travel=MODE     off, basic or inf-cpu (default inf-cpu)\n"                       \
	"  --start=WHEN           guest clock at boot: Unix seconds, ISO-8601 or 'now'\n"          \
	"                         (default 2024-01-01T00:00:00Z under time travel)\n"              \
	"  --mem=SIZE             guest memory, 32M to the host's RAM (default 256M, or\n"         \
	"                         the suite's mem=)\n"                                             \
	"  --suite-dir=DIR        suites from DIR instead of the project's testsuites/\n"          \
	"                         (with the project's lib/ files, harness.sh among them,\n"        \
	"                         added to its lib/)\n"                                            \
	"  --overlay=DIR          lay DIR over the guest's root, e.g. your own build as\n"         \
	"                         DIR/usr/sbin/hostapd (with the libraries it needs);\n"           \
	"                         repeatable\n"                                                    \
	"  --mount=HOST[:GUEST][:rw]  the host folder HOST at GUEST in the guest (default\n"       \
	"                         /mnt/NAME), read-only unless :rw; repeatable\n"                  \
	"  --random-seed=N        the guest's random numbers come from N (default 0:\n"            \
	"                         the same in every run); 'random' picks one and prints it\n"      \
	"  --seccomp=WHEN         UML's seccomp userspace (kernels from 6.16): auto (when\n"       \
	"                         the kernel has it), on or off (ptrace, as 6.1 always is)\n"      \
	"  --cpu-cost=NS[,jitter=PCT]  in inf-cpu, each guest system call takes NS\n"              \
	"                         simulated ns, varied by up to PCT % from the random\n"           \
	"                         seed: seeded schedules for races (docs/timers.md)\n"             \
	"  --kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --make-jobs=N,\n"                \
	"  --profile=NAME         the kernel, as for 'umlrun build'\n"                             \
	"  --trace-event=LIST     trace these kernel events from boot (the kernel's\n"             \
	"                         trace_event=, e.g. timer:hrtimer_start,timer:*;\n"               \
	"                         repeatable): each test's artifacts/trace.txt\n"                  \
	"  --kprobe-event=SPEC    a kprobe event from boot (kprobe_event=; needs kprobes,\n"       \
	"                         which UML lacks)\n"

#define SELECT_HELP                                                                                \
	"  --plain=DIR            run the executables in DIR as a suite: exit 0 passes,\n"         \
	"                         4 skips, else fails (repeatable; not with --suite-dir)\n"        \
	"  --filter=GLOB          only tests whose id (SUITE/tNNNN-name.sh) matches\n"             \
	"  --exclude=GLOB         not the tests whose id matches (both repeatable)\n"              \
	"  --rerun-failed         only the tests that failed in the last run\n"                    \
	"  --shard=K/N            only share K of N (for CI machines running in parallel;\n"       \
	"                         merge their results with 'umlrun merge')\n"                      \
	"  --durations=FILE       test durations (results.json or 'ID SECONDS' lines) to\n"        \
	"                         balance shards; every shard must use the same file\n"            \
	"  --shuffle[=SEED]       run in a random order; the seed is printed to replay it\n"

static const struct command_desc {
	enum command cmd;
	const char *name;
	const char *usage;
} commands[] = {
	{ CMD_BUILD, "build",
	  "Usage: umlrun build [OPTIONS]\n"
	  "Build (or find in the cache) the time-travel kernel and the guest's root folder.\n"
	  "\n"
	  "  --kernel=VERSION       Debian's linux-source-VERSION: 6.1, 6.12 or 7.2\n"
	  "                         (default " KERNEL_DEFAULT
	  "; fetched from Debian when not installed)\n"
	  "  --kernel-src=DIR       build from this kernel tree (out of tree) instead\n"
	  "                         of a Debian package\n"
	  "  --config=FRAGMENT      merge this config fragment too (repeatable)\n"
	  "  --profile=NAME         a debug kernel, cached apart: hardened, kasan, lockdep\n"
	  "                         or gcov (uml-config/profiles/NAME.config)\n"
	  "  --make-jobs=N          parallel make jobs (default: number of CPUs)\n"
	  "  -h, --help             show this help\n" },
	{ CMD_RUN, "run",
	  "Usage: umlrun run [OPTIONS] [SUITE | SUITE/TEST ...]\n"
	  "Run test files, each in its own guest, and report KTAP on stdout.\n"
	  "With no argument, every suite runs.\n"
	  "\n" BOOT_HELP "  --results=DIR          where run folders go (default ./results)\n"
	  "  -j, --jobs=N           guests at once (default: number of CPUs)\n"
	  "  --timeout=SECONDS      simulated-time limit per test file (default: the\n"
	  "                         suite's settings, else 600)\n"
	  "  --wall-timeout=SECONDS wall-clock limit per test file (default: the\n"
	  "                         suite's settings, else 120); with time travel off\n"
	  "                         or basic, at least the time limit + 30\n"
	  "  --repeat=N             run each test file N times\n"
	  "  --check-determinism    with --repeat: fail if the guest's output differs\n"
	  "                         between runs, showing the first difference\n"
	  "  --seeds=A-B            run each test file once per guest random seed A..B (in\n"
	  "                         parallel guests), list the seeds that fail and print\n"
	  "                         the command that replays the first\n"
	  "  --retry=N              run a failing test again up to N times; one that then\n"
	  "                         passes is reported flaky\n" SELECT_HELP
	  "  --list                 print the selected tests and run nothing\n"
	  "  -q, --quiet            print only each test file's result line (ktap.txt\n"
	  "                         keeps every test's lines)\n"
	  "  -v, --verbose          copy each guest's console to stderr (with -j, each\n"
	  "                         line tagged [SUITE/TEST])\n"
	  "  --trace                trace the test bodies (the harness's -x, set -x) into\n"
	  "                         each console.log; with -v, live\n"
	  "  --immediate            stop a test file at its first failing test (-i)\n"
	  "  --run=LIST             only these tests of each file, e.g. 1,3-4 (the\n"
	  "                         harness's --run); the others are reported skipped\n" GDB_HELP
	  "  -h, --help             show this help\n"
	  "\n"
	  "Exit status: 0 all passed, 1 a test failed, 2 usage, 3 infrastructure\n"
	  "(build, boot, crash), 124 timeout, 128+N umlrun killed by signal N.\n" },
	{ CMD_EXEC, "exec",
	  "Usage: umlrun exec [OPTIONS] -- COMMAND [ARG...]\n"
	  "Run one command in a guest under time travel, streaming its output, and\n"
	  "exit with its status.\n"
	  "\n" BOOT_HELP "  --timeout=SECONDS      simulated-time limit (default 600)\n"
	  "  --wall-timeout=SECONDS wall-clock limit (default 120); with time travel off\n"
	  "                         or basic, at least the time limit + 30\n" GDB_HELP
	  "  --gdb-guest[=FILE]     COMMAND under gdbserver in the guest, the host's gdb\n"
	  "                         on it over a serial line (time travel off unless\n"
	  "                         --time-travel); with FILE, gdb's commands in batch\n"
	  "                         mode\n"
	  "  --gdb-guest-source=DIR gdb may read the program's source files in DIR (and\n"
	  "                         looks there); repeatable\n"
	  "  -h, --help             show this help\n" },
	{ CMD_SHELL, "shell",
	  "Usage: umlrun shell [OPTIONS]\n"
	  "Boot the test guest with an interactive shell on this terminal (in\n"
	  "/suite, with the suites read-only); 'exit' powers it off.\n"
	  "\n" BOOT_HELP GDB_HELP "  -h, --help             show this help\n" },
	{ CMD_LIST, "list",
	  "Usage: umlrun list [OPTIONS] [SUITE ...]\n"
	  "List the test files (all suites by default), as 'run' would select them.\n"
	  "\n"
	  "  --suite-dir=DIR        suites from DIR instead of the project's\n" SELECT_HELP
	  "  --results=DIR          where --rerun-failed finds the last run (default\n"
	  "                         ./results)\n"
	  "  -h, --help             show this help\n" },
	{ CMD_MERGE, "merge",
	  "Usage: umlrun merge --output=DIR RUN_DIR...\n"
	  "Merge the run folders of the shards of one run (umlrun run --shard=K/N)\n"
	  "into one results.json, junit.xml, ktap.txt and report.html in DIR. Fails\n"
	  "if a shard is missing or two shards ran the same test.\n"
	  "\n"
	  "  --output=DIR           where the merged results go (must not exist)\n"
	  "  -h, --help             show this help\n" },
	{ CMD_COMPARE, "compare",
	  "Usage: umlrun compare [OPTIONS] [SUITE | SUITE/TEST ...]\n"
	  "Run the tests with time travel off and in the chosen mode, in one go, and\n"
	  "print per test and in total: simulated seconds, wall seconds each way and\n"
	  "their ratio.\n"
	  "\n" BOOT_HELP "  -j, --jobs=N           guests at once (default: number of CPUs)\n"
	  "  --sample=N             only N of the tests (a fixed choice, by id)\n"
	  "  --json                 print JSON instead of a table\n"
	  "  --results=DIR          where the two run folders go (default ./results)\n"
	  "  --timeout, --wall-timeout   as for 'umlrun run'\n"
	  "  -h, --help             show this help\n" },
	{ CMD_PRUNE, "prune",
	  "Usage: umlrun prune [OPTIONS]\n"
	  "Remove the cached kernels and root folders that the current inputs (the\n"
	  "project's fragments and packages, and these options) do not select. What\n"
	  "was used in the last hour stays: another umlrun may be using it.\n"
	  "\n"
	  "  --kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --profile=NAME\n"
	  "                         the kernel to keep, as for 'umlrun build'\n"
	  "  --dry-run              say what would be removed, remove nothing\n"
	  "  -h, --help             show this help\n" },
	{ CMD_DOCTOR, "doctor",
	  "Usage: umlrun doctor [OPTIONS]\n"
	  "Check what this host must offer umlrun: the Debian packages, ptrace,\n"
	  "/dev/shm, seccomp, Landlock, namespaces, TMPDIR, free disk in the cache\n"
	  "and whether the kernel is built. One line per check: 'ok', 'warn' (umlrun\n"
	  "works, maybe slower or less confined) or 'FAIL' with how to fix it.\n"
	  "\n"
	  "  --kernel=VERSION, --kernel-src=DIR   the kernel to look for, as for\n"
	  "                         'umlrun build'\n"
	  "  -h, --help             show this help\n"
	  "\n"
	  "Environment: UMLRUN_PACKAGES=FILE checks the packages FILE lists instead\n"
	  "of the project's debian-packages.\n"
	  "Exit status: 0 nothing failed, 3 a check failed.\n" },
	{ CMD_KSELFTEST, "kselftest",
	  "Usage: umlrun kselftest [OPTIONS] [TARGET...]\n"
	  "Build the kernel's own selftests of TARGET (default timers; a folder of\n"
	  "tools/testing/selftests in the kernel source the guest kernel comes from),\n"
	  "static, once (cached), and run each program as a test file of the suite\n"
	  "kselftest-TARGET, as 'umlrun run' runs suites. A program that cannot run in\n"
	  "a UML guest under time travel is reported skipped, with the reason\n"
	  "(docs/kselftest.md).\n"
	  "\n"
	  "  Every option of 'umlrun run' but --suite-dir, --plain and --rerun-failed,\n"
	  "  e.g. -j2, --filter='*/t*-leap-a-day.sh', --retry=N, --repeat=N\n"
	  "  --check-determinism, --shard=K/N, --list, --time-travel=off (real time:\n"
	  "  of the programs that poll the clock, only the short runs), --kernel-src=DIR\n"
	  "  -h, --help             show this help\n"
	  "\n"
	  "Exit status: as 'umlrun run'; 2 for an unknown TARGET, 3 for one that does\n"
	  "not build.\n" },
	{ CMD_KUNIT, "kunit",
	  "Usage: umlrun kunit [OPTIONS] [GLOB]\n"
	  "Build a kernel with KUnit and the kunitconfig (cached, like 'umlrun build'),\n"
	  "boot it once under time travel and report each KUnit suite as a test file\n"
	  "kunit/SUITE, its cases as subtests, as 'umlrun run' reports: KTAP on stdout,\n"
	  "a results folder, the same exit status (docs/kunit.md). GLOB selects suites,\n"
	  "or SUITE.CASE, as kunit.py's filter_glob (the kernel's kunit.filter_glob=).\n"
	  "kunit.py's options keep their names and meaning (docs/kunit.md has a table).\n"
	  "\n"
	  "  --kunitconfig=FILE|DIR the tests to build, as kunit.py takes it: a DIR means\n"
	  "                         DIR/.kunitconfig; looked up here, then in the kernel\n"
	  "                         tree (e.g. lib/kunit), then in umlrun's folder\n"
	  "                         (uml-config/kunit/...); repeatable (default: the\n"
	  "                         tree's tools/testing/kunit/configs/default.config)\n"
	  "  --kconfig_add=CONFIG_X=Y  one more kunitconfig line (repeatable; another\n"
	  "                         kernel, built once)\n"
	  "  --filter=ATTRS         only tests whose attributes match, e.g. 'speed>slow'\n"
	  "                         or 'speed>slow, module=example' (kunit.filter=)\n"
	  "  --filter_action=skip   report the filtered tests skipped instead\n"
	  "  --kernel_args=ARGS     more kernel parameters, after umlrun's (repeatable)\n"
	  "  --run_isolated=suite|test  one boot per suite, or per test\n"
	  "  --list, --list_tests   print the selected SUITE.CASE names (one boot), run\n"
	  "                         nothing\n"
	  "  --list_suites          print the selected suites' names\n"
	  "  --list_tests_attr      print the selected tests with their attributes\n"
	  "  --build-only           build the kernel (kunit.py build) and boot nothing\n"
	  "  --no-build             run the kernel these options built before (kunit.py\n"
	  "                         exec); exit 2 if there is none\n"
	  "  --raw_output[=kunit|all]  print the console's KUnit lines (all: the whole\n"
	  "                         console) instead of umlrun's KTAP\n"
	  "  --json[=FILE]          print kunit.py's JSON of the results (to FILE)\n"
	  "  --summary              print only the summary lines\n"
	  "  --failed               print only failed suites' lines, and the summary\n"
	  "  --time-travel=MODE     off, basic or inf-cpu (default inf-cpu)\n"
	  "  --start=WHEN           guest clock at boot, as for 'umlrun run'\n"
	  "  --mem=SIZE             guest memory, 32M to the host's RAM (default 1G, as\n"
	  "                         kunit.py)\n"
	  "  --random-seed=N        the guest's random numbers come from N (default 0)\n"
	  "  --seccomp=WHEN         UML's seccomp userspace: auto, on or off\n"
	  "  --wall-timeout=SECONDS, --timeout=SECONDS\n"
	  "                         wall-clock limit of a boot (default 300, as kunit.py)\n"
	  "  --results=DIR          where run folders go (default ./results)\n"
	  "  --kernel=VERSION, --kernel-src=DIR, --config=FRAGMENT, --make-jobs=N\n"
	  "                         the kernel, as for 'umlrun build'\n"
	  "  -j, --jobs=N           --make-jobs, as kunit.py names it\n"
	  "  --arch=um              accepted (User-Mode Linux is all umlrun runs)\n"
	  "  -q, --quiet            print only each suite's result line\n"
	  "  -v, --verbose          copy the guest's console to stderr\n"
	  "  -h, --help             show this help\n"
	  "\n"
	  "Exit status: as 'umlrun run'; 2 for a missing kunitconfig, an option of it\n"
	  "that the kernel does not keep, or a GLOB that selects no suite.\n" },
	{ CMD_HWSIM, "hwsim",
	  "Usage: umlrun hwsim --hostap=TREE [OPTIONS] [CASE|PREFIX*...]\n"
	  "Run hostap's own tests/hwsim suite of TREE, unchanged: build its programs\n"
	  "with the suite's example configs (cached by the tree's C sources), boot\n"
	  "guests of a kernel and root folder of their own (python3 and what the cases\n"
	  "need), start the daemons with the tree's start.sh and run the cases with its\n"
	  "run-tests.py, 10 to 150 cases a guest, -j guests at once. Each case is one\n"
	  "KTAP result; a guest stuck in a case is stopped, the case failed, and the\n"
	  "cases after it go on in a fresh guest (docs/hwsim.md).\n"
	  "\n"
	  "  --hostap=TREE          the hostap checkout (required; never written to)\n"
	  "  --module=MODULE        the cases of tests/hwsim/test_MODULE.py, as\n"
	  "                         run-tests.py -f; repeatable\n"
	  "  CASE, PREFIX*          cases by name (default: every case)\n"
	  "  --list                 print the selected cases (MODULE CASE), run nothing\n"
	  "  --tshark               Debian's tshark in the guests' root (a root of its\n"
	  "                         own, about 150 MB more): the cases that read their\n"
	  "                         captures with it run instead of skipping\n"
	  "  --start=WHEN           guest clock at boot (default: the midnight after a\n"
	  "                         day of the tree's test certificates' validity)\n"
	  "  --wall-timeout=SECONDS wall-clock limit of one case (default 180)\n"
	  "  --mem=SIZE             guest memory (default 512M)\n"
	  "  -j, --jobs=N           guests at once (default: one per CPU)\n"
	  "  --retry=N, --repeat=N, --check-determinism, --shard=K/N, --filter=GLOB,\n"
	  "  --time-travel=MODE, --random-seed=N, --results=DIR, -q, -v\n"
	  "                         as for 'umlrun run', by test file (a batch)\n"
	  "  -h, --help             show this help\n"
	  "\n"
	  "Environment: UMLRUN_PACKAGES=FILE checks the packages FILE lists instead\n"
	  "of the project's debian-packages (its hwsim ones; with --tshark its tshark).\n"
	  "Exit status: as 'umlrun run'; 2 for a TREE that is not hostap, an unknown\n"
	  "case or module; 3 for a tree that does not build or packages missing.\n" },
	{ CMD_HELP, "help",
	  "Usage: umlrun help [COMMAND]\n"
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

const char *command_usage(enum command c)
{
	const struct command_desc *d = desc_of(c);

	return d ? d->usage : main_usage;
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
	return 0;
}

/* What must hold once every option is read. */
static int check_combination(struct opts *o, const struct command_desc *d, struct uerr *e)
{
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
	o->mode = TT_INF_CPU;
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
			if (optopt && optopt < 256)
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
		if (c != O_HELP && !(option_row(c, li)->cmds & (1u << o->cmd)))
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
