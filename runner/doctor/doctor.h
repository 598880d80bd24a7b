/* SPDX-License-Identifier: MIT */
/*
 * doctor.h - what the host must offer umlrun, checked one thing at a time.
 *
 * `umlrun doctor` runs doctor_run() and prints one line per result; the
 * checks never print or exit. A FAIL stops umlrun from running a guest
 * (and says how to fix it); a WARN is something umlrun works around or
 * that costs time (no Landlock, little disk, the kernel not built yet).
 *
 * The Debian packages come from the project's debian-packages file, the
 * list tests/deps.sh installs: "NAME PURPOSE" lines, # comments. The
 * "check" ones (for the project's own tests) are not checked here.
 */
#ifndef UMLRUN_DOCTOR_H
#define UMLRUN_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util.h"

/* A kernel build takes about 1.5 GB; below this the cache folder warns. */
#define DOCTOR_DISK_MIN (5ULL << 30)

enum doctor_level {
	DOCTOR_OK,
	DOCTOR_WARN,
	DOCTOR_FAIL,
};

struct doctor_result {
	enum doctor_level level;
	char *what;   /* "ptrace of child processes", "Landlock ABI 7" */
	char *detail; /* why and how to fix it; NULL when ok */
};

struct doctor_report {
	struct doctor_result *v;
	size_t n;
};

struct doctor_input {
	const char *packages_file; /* debian-packages */
	const char *tmpdir;	   /* $TMPDIR, NULL or "" for /tmp */
	const char *cache_dir;	   /* $XDG_CACHE_HOME/umlrun */
	const char *cache_error;   /* why it must not be used (util.h cache_problem), or NULL */
	const char *kernel_name;   /* "6.1": for the messages */
	const char *kernel_dir;	   /* kernels/KEY of the default kernel, or NULL */
	const char *kernel_error;  /* why kernel_dir is NULL */
	bool checkout;		   /* umlrun runs from a checkout (make builds it here) */
	bool as_root;		   /* the guest then runs as guest_uid:guest_gid */
	uid_t guest_uid;
	gid_t guest_gid;
};

/* Every check, in the order printed; r is filled, never NULL entries. */
void doctor_run(const struct doctor_input *in, struct doctor_report *r);
void doctor_report_free(struct doctor_report *r);
/* EXIT_PASS when no result is DOCTOR_FAIL, else EXIT_INFRA. */
int doctor_exit_code(const struct doctor_report *r);
/* "ok  ", "warn" or "FAIL": the same width, so the names line up. */
const char *doctor_level_name(enum doctor_level l);

/* The pure parts, for the unit tests. */

/*
 * The package names of a debian-packages text, NULL-terminated, less those
 * whose purpose is one of the space-separated words of skip ("build check").
 */
char **doctor_packages_parse(const char *text, const char *skip);
/*
 * The packages of one kind ("hwsim") a debian-packages text lists that are
 * not installed, "a b c", or NULL when none is missing.
 */
char *doctor_kind_missing(const char *text, const char *kind);
/*
 * Which of names the dpkg-query output ("NAME STATUS" lines, STATUS as
 * ${db:Status-Abbrev}) does not show installed ("ii"): "a b", or NULL.
 */
char *doctor_packages_missing(char *const *names, const char *dpkg_output);
/* The disk check's result for free_bytes free in dir. */
void doctor_disk_result(struct doctor_report *r, const char *dir, unsigned long long free_bytes);
/* Appends one result (what and detail are copied; detail may be NULL). */
void doctor_add(struct doctor_report *r, enum doctor_level l, const char *what, const char *detail);

#endif
