/* SPDX-License-Identifier: MIT */
/*
 * supervise.h - run one guest to its end and name how it ended.
 *
 * The guest (the `linux` process and every host process UML creates for
 * it) runs in its own process group, so one kill(-pgid) ends all of it.
 * umlrun is a child subreaper, so nothing UML forks can escape being
 * reaped, and the child gets PR_SET_PDEATHSIG so a SIGKILLed umlrun does
 * not leave a guest running. A wall-clock timer bounds every guest: under
 * time-travel=inf-cpu a busy loop never advances simulated time.
 *
 * Before calling guest_run, the caller blocks SIGCHLD and the signals that
 * would end umlrun (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1...:
 * supervise_block_signals); they are read from a signalfd inside the
 * loop, so none arrives between checks unseen.
 */
#ifndef UMLRUN_SUPERVISE_H
#define UMLRUN_SUPERVISE_H

#include "boot.h"
#include "outcome.h"

struct guest_io {
	void (*out)(void *ctx, const char *data, size_t len);	  /* job stdout */
	void (*err)(void *ctx, const char *data, size_t len);	  /* job stderr */
	void (*console)(void *ctx, const char *data, size_t len); /* kernel console */
	void *ctx;
};

void supervise_block_signals(void);
/*
 * Installs the seccomp filter linux runs under: the host system calls the
 * guest's kernel may not make (keyrings, connect, sendto to an address,
 * AF_VSOCK, getrandom, other ABIs). Needs no_new_privs or CAP_SYS_ADMIN;
 * 0 or -1 with errno.
 */
int deny_host_calls(void);
/* One of those, other than SIGCHLD, that has come and waits (sigpending), or 0. */
int supervise_pending_signal(void);
/*
 * Hands the terminal (fd 0, when it is one) to the process group pgid.
 * Taking it from the background raises SIGTTOU, blocked around the call.
 */
void terminal_to(pid_t pgid);
/* wall_timeout <= 0: none. */
int guest_run(const struct guest_spec *g, const struct guest_io *io, double wall_timeout,
	      struct guest_outcome *o, struct uerr *e);

/*
 * The same, one step at a time, for running several guests at once:
 * guest_start, then in a poll loop guest_pollfds (at most GUEST_MAX_FDS)
 * and guest_handle; on SIGCHLD guest_check_exit, true once the linux
 * process is reaped; then guest_finish, which frees the guest.
 */
#define GUEST_MAX_FDS 6
struct guest;
struct pollfd;
/* argv: the command line the caller logged (guest_cmdline), taken over; NULL: made here. */
int guest_start(const struct guest_spec *g, char **argv, const struct guest_io *io,
		double wall_timeout, struct guest **out, struct uerr *e);
int guest_pollfds(const struct guest *g, struct pollfd *pf);
void guest_handle(struct guest *g, const struct pollfd *pf, int n);
bool guest_check_exit(struct guest *g);
/*
 * Whether the guest's /results (STAGE/gN/results on the host) holds more
 * than limit bytes (files by their size) or folders more than 256 levels
 * deep; the first time it does, the guest is killed and ends as a crash
 * saying so. Call it as often as you like while the guest runs: it walks
 * the folder about once a second (less often when a walk takes long).
 * Call it once more with last once the guest has ended and before
 * guest_finish: that walk always happens, and a guest over the limit has
 * its /results emptied. A test may not fill the host's disk.
 */
bool guest_results_full(struct guest *g, unsigned long long limit, bool last);
/* What one guest may leave in /results (and UML's folder), run or exec. */
#define GUEST_RESULTS_MAX_BYTES (2ULL << 30)
/*
 * The wall-clock limit starts again: seconds from now (a test file that
 * reports many results, hostap's batches, is given its limit per result).
 */
void guest_rearm(struct guest *g, double seconds);
/* umlrun got signal sig: end the guest; it will be reported interrupted. */
void guest_interrupt(struct guest *g, int sig);
/* The run itself failed (a full results disk): end the guest, reported so. */
void guest_abort(struct guest *g);
void guest_finish(struct guest *g, struct guest_outcome *o);
/* The signalfd for the signals supervise_block_signals blocked. */
int supervise_signalfd(void);
/* The next signal read from it, 0 when none is pending (a ^Z is acted on, not returned). */
int supervise_read_signal(int sfd);
/* ^Z: stops the running guests' linux and umlrun, their wall-clock limits paused. */
void supervise_suspend(void);

#endif
