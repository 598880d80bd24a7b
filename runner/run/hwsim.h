/* SPDX-License-Identifier: MIT */
/*
 * hwsim.h - hostap's own tests/hwsim suite as a umlrun suite.
 *
 * `umlrun hwsim --hostap=TREE [CASE|PREFIX*]...` runs the cases of a hostap
 * tree's tests/hwsim with the tree's own run-tests.py, start.sh and
 * stop.sh, in guests of a kernel and a root folder of their own
 * (uml-config/hwsim/hwsim.config, rootfs/manifest.hwsim). The cases are
 * what run-tests.py would import: every `def test_NAME(` of every
 * tests/hwsim/test_MODULE.py, the case NAME of module MODULE:
 *
 *	struct hwsim_list all, sel;
 *	hwsim_list_read(tree, &all, &e);
 *	hwsim_select(&all, args, nargs, modules, nmodules, &sel, &e); // exit 2
 *	hwsim_suite_write(suites, &sel, &(struct hwsim_layout){ ... }, &e);
 *
 * hwsim_suite_write writes SUITES/hwsim/: a `settings` file and one test
 * file per batch of cases, tNNNN-MODULE[-K].sh, which sources
 * testsuites/lib/hwsim.sh and names its cases; each case is one KTAP
 * result of its file, so the reports list every case. A batch holds the
 * cases of one module in the order run-tests.py lists them (a module's
 * cases share their setup and their order dependencies), at most
 * hwsim_batch_size of them; small modules share a batch.
 *
 * Parsing and writing never print or exit.
 */
#ifndef UMLRUN_HWSIM_H
#define UMLRUN_HWSIM_H

#include <stdint.h>

#include "ktap.h"
#include "record.h"
#include "suite.h"
#include "util.h"

/* The suite's folder name in the generated suites, and the ids' prefix. */
#define HWSIM_SUITE "hwsim"
/*
 * Cases a test file runs: a guest's start-up (its python3 imports every
 * module, start.sh starts ten daemons: about 5.5 s of a CPU on an AMD
 * EPYC VM, the cost of HWSIM_SETUP_CASES cases) is paid once for them,
 * and the batches must still spread over the guests (hwsim_batch_size),
 * within these bounds.
 */
#define HWSIM_SETUP_CASES 8
#define HWSIM_BATCH_MIN	  10
#define HWSIM_BATCH_MAX	  150
/* Where the guest finds the tree and the built programs (--mount paths). */
#define HWSIM_GUEST_TREE  "/mnt/hostap"
#define HWSIM_GUEST_BUILD "/mnt/hostap-build"
/*
 * A test file's limits (its settings): a day of simulated time (a case
 * that waits idle for ever reaches it in seconds of wall time); memory:
 * run-tests.py was killed for it at 256M when a *_lifetime_in_memory case
 * came late in a guest.
 */
#define HWSIM_TIMEOUT 86400
#define HWSIM_MEM     "512M"
/* Wall seconds a guest may take to start before its first case counts. */
#define HWSIM_SETUP_WALL 120
/*
 * After each case's result the limit starts again with this many wall
 * seconds: a case that spins (simulated time stands still under inf-cpu)
 * ends its guest in this long, not in the batch's whole limit.
 */
#define HWSIM_CASE_WALL_TIMEOUT 180
/* hostap's start: radios=7 channels=1 support_p2p_device=0 (vm/inside.sh). */
#define HWSIM_RADIOS_DEFAULT 7

struct hwsim_case {
	char *module; /* ap_open, of test_ap_open.py */
	char *name;   /* ap_open_unknown_action, run-tests.py's name */
};

struct hwsim_list {
	struct hwsim_case *v;
	size_t n;
	/*
	 * A module imports pycryptodome as Crypto with no fallback to
	 * Cryptodome (hostap before 2023), the one name Debian's package has.
	 */
	bool crypto_alias;
};

/* Every case of TREE's tests/hwsim, modules in name order, cases in file order. */
int hwsim_list_read(const char *tree, struct hwsim_list *out, struct uerr *e);
/*
 * The cases of one module's text (a test_MODULE.py), appended to out; sets
 * out->crypto_alias if it needs it.
 */
void hwsim_list_parse(const char *module, const char *text, struct hwsim_list *out);
/*
 * The cases args name (a case, or a prefix ending in '*', as run-tests.py
 * takes them) and those of the modules (run-tests.py's -f), in the order
 * given, each once; none of either: every case. A name that matches
 * nothing, an unknown module, a module with no case: exit 2.
 */
int hwsim_select(const struct hwsim_list *all, char *const *args, size_t nargs,
		 char *const *modules, size_t nmodules, struct hwsim_list *out, struct uerr *e);

struct hwsim_layout {
	int radios;
	size_t batch;	     /* the most cases a test file holds (hwsim_batch_size) */
	long timeout;	     /* simulated seconds per test file */
	double wall_timeout; /* wall seconds per test file */
	const char *mem;
	bool crypto_alias; /* the guests' python finds Cryptodome as Crypto too */
};

/* Writes SUITES/hwsim/ for the cases in sel (see above). */
int hwsim_suite_write(const char *suites, const struct hwsim_list *sel,
		      const struct hwsim_layout *l, struct uerr *e);
/* The most cases a batch holds, for n cases over jobs guests. */
size_t hwsim_batch_size(size_t n, int jobs);
/*
 * The batches hwsim_suite_write makes of sel, at most max cases each: *n
 * files, starts[i] their first case.
 */
void hwsim_batches(const struct hwsim_list *sel, size_t max, size_t **starts, size_t *n);
/*
 * The file name of batch b of those (tNNNN-MODULE.sh, tNNNN-MODULE-K.sh
 * when the module is split), as hwsim_suite_write names it. Allocated.
 */
char *hwsim_batch_file(const struct hwsim_list *sel, const size_t *starts, size_t nb, size_t b);

/* A batch of the failed cases of another, run again alone: tNNNN-...-retry.sh. */
#define HWSIM_RETRY_SUFFIX "-retry"
/* The hex digits of a follow-up's hash in the name it is staged as. */
#define HWSIM_STAGED_HASH 8

/*
 * What follows a batch that did not pass (sched_opts.follow_up), written
 * in both dirs (the generated suite's folder and the stage's copy of it):
 * - timed out or crashed part way: the case it was in becomes a failed
 *   result of k, and the cases after it a test file of their own,
 *   tNNNN-MODULE[-K]-after-CASE.sh;
 * - ended part way otherwise (run-tests.py stopped; the guest failed the
 *   case it stopped in), once a case reported: the cases left, the same
 *   way, named after the last case reported;
 * - with retry, its failed cases (not that one) again, in a fresh guest:
 *   tNNNN-...-retry.sh (a retry's own failures are not retried).
 * Those are their ids and folders; the guest runs each as NAME.HASH.sh
 * (test.staged_id; NAME without .sh), HASH the first HWSIM_STAGED_HASH
 * hex digits of the SHA-256 of its content: the runs of a batch (--seeds,
 * --repeat) may fail different cases, and each run's retry must read its
 * own run's, whichever run ends first, under the name a replay of that
 * run gives it (the command line seeds the guest's random pool). Returns
 * those tests (allocated, NULL-terminated).
 */
const struct test **hwsim_follow_up(const char *const dirs[2], const struct test *t, enum verdict v,
				    struct ktap *k, bool retry);
/*
 * A batch whose failed cases all passed in its retry (the retry of the
 * same run: same attempt, so the same seed) is flaky (never a plain
 * pass), the reason naming them; the retry keeps its own result.
 */
void hwsim_flaky(struct record *rec, size_t n);

/*
 * The guest clock's start for TREE: the suite's EAP cases need its test
 * certificates (tests/hwsim/auth_serv: ca.pem, server.pem, user.pem)
 * valid, and a tree's are valid a year from when they were last made. The
 * midnight (UTC) that follows a full day of validity of all three, so the
 * same tree starts at the same second on every run. No certificate: exit 2.
 */
int hwsim_start_of(const char *tree, int64_t *secs, struct uerr *e);

void hwsim_list_free(struct hwsim_list *l);

#endif
