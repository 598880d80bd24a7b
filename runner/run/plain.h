/* SPDX-License-Identifier: MIT */
/*
 * plain.h - a folder of plain executables run as a suite (--plain=DIR).
 *
 * Scripts and programs people already have follow the kselftest
 * convention: exit 0 passed, 4 skipped, anything else failed. plain_make
 * writes, for each folder DIR, a suite NAME (DIR's last component) into a
 * new folder of generated suites: one small test file per executable of
 * DIR (tNNNN-PROG.sh, in name order), which runs PROG from PLAIN_GUEST/NAME
 * (where the caller mounts DIR read-only), sends its output to the console
 * and reports one KTAP result from its exit status. The machinery then runs
 * them like any suite: KTAP, JUnit, HTML, -j, --shard, --retry, --filter.
 */
#ifndef UMLRUN_PLAIN_H
#define UMLRUN_PLAIN_H

#include "util.h"

/* Where the guest finds folder NAME. */
#define PLAIN_GUEST "/plain"

struct plain_dir {
	char *host; /* resolved */
	char *name; /* the suite's name, and the folder under PLAIN_GUEST */
};

/*
 * Makes *suites (a new folder under TMPDIR, named like a stage so that a
 * SIGKILLed umlrun's leftover is swept) and fills dirs[0..n) from the
 * folders given. A folder that is missing or holds no executable, two
 * folders with one name, or an executable whose name holds anything but
 * ASCII letters, digits and '.', '_', '+', '-' (it reaches every KTAP
 * result line and the generated script), exit 2 before anything is written.
 */
int plain_make(char *const *given, size_t n, char **suites, struct plain_dir **dirs,
	       struct uerr *e);
void plain_free(char *suites, struct plain_dir *dirs, size_t n);

#endif
