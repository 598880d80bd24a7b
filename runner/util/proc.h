/* SPDX-License-Identifier: MIT */
/*
 * proc.h - child processes: run_argv, run_argv_watched, capture_argv, the
 * ending signals, job control, scratch folders of helpers.
 */
#ifndef UMLRUN_UTIL_PROC_H
#define UMLRUN_UTIL_PROC_H

#include <stdbool.h>

/*
 * Run argv, waiting for it. Its stdout and stderr go to log_fd when it is
 * not -1. Returns the wait status, or -errno if it could not start.
 */
int run_argv(char *const argv[], int log_fd);
/*
 * Run argv with its stdin from /dev/null and its stdout and stderr into
 * log_fd (-1: nowhere), a line at a time: on_line (if set) sees each line of its output
 * as it comes, and tick (if set) runs after each read, for progress lines.
 * in_child (if set) runs in the child before exec. Returns the wait
 * status, or -errno if it could not start.
 */
struct run_watch {
	void (*on_line)(void *ctx, const char *line);
	void (*tick)(void *ctx);
	void (*in_child)(void);
	void *ctx;
};
int run_argv_watched(char *const argv[], int log_fd, const struct run_watch *w);
/* The first line of `gcc --version` ("unknown" if none): build caches key on it. */
char *compiler_version(void);
/* Run argv and return its stdout (NULL on failure, *status set). */
char *capture_argv(char *const argv[], int *status);
/* The signals whose default ends a process and that umlrun acts on instead (proc.c). */
#define N_ENDING_SIGNALS 12
extern const int ending_signals[N_ENDING_SIGNALS];
/*
 * Set once umlrun reads its signals itself (supervise_block_signals):
 * before, an ending signal while a helper program runs is passed to it.
 */
extern bool helpers_own_group;
/*
 * Whether a SIGTSTP would stop umlrun: its process group is not orphaned
 * (a shell of its session is there to send SIGCONT).
 */
bool job_control_stops(void);
/* What a ^Z read from the signalfd does (supervise_suspend), once a run reads its signals. */
extern void (*suspend_hook)(void);
/*
 * A folder a helper program writes (a build's scratch folder), removed if
 * an ending signal stops the helper (scratch_pop when it is done or kept).
 * At most four at once; path must live until its pop.
 */
void scratch_push(const char *path);
void scratch_pop(const char *path);

#endif
