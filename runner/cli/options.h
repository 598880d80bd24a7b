/* SPDX-License-Identifier: MIT */
/*
 * options.h - the command line: `umlrun COMMAND [OPTIONS] [ARGS]`.
 * Parsing never prints or exits; the command layer does (exit 2 on bad
 * usage, with a one-line hint).
 */
#ifndef UMLRUN_OPTIONS_H
#define UMLRUN_OPTIONS_H

#include "boot.h"
#include "util.h"

/*
 * Every command, once: X(ID, name) makes CMD_ID here, its handler cmd_name
 * in umlrun.c's dispatch and, checked at compile time, one entry in
 * options.c's table (name, options, help).
 */
#define UMLRUN_COMMANDS(X)                                                                         \
	X(BUILD, build)                                                                            \
	X(RUN, run)                                                                                \
	X(EXEC, exec)                                                                              \
	X(SHELL, shell)                                                                            \
	X(LIST, list)                                                                              \
	X(MERGE, merge)                                                                            \
	X(COMPARE, compare)                                                                        \
	X(PRUNE, prune)                                                                            \
	X(DOCTOR, doctor)                                                                          \
	X(KSELFTEST, kselftest)                                                                    \
	X(KUNIT, kunit)                                                                            \
	X(HWSIM, hwsim)                                                                            \
	X(HELP, help)

/* The time-travel mode unless --time-travel says, and its name (tt_mode_name). */
#define TT_DEFAULT	TT_INF_CPU
#define TT_DEFAULT_NAME "inf-cpu"

/* The most --gdb-guest-source folders. */
#define GDB_GUEST_SOURCES_MAX 8

#define UMLRUN_COMMAND_ENUM(id, name) CMD_##id,
enum command { CMD_NONE, UMLRUN_COMMANDS(UMLRUN_COMMAND_ENUM) CMD_COUNT };
#undef UMLRUN_COMMAND_ENUM

struct opts {
	enum command cmd;
	const char *cmd_name;
	bool help;
	enum tt_mode mode;
	bool mode_given;   /* --time-travel was on the command line */
	const char *start; /* --start, as given */
	const char *mem;
	const char *results_dir;
	const char *suite_dir; /* --suite-dir: suites outside the project */
	const char *kernel_src;
	const char *kernel;  /* --kernel=VERSION (kernel_version_find) */
	const char *seccomp; /* --seccomp: auto (NULL), on or off */
	long cpu_cost_ns;    /* --cpu-cost: simulated ns per guest system call, 0 for none */
	int cpu_cost_jitter; /* its jitter=, percent */
	char **configs;
	size_t nconfigs;
	char **kunitconfigs; /* kunit --kunitconfig FILE|DIRs, in order */
	size_t nkunitconfigs;
	const char *hostap; /* hwsim --hostap=TREE */
	char **modules;	    /* hwsim --module=MODULEs (run-tests.py's -f), in order */
	size_t nmodules;
	bool tshark;	 /* hwsim --tshark: tshark in the guests' root */
	char **overlays; /* --overlay DIRs, in order */
	size_t noverlays;
	char **mounts; /* --mount HOST[:GUEST][:rw], as given */
	size_t nmounts;
	char **plains; /* --plain DIRs: folders of plain executables */
	size_t nplains;
	int make_jobs;
	int jobs;	     /* -j: guests at once; 0 means one per CPU */
	long timeout;	     /* --timeout: simulated seconds, overrides settings */
	double wall_timeout; /* --wall-timeout, overrides settings */
	int repeat;
	int retry;
	bool check_determinism;
	bool verbose, quiet;
	bool trace, immediate;	 /* the harness's -x and -i, for every test file */
	const char *run_list;	 /* --run: the harness's --run=LIST, as given */
	bool dry_run;		 /* prune --dry-run */
	const char *random_seed; /* --random-seed: a number or "random", as given */
	char **trace_events;	 /* --trace-event LISTs, as given (the kernel's trace_event=) */
	size_t ntrace_events;
	char **kprobe_events; /* --kprobe-event SPECs (the kernel's kprobe_event=) */
	size_t nkprobe_events;
	const char *profile;	      /* --profile=NAME: a debug kernel (profile.h) */
	bool gdb;		      /* --gdb[=FILE]: the kernel under the host's gdb */
	const char *gdb_script;	      /* --gdb=FILE: gdb's commands, in batch mode */
	bool gdb_guest;		      /* --gdb-guest[=FILE]: exec's command under gdbserver */
	const char *gdb_guest_script; /* --gdb-guest=FILE: gdb's commands, in batch mode */
	/* --gdb-guest-source=DIR: source folders gdb may read */
	const char *gdb_guest_sources[GDB_GUEST_SOURCES_MAX];
	int ngdb_guest_sources;
	bool seeds; /* --seeds=A-B: one run per guest random seed */
	unsigned long long seeds_from, seeds_to;
	char **filters, **excludes; /* --filter/--exclude GLOBs */
	size_t nfilters, nexcludes;
	bool list;		 /* --list: print the selected tests, run nothing */
	bool shuffle;		 /* --shuffle[=SEED] */
	unsigned long long seed; /* 0: pick one */
	bool rerun_failed;
	const char *shard; /* --shard K/N, as given */
	const char *durations;
	const char *output;    /* merge --output */
	int sample;	       /* compare --sample N */
	bool json;	       /* compare --json; kunit --json[=FILE] */
	const char *json_file; /* kunit --json=FILE (NULL or "stdout": stdout) */
	/* kunit: kunit.py's options (docs/kunit.md) */
	const char *filter_action; /* --filter_action=skip */
	char **kernel_args;	   /* --kernel_args, in order */
	size_t nkernel_args;
	char **kconfig_adds; /* --kconfig_add CONFIG_X=Y lines */
	size_t nkconfig_adds;
	const char *run_isolated; /* --run_isolated=suite|test */
	bool list_suites, list_attr;
	const char *raw_output; /* --raw_output[=all|full|kunit] */
	bool summary, failed;
	bool build_only, no_build; /* kunit.py's build and exec steps */
	bool options_list;	   /* help --options: a command's options (command_options) */
	char **args;		   /* tests (run), the command (exec), folders (merge) */
	char **opt_words;	   /* the options as given (before the arguments) */
	int nopt_words;
	int nargs;
};

int opts_parse(int argc, char **argv, struct opts *o, struct uerr *e);
/*
 * Word i of o->opt_words, the options as given: *name the long name of its
 * option, whatever form was used ("jobs" for -j2, "seeds" for --see=1-2;
 * NULL for "--" or a cluster of short ones, -qv), *value its value (NULL:
 * none); returns how many words it takes, 2 when the value is the next
 * one (--shard 1/2, -j 2).
 */
int opt_word(const struct opts *o, int i, const char **name, const char **value);
void opts_free(struct opts *o);
enum command command_lookup(const char *name);
/*
 * The usage text of a command (or of umlrun as a whole for CMD_NONE): the
 * command's own lines around those of the options it takes (options.c).
 */
const char *command_usage(enum command c);
/*
 * help --options CMD: the options command c takes, from the rows, one a
 * line in the rows' order: "--name", "--name=" when it needs a value (an
 * optional one, --shuffle[=SEED], is not marked), then " -x" for its
 * letter ("--jobs= -j"). Not those taken only to be refused, kunit.py's
 * (UNSAID): the options c acts on, which its help says. For the bash
 * completion and make man-check, which follow the rows with it.
 */
const char *command_options(enum command c);
/*
 * The options' table, for the tests: row i's long name ("" for a line of
 * help only; NULL past the last row) and short letter (0: none), whether
 * command c takes it, and whether c's --help is to name it (on its own
 * line or on another's; not when UNSAID or in the command's own words).
 */
const char *option_name(size_t i, int *letter);
bool option_takes(size_t i, enum command c);
bool option_said(size_t i, enum command c);

#endif
