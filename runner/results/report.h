/* SPDX-License-Identifier: MIT */
/*
 * report.h - a run's results folder and its reports.
 *
 *   RESULTS/run-YYYYmmddTHHMMSSZ[-N]/      one per `umlrun run`
 *     ktap.txt results.json junit.xml
 *     SUITE/TEST[.K]/console.log ktap.log cmdline.txt artifacts/
 *   RESULTS/latest -> run-...               the newest run
 *
 * results.json and junit.xml are written when the run ends, also when it
 * ends early (a signal or a crash): every test already run is in them.
 * Both are valid UTF-8 whatever a guest printed (a byte that is not UTF-8
 * becomes U+FFFD); junit.xml is valid XML 1.0 too: a character XML 1.0
 * does not allow (a C0 control other than tab, LF, CR; U+FFFE; U+FFFF)
 * becomes U+FFFD, and tab, LF, CR are written &#9; &#10; &#13;.
 */
#ifndef UMLRUN_REPORT_H
#define UMLRUN_REPORT_H

#include <stdio.h>

#include "record.h"

/* run_info.selection of a --rerun-failed run: what failed before, no shard's share. */
#define SELECTION_RERUN "rerun"

struct run_info {
	const char *mode;
	bool has_start;
	long long start;
	const char *kernel;
	const char *kernel_key;
	const char *cmdline_example;
	const char *shard;     /* "K/N" when this run was one shard of a suite */
	char *const *overlays; /* --overlay folders, in order */
	size_t noverlays;
	long long seed;		    /* --shuffle seed, 0 for none */
	long long random_seed;	    /* the guest's (--random-seed) */
	const char *confinement;    /* confine_describe(): "landlock-v7+mount-ns", "none" */
	const char *kernel_release; /* "6.12.118" */
	const char *userspace;	    /* how UML runs guest processes: "ptrace" or "seccomp" */
	const char *host_cpu;	    /* host_cpu_describe(): "AMD EPYC, 2 CPUs" */
	const char *cpu_cost;	    /* --cpu-cost as given ("2000,jitter=50"), or NULL */
	const char
	    *selection; /* --shard: "N:HASH" of the test files split, SELECTION_RERUN, or NULL */
	double wall_seconds;
	int exit_code;
	/* Test ids the run was to run and never started (interrupted, failed). */
	char *const *not_run;
	size_t nnot_run;
};

/*
 * Creates the run folder and points latest at it. A latest link that
 * cannot be made is no failure: e->msg says why (empty otherwise).
 */
int run_dir_create(const char *results, char **run_dir, struct uerr *e);
int report_write_json(const char *path, const struct run_info *ri, const struct record *r, size_t n,
		      struct uerr *e);
int report_write_junit(const char *path, const struct run_info *ri, const struct record *r,
		       size_t n, struct uerr *e);

#endif
