// SPDX-License-Identifier: MIT
/* options.c - commands, their options and usage text. */
#define _GNU_SOURCE
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

enum {
	O_HELP = 'h',
	O_VERBOSE = 'v',
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
};

#define BIT(o) (1u << ((o) == O_HELP ? 0 : (o) == O_VERBOSE ? 1 : (o)-O_TT + 2))

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, O_HELP },
	{ "verbose", no_argument, NULL, O_VERBOSE },
	{ "time-travel", required_argument, NULL, O_TT },
	{ "start", required_argument, NULL, O_START },
	{ "mem", required_argument, NULL, O_MEM },
	{ "results", required_argument, NULL, O_RESULTS },
	{ "kernel-src", required_argument, NULL, O_KSRC },
	{ "config", required_argument, NULL, O_CONFIG },
	{ "make-jobs", required_argument, NULL, O_MAKE_JOBS },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "wall-timeout", required_argument, NULL, O_WALL_TIMEOUT },
	{ "repeat", required_argument, NULL, O_REPEAT },
	{ "check-determinism", no_argument, NULL, O_DETERMINISM },
	{ "suite-dir", required_argument, NULL, O_SUITE_DIR },
	{ 0 },
};

#define KERNEL_OPTS (BIT(O_KSRC) | BIT(O_CONFIG) | BIT(O_MAKE_JOBS))
#define BOOT_OPTS   (KERNEL_OPTS | BIT(O_TT) | BIT(O_START) | BIT(O_MEM) | BIT(O_SUITE_DIR))

static const struct command_desc {
	enum command cmd;
	const char *name;
	unsigned allowed;
	const char *usage;
} commands[] = {
	{ CMD_BUILD, "build", KERNEL_OPTS,
	  "Usage: umlrun build [OPTIONS]\n"
	  "Build (or find in the cache) the time-travel kernel and the guest's root folder.\n"
	  "\n"
	  "  --kernel-src DIR    build from this kernel tree (out of tree) instead of\n"
	  "                      Debian's linux-source-6.1\n"
	  "  --config FRAGMENT   merge this config fragment too (repeatable)\n"
	  "  --make-jobs N       parallel make jobs (default: number of CPUs)\n"
	  "  -h, --help          show this help\n" },
	{ CMD_RUN, "run",
	  BOOT_OPTS | BIT(O_RESULTS) | BIT(O_TIMEOUT) | BIT(O_WALL_TIMEOUT) | BIT(O_REPEAT) |
	      BIT(O_DETERMINISM) | BIT(O_VERBOSE),
	  "Usage: umlrun run [OPTIONS] [SUITE | SUITE/TEST ...]\n"
	  "Run test files, each in its own guest, and report KTAP on stdout.\n"
	  "With no argument, every suite under testsuites/ runs.\n"
	  "\n"
	  "  --time-travel=MODE     off, basic or inf-cpu (default inf-cpu)\n"
	  "  --start=WHEN           guest clock at boot: Unix seconds, ISO-8601 or 'now'\n"
	  "                         (default 2024-01-01T00:00:00Z under time travel)\n"
	  "  --mem=SIZE             guest memory (default 256M)\n"
	  "  --results=DIR          where run folders go (default ./results)\n"
	  "  --suite-dir=DIR        run suites from DIR instead of the project's\n"
	  "                         testsuites/ (its lib/ defaults to the project's)\n"
	  "  --timeout=SECONDS      simulated-time limit per test file (default: the\n"
	  "                         suite's settings, else 600)\n"
	  "  --wall-timeout=SECONDS wall-clock limit per test file (default: the\n"
	  "                         suite's settings, else 120)\n"
	  "  --repeat=N             run each test file N times\n"
	  "  --check-determinism    with --repeat: fail if the guest's output differs\n"
	  "                         between runs, showing the first difference\n"
	  "  -v, --verbose          copy each test's console to stderr\n"
	  "  --kernel-src, --config, --make-jobs   as for 'umlrun build'\n"
	  "  -h, --help             show this help\n"
	  "\n"
	  "Exit status: 0 all passed, 1 a test failed, 2 usage, 3 infrastructure\n"
	  "(build, boot, crash), 124 timeout, 128+N umlrun killed by signal N.\n" },
	{ CMD_EXEC, "exec", BOOT_OPTS | BIT(O_TIMEOUT) | BIT(O_WALL_TIMEOUT),
	  "Usage: umlrun exec [OPTIONS] -- COMMAND [ARG...]\n"
	  "Run one command in a guest under time travel, streaming its output, and\n"
	  "exit with its status.\n"
	  "\n"
	  "  --time-travel=MODE, --start=WHEN, --mem=SIZE   as for 'umlrun run'\n"
	  "  --timeout=SECONDS      simulated-time limit (default 600)\n"
	  "  --wall-timeout=SECONDS wall-clock limit (default 120)\n"
	  "  -h, --help             show this help\n" },
	{ CMD_SHELL, "shell", BOOT_OPTS,
	  "Usage: umlrun shell [OPTIONS]\n"
	  "Boot the test guest with an interactive shell on this terminal (in\n"
	  "/suite, with the suites read-only); 'exit' powers it off.\n"
	  "\n"
	  "  --time-travel=MODE, --start=WHEN, --mem=SIZE   as for 'umlrun run'\n"
	  "  -h, --help             show this help\n" },
	{ CMD_LIST, "list", BIT(O_SUITE_DIR),
	  "Usage: umlrun list [SUITE ...]\n"
	  "List the test files of the suites (all suites by default).\n"
	  "\n"
	  "  --suite-dir=DIR   list the suites in DIR instead of the project's\n" },
	{ CMD_HELP, "help", 0,
	  "Usage: umlrun help [COMMAND]\n"
	  "Show the help of umlrun or of one command.\n" },
};

static const char main_usage[] =
    "Usage: umlrun COMMAND [OPTIONS] [ARGS]\n"
    "Run timer-bound Linux test suites in User-Mode Linux under time travel.\n"
    "\n"
    "Commands:\n"
    "  build   build the time-travel kernel and the guest's root folder\n"
    "  run     run test suites, report KTAP, write a results folder\n"
    "  exec    run one command in a guest and exit with its status\n"
    "  shell   boot a guest with an interactive shell\n"
    "  list    list the test files\n"
    "  help    show help (also: umlrun COMMAND --help)\n"
    "\n"
    "Exit status: 0 all passed, 1 a test failed, 2 usage, 3 infrastructure,\n"
    "124 timeout, 128+N killed by signal N.\n";

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

static int parse_option(struct opts *o, int c, const char *arg, struct uerr *e)
{
	long v;

	switch (c) {
	case O_HELP:
		o->help = true;
		return 0;
	case O_VERBOSE:
		o->verbose = true;
		return 0;
	case O_TT:
		if (tt_mode_parse(arg, &o->mode) < 0)
			return uerr_set(e, EXIT_USAGE,
					"--time-travel=%s: unknown mode; use off, basic or inf-cpu",
					arg);
		return 0;
	case O_START:
		o->start = arg;
		return 0;
	case O_MEM:
		if (!*arg || strspn(arg, "0123456789") == 0 ||
		    strspn(arg + strspn(arg, "0123456789"), "KMG") !=
			strlen(arg + strspn(arg, "0123456789")))
			return uerr_set(e, EXIT_USAGE, "--mem=%s: give a size such as 256M or 1G",
					arg);
		o->mem = arg;
		return 0;
	case O_RESULTS:
		o->results_dir = arg;
		return 0;
	case O_KSRC:
		o->kernel_src = arg;
		return 0;
	case O_CONFIG:
		o->configs = xrealloc(o->configs, (o->nconfigs + 1) * sizeof(char *));
		o->configs[o->nconfigs++] = (char *)arg;
		return 0;
	case O_MAKE_JOBS:
		if (parse_long(arg, 1, 1024, &v) < 0)
			return uerr_set(e, EXIT_USAGE,
					"--make-jobs=%s: give a number from 1 to 1024", arg);
		o->make_jobs = (int)v;
		return 0;
	case O_TIMEOUT:
		if (parse_long(arg, 1, 100L * 365 * 86400, &v) < 0)
			return uerr_set(e, EXIT_USAGE,
					"--timeout=%s: give a whole number of seconds", arg);
		o->timeout = v;
		return 0;
	case O_WALL_TIMEOUT:
		if (parse_long(arg, 1, 7 * 86400, &v) < 0)
			return uerr_set(e, EXIT_USAGE,
					"--wall-timeout=%s: give a whole number of seconds", arg);
		o->wall_timeout = (double)v;
		return 0;
	case O_REPEAT:
		if (parse_long(arg, 1, 10000, &v) < 0)
			return uerr_set(e, EXIT_USAGE, "--repeat=%s: give a number from 1 to 10000",
					arg);
		o->repeat = (int)v;
		return 0;
	case O_DETERMINISM:
		o->check_determinism = true;
		return 0;
	case O_SUITE_DIR:
		o->suite_dir = arg;
		return 0;
	}
	return uerr_set(e, EXIT_USAGE, "internal: unhandled option %d", c);
}

int opts_parse(int argc, char **argv, struct opts *o, struct uerr *e)
{
	const struct command_desc *d;
	int c;

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
	optind = 1;
	opterr = 0;
	/* "+": stop at the first non-option, so exec's command keeps its own. */
	while ((c = getopt_long(argc - 1, argv + 1, "+hv", long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			const char *bad = argv[optind];

			/* argv + 1 was parsed: its optind - 1 is our optind. */

			if (optopt && optopt < 256)
				return uerr_set(e, EXIT_USAGE,
						"%s: unknown option -%c; see 'umlrun %s --help'",
						d->name, optopt, d->name);
			return uerr_set(e, EXIT_USAGE, "%s: bad option %s; see 'umlrun %s --help'",
					d->name, bad ? bad : "", d->name);
		}
		if (c != O_HELP && !(d->allowed & BIT(c)))
			return uerr_set(e, EXIT_USAGE,
					"%s: option %s does not apply; see 'umlrun %s --help'",
					d->name, argv[optind], d->name);
		if (parse_option(o, c, optarg, e) < 0)
			return -1;
	}
	o->args = argv + 1 + optind;
	o->nargs = argc - 1 - optind;
	if (o->help)
		return 0;
	if (o->cmd == CMD_EXEC && o->nargs == 0)
		return uerr_set(e, EXIT_USAGE,
				"exec: no command given; use 'umlrun exec -- COMMAND [ARG...]'");
	if ((o->cmd == CMD_BUILD || o->cmd == CMD_SHELL) && o->nargs > 0)
		return uerr_set(e, EXIT_USAGE,
				"%s: unexpected argument '%s'; see 'umlrun %s --help'", d->name,
				o->args[0], d->name);
	if (o->check_determinism && o->repeat < 2)
		return uerr_set(e, EXIT_USAGE,
				"--check-determinism needs --repeat=N with N of 2 or more");
	return 0;
}

void opts_free(struct opts *o)
{
	free(o->configs);
	o->configs = NULL;
}
