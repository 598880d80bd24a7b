/* SPDX-License-Identifier: MIT */
/*
 * suite.h - find test files and their suites' settings.
 *
 * A suite is a folder testsuites/SUITE holding executable test files named
 * tNNNN-name.sh and an optional `settings` file of key=value lines
 * (kselftest style): timeout= (simulated seconds per test file),
 * wall_timeout= (wall seconds), mem= (guest memory), cmdline= (extra kernel
 * parameters). testsuites/lib holds shared shell code, not tests.
 */
#ifndef UMLRUN_SUITE_H
#define UMLRUN_SUITE_H

#include "util.h"

struct test {
	char *suite;
	char *file; /* tNNNN-name.sh */
	char *id;   /* SUITE/tNNNN-name.sh */
	long timeout;
	double wall_timeout;
	char *mem;
	char *cmdline;
};

struct test_list {
	struct test *v;
	size_t n;
};

/* args: SUITE, SUITE/TEST, SUITE/TEST.sh; none means every suite. */
int suites_find(const char *dir, char *const *args, int nargs, struct test_list *out,
		struct uerr *e);
int settings_parse(const char *text, const char *file, struct test *defaults, struct uerr *e);
void tests_free(struct test_list *l);

#endif
