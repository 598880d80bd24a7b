/* SPDX-License-Identifier: MIT */
/*
 * outcome.h - how a guest ended, and the marks on its console that say a
 * kernel crashed or reported a bug.
 *
 * guest/supervise.c fills a struct guest_outcome as it watches a guest;
 * the verdicts, the reports and the results' reader read it.
 */
#ifndef UMLRUN_OUTCOME_H
#define UMLRUN_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

enum guest_end {
	GUEST_REPORTED,	    /* init reported the job's end */
	GUEST_SIM_TIMEOUT,  /* init ended the job: simulated-time budget spent */
	GUEST_WALL_TIMEOUT, /* umlrun ended the guest: wall-clock budget spent */
	GUEST_CRASH,	    /* kernel panic/oops, or the guest died unreported */
	GUEST_KILLED,	    /* the linux process was killed by a signal */
	GUEST_INTERRUPTED,  /* umlrun itself got SIGINT/SIGTERM/SIGHUP */
	GUEST_INIT_ERROR,   /* init could not set up the job */
};

/*
 * What a test file cost: in the guest (from its kernel's counters, as init
 * reports them; -1 when it did not) and on the host (the rusage of the
 * linux process and every host process of its group: the guest's
 * processes under ptrace, UML's helpers).
 */
struct guest_cost {
	long long guest_forks, guest_page_faults;
	double host_user_seconds, host_system_seconds;
	long long host_page_faults, host_context_switches;
};

struct guest_outcome {
	enum guest_end end;
	int job_exit;	/* when end == GUEST_REPORTED and job_signal == 0 */
	int job_signal; /* the job was killed by this signal */
	double sim_seconds;
	double wall_seconds;
	int uml_status;	 /* wait status of the linux process */
	int host_signal; /* the signal umlrun received, if interrupted */
	struct guest_cost cost;
	char detail[256];
	/*
	 * The first line of a kernel debugging tool's report on the console
	 * (KASAN, lockdep...: kernel_report_mark below), or empty: it
	 * fails a test that otherwise passed.
	 */
	char kernel_report[256];
	char panic[256]; /* the console's "Kernel panic - not syncing" line, or empty */
	bool began;	 /* the init said "begin": the guest booted, whatever the test did */
	/*
	 * Episodes of the wall-clock stall breaker (the kernel's
	 * STALL_BREAKER_MARK lines): simulated time moved by the host's
	 * clock, so this result's times may differ from run to run.
	 */
	int stall_breaks;
};

#define STALL_BREAKER_MARK "time-travel: stall breaker: "
/*
 * The end of an episode. A guest with no user space (KUnit's) can stay in
 * one across many tests: each test in it is marked, not only the first.
 */
#define STALL_BREAKER_OFF_MARK "time-travel: stall breaker off: "

const char *guest_end_name(enum guest_end e);
/*
 * Where in text (len bytes) the kernel's first crash report starts (a
 * panic, an oops, a BUG), or NULL: the one list of what counts as a crash
 * on the console, for the verdict and for the report's excerpt.
 */
const char *guest_crash_mark(const char *text, size_t len);
/*
 * Where in text (len bytes) the first report of a kernel debugging tool
 * starts (KASAN, lockdep, an atomic-sleep check, UBSAN...), or NULL. Such
 * a report fails the test even when the guest carries on; its first line
 * is the reason.
 */
const char *kernel_report_mark(const char *text, size_t len);

#endif
