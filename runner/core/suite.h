/* SPDX-License-Identifier: MIT */
/*
 * suite.h - find test files and their suites' settings.
 *
 * A suite is a folder testsuites/SUITE holding executable test files named
 * tNNNN-name.sh and an optional `settings` file of key=value lines
 * (kselftest style): timeout= (simulated seconds per test file),
 * wall_timeout= (wall seconds), mem= (guest memory), cmdline= (extra kernel
 * parameters), shell= (sh or dash: what runs each test file). testsuites/lib
 * holds shared shell code, not tests.
 */
#ifndef UMLRUN_SUITE_H
#define UMLRUN_SUITE_H

#include "util.h"

/*
 * The one home of the per-test-file limits: the settings file and the
 * command line's --timeout, --wall-timeout and --mem check against these.
 */
#define TEST_TIMEOUT_DEFAULT	  600 /* simulated seconds */
#define TEST_WALL_TIMEOUT_DEFAULT 120 /* wall seconds */
#define TEST_TIMEOUT_MAX	  (100L * 365 * 86400)
#define TEST_WALL_TIMEOUT_MAX	  (7L * 86400)
/* shell=dash: Debian's dash, in the guest's root (rootfs/manifest). */
#define TEST_SHELL_DASH "/usr/bin/dash"

struct test {
	char *suite;
	char *file; /* tNNNN-name.sh */
	char *id;   /* SUITE/tNNNN-name.sh */
	/*
	 * What the guest runs (umlrun.test=), when not id: a file a run added,
	 * staged under a name of its own, SUITE/FILE (hwsim's retry of a
	 * batch, whose cases may differ from run to run, by its content). Its
	 * results, folder and line are id's.
	 */
	char *staged_id;
	long timeout;
	double wall_timeout;
	char *mem;
	char *cmdline;
	const char *shell; /* the guest's path of shell=dash, or NULL for /bin/sh */
};

struct test_list {
	struct test *v;
	size_t n;
};

/* args: SUITE, SUITE/TEST, SUITE/TEST.sh; none means every suite. */
int suites_find(const char *dir, char *const *args, int nargs, struct test_list *out,
		struct uerr *e);
int settings_parse(const char *text, const char *file, struct test *defaults, struct uerr *e);
/*
 * A guest memory size as the kernel's mem= reads it: a number, no leading
 * zero, at most one K, M or G.
 */
bool mem_size_valid(const char *s);
/*
 * The characters a suite folder's, a test file's or a --plain program's
 * name may hold. The name reaches the guest's kernel command line
 * (umlrun.test=SUITE/FILE, where a blank splits it into two parameters)
 * and every KTAP result line (where a newline forges a line of its own and
 * '#' starts a directive such as SKIP), so it may hold nothing that means
 * something there.
 */
#define TEST_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"
/*
 * Whether a test file's name without .sh (stem, n bytes) ends in .N or
 * .tryN: the folder a run names for another test's repeat, seed or retry
 * (t0001-a.2, t0001-a.try1), which such a test's own folder would be.
 */
bool test_stem_run_folder_like(const char *stem, size_t n);
#define TEST_NAME_RULE "may hold only ASCII letters, digits and '.', '_', '+', '-'"
bool test_name_valid(const char *s);
/*
 * Guest memory, from --mem or a suite's mem=: at least GUEST_MEM_MIN_MB
 * (17M is the least that booted a 7.2 guest running `true`, 16M panics;
 * twice that leaves room for a test), at most the host's RAM (the guest's
 * memory is a file the guest may fill: past the RAM it cannot be had).
 * The usage texts, man pages and docs/guest.md say 32M too.
 */
#define GUEST_MEM_MIN_MB 32
/* The host's RAM in bytes, 0 when unknown (then there is no maximum). */
unsigned long long guest_mem_max(void);
/*
 * 0 when SIZE (one that mem_size_valid accepts) is within the bounds, else
 * -1 with one line in e (exit 2) that starts with what, e.g. "--mem=16M"
 * or "FILE:LINE: mem=16M".
 */
int guest_mem_check(const char *what, const char *size, struct uerr *e);

void test_free(struct test *t);
void tests_free(struct test_list *l);

#endif
