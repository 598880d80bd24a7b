/* SPDX-License-Identifier: MIT */
/*
 * shard.h - split one suite run across CI machines, and remember how long
 * each test takes.
 *
 * `umlrun run --shard K/N` runs only the tests of shard K; `umlrun merge`
 * joins the N run folders afterwards (merge.h). The machines never talk
 * to each other, so every one must compute the same split on its own:
 * shard_select depends only on the test ids, the durations and N, never
 * on the order tests are given in, the time, the host or a random seed.
 *
 * How a test finds its shard:
 *
 *   no duration known   rendezvous hashing: the shard s with the highest
 *                       hash(id, s) (FNV-1a of the id, then a 64-bit mix
 *                       with s). A test's shard depends on its id and N
 *                       alone, so adding or removing a test never moves
 *                       another one; shards are balanced by count only,
 *                       statistically.
 *   duration known      longest-processing-time greedy: tests sorted by
 *                       (duration descending, id), each given to the shard
 *                       with the least load so far (the lowest number on a
 *                       tie). The longest shard is then at most the mean
 *                       plus the longest test, but a test's shard depends
 *                       on every other known test: a new durations file,
 *                       or a new test, may move tests between shards.
 *
 * With a durations file, tests missing from it (new tests) are still
 * hashed, so they do not move the others around; each counts towards its
 * shard's load as the mean of the known durations, so the greedy pass
 * balances around them. Every shard must be given the same durations
 * file: that is what lets them agree (the CI job should pass one artifact,
 * not each machine's own cache).
 *
 * Durations come from a results.json (a test's wall_seconds; the mean of
 * its attempts; interrupted attempts are left out) or from text lines
 * "TEST-ID SECONDS" ('#' starts a comment line). umlrun also keeps its own
 * in $XDG_CACHE_HOME/umlrun/durations, an exponential average over runs,
 * to start the longest tests first (durations_order); that cache is
 * advisory, so reading it never fails on a bad line.
 */
#ifndef UMLRUN_SHARD_H
#define UMLRUN_SHARD_H

#include <stdbool.h>

#include "record.h"
#include "shard_spec.h"

struct duration {
	char *id;
	double seconds;
	int samples; /* how many values the mean was taken over */
};

/* Sorted by id, one entry per id. A zeroed struct is an empty set. */
struct durations {
	struct duration *v;
	size_t n;
};

/*
 * path is a results.json, a run folder holding one, or a text file of
 * "TEST-ID SECONDS" lines. A missing file or a bad line: EXIT_USAGE.
 */
int durations_load(const char *path, struct durations *d, struct uerr *e);
/* The id's seconds, or fallback when d is NULL or does not know it. */
double durations_get(const struct durations *d, const char *id, double fallback);
void durations_free(struct durations *d);

/*
 * keep[i] = tests[i] is in shard k of nshards, 1 <= k <= nshards (as
 * shard_parse gives them). Every test is in exactly one shard. d may be
 * NULL: no durations.
 */
void shard_select(const struct test *tests, size_t n, const struct durations *d, int k, int nshards,
		  bool *keep);

/* $XDG_CACHE_HOME/umlrun/durations (or ~/.cache/...). */
char *durations_cache_path(void);
/*
 * The cache: a missing file is an empty set, bad lines are skipped; -1
 * (EXIT_INFRA) only when the file exists but cannot be read.
 */
int durations_cache_load(const char *cache_file, struct durations *d, struct uerr *e);
/*
 * Folds a run's wall seconds into the cache: per test the mean of this
 * run's attempts (interrupted ones left out), averaged half and half with
 * the value already cached. Creates the folder; writes atomically.
 */
int durations_record(const char *cache_file, const struct record *r, size_t n, struct uerr *e);
/*
 * Longest first, for the queue: known tests by duration descending, tests
 * with no duration before all of them (they may be long; now we learn),
 * ties in the order given.
 */
void durations_order(struct test *tests, size_t n, const struct durations *d);

#endif
