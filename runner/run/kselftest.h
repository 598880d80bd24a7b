/* SPDX-License-Identifier: MIT */
/*
 * kselftest.h - the kernel's own selftests as umlrun suites.
 *
 * `umlrun kselftest TARGET...` builds tools/testing/selftests/TARGET of the
 * kernel source the guest kernel was built from, with the kernel's own
 * selftests Makefile and static linking (the guest's root has no libraries
 * of the host's), and runs every program it built as one test file:
 *
 *	char *tree, *identity, *built;
 *	kselftest_source(kernel.dir, &tree, &identity, &e);
 *	kselftest_check_target(tree, "timers", &e);	// exit 2 when unknown
 *	kselftest_build(&(struct kselftest_build_opts){ tree, identity,
 *			"timers", ... }, &built, &e);	// cached, atomic
 *	kselftest_suite(suites, "timers", tree, built, TT_INF_CPU, &e);
 *
 * kselftest_suite writes SUITES/kselftest-TARGET/: the programs in bin/, a
 * `settings` file from the target's own (its timeout=, in simulated
 * seconds), and one POSIX sh test file per program, tNNNN-PROG.sh, which
 * runs it from /suite/kselftest-TARGET/bin and maps kselftest's exit
 * status (0 pass, 4 skip, anything else fail) to one KTAP result; the
 * program's own TAP becomes a subtest. The command layer then runs that
 * folder as `umlrun run --suite-dir` would.
 *
 * What cannot run in a UML guest under time travel is not dropped: its
 * test file reports `ok 1 PROG # SKIP reason`, the reason coming from the
 * one table in kselftest.c (kselftest_rule), which also holds the
 * arguments some programs need. docs/kselftest.md explains each entry.
 *
 * Cache: $XDG_CACHE_HOME/umlrun/kselftest/KEY/ holds inputs.txt, build.log
 * and programs/. KEY hashes the source identity (the kernel's inputs.txt
 * source lines), the target, the compiler's version and the build recipe.
 * It is built in KEY.tmp-PID.nsINODE and renamed into place when complete; a
 * failed build leaves only its log (KEY.failed.log).
 */
#ifndef UMLRUN_KSELFTEST_H
#define UMLRUN_KSELFTEST_H

#include "boot.h"
#include "util.h"

#define KSELFTEST_DEFAULT_TARGET "timers"
/* kselftest's own per-program limit when a target has no settings file. */
#define KSELFTEST_TIMEOUT_DEFAULT 45
/*
 * timeout=0 means "no limit" to kselftest; a guest needs one. A day of
 * simulated time costs seconds of wall time under time travel, and the
 * wall-clock limit still bounds a program that never idles.
 */
#define KSELFTEST_TIMEOUT_NONE 86400

/*
 * The kernel source tree a cached kernel was built from (kernels/KEY's
 * inputs.txt: the extracted tarball under the cache's src/, or the
 * --kernel-src tree) and the lines that identify it.
 */
int kselftest_source(const char *kernel_dir, char **tree, char **identity, struct uerr *e);

/* A target name the selftests Makefile takes, with a folder in the tree; else exit 2. */
int kselftest_check_target(const char *tree, const char *target, struct uerr *e);

struct kselftest_build_opts {
	const char *tree;
	const char *identity;
	const char *target;
	int jobs;
	bool progress; /* a terminal: one moving line */
	void (*say)(void *ctx, bool transient, const char *text);
	void *say_ctx;
};

/* *dir: the cache folder holding programs/ (built now, or found). */
int kselftest_build(const struct kselftest_build_opts *o, char **dir, bool *built, struct uerr *e);

/* Writes SUITES/kselftest-TARGET/ for the build in dir (see above). kconfig: the
 * guest kernel's .config text (NULL: unknown), for the rules that depend
 * on an option; cost: the kernel has umlrun's syscall-cost patch; breaker:
 * its stall breaker (patch 0007). */
int kselftest_suite(const char *suites, const char *target, const char *tree, const char *dir,
		    enum tt_mode mode, const char *kconfig, bool cost, bool breaker,
		    struct uerr *e);

/*
 * A new folder for the generated suites, under TMPDIR and named like a
 * stage (umlrun.XXXXXX with an owner file), so that stage_sweep removes it
 * when its umlrun was SIGKILLed.
 */
int kselftest_suites_make(char **dir, struct uerr *e);

/* "kselftest-timers": the suite's name for a target ("net/forwarding" gives net-forwarding). */
char *kselftest_suite_name(const char *target);

/* ---- the parsing parts, exposed for the unit tests ------------------ */

/* Letters, digits, '_', '-', '.', and '/' between names; no "..". */
bool kselftest_target_name_ok(const char *target);
/*
 * The simulated seconds a program may take, from the text of a target's
 * settings file (NULL: none): its timeout=, KSELFTEST_TIMEOUT_NONE for 0,
 * KSELFTEST_TIMEOUT_DEFAULT when absent; -1 when timeout= is not a number.
 */
long kselftest_timeout(const char *settings);
/*
 * The compiler's and linker's error lines in a build log, at most max of
 * them, joined with " | " (NULL when there are none).
 */
char *kselftest_error_lines(const char *log, size_t max);
/* How a program runs: what kselftest_rule fills in. */
struct ksft_how {
	const char *args;      /* its arguments, NULL for none */
	const char *script;    /* shell commands that run it instead ($prog names it) */
	unsigned long cost_ns; /* uml_syscall_cost_ns while it runs, 0 for none */
};
/*
 * Why TARGET/PROG does not run in this mode (NULL: it runs), and how it
 * runs. cost: the kernel has umlrun's syscall-cost patch (its runtime
 * knob, /sys/module/kernel/parameters/uml_syscall_cost_ns); breaker: it has
 * the stall breaker (patch 0007), under which a program that polls the
 * clock in inf-cpu moves it on by itself, and runs as written.
 */
const char *kselftest_rule(const char *target, const char *prog, enum tt_mode mode,
			   const char *kconfig, bool cost, bool breaker, struct ksft_how *how);

#endif
