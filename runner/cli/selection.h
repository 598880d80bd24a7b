/* SPDX-License-Identifier: MIT */
/*
 * selection.h - the tests a command works on (run, list, compare,
 * kselftest, hwsim), chosen from the session's suites by the options.
 *
 * find_tests lists the suites or tests named, less what --filter,
 * --exclude, --rerun-failed and --shard leave out, in the order --shuffle
 * gives or longest first. A choice that makes no sense (a --filter that
 * matches nothing, --rerun-failed without a last run) exits 2.
 */
#ifndef UMLRUN_SELECTION_H
#define UMLRUN_SELECTION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results_read.h"
#include "session.h"
#include "suite.h"

void find_tests(struct session *s, struct test_list *tests);
/* Keeps the tests for which keep[i] is set, in order. */
void keep_tests(struct test_list *l, const bool *keep);
/* --rerun-failed: the last run in the results folder, loaded, or exit 2. */
void load_last_run(const struct session *s, struct loaded_run *last);
/* The --shuffle seed, to replay the order: on f (stdout for run, stderr for a list). */
void print_shuffle_seed(FILE *f, uint64_t seed);
/* list, run --list: the ids, one a line; the seed on stderr, stdout is for scripts. */
void print_list(const struct session *s, const struct test_list *tests);

#endif
