/* SPDX-License-Identifier: MIT */
/*
 * prune.h - remove what the cache holds and nobody uses.
 *
 * Every change of a kernel fragment, a package or a guest helper leaves a
 * new kernels/KEY or rootfs/KEY behind the old one. cache_prune removes
 * those the current inputs do not select, sparing anything used in the
 * last PRUNE_MIN_AGE seconds (umlrun touches an entry whenever it uses it:
 * another umlrun may be about to stage it) and builds in progress (it
 * takes the cache lock; a root folder being assembled is KEY.tmp-PID.nsINODE of a
 * live PID). builds/ and src/ stay: they make the next build incremental.
 */
#ifndef UMLRUN_PRUNE_H
#define UMLRUN_PRUNE_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "util.h"

#define PRUNE_MIN_AGE 3600

struct prune_opts {
	const char *cache;	 /* the cache folder */
	const char *const *keep; /* full paths never removed */
	size_t nkeep;
	time_t now;   /* entries used after now - PRUNE_MIN_AGE stay */
	bool dry_run; /* say what would go, remove nothing */
};

/* One line per entry removed (or that would be) on out, then the total. */
int cache_prune(const struct prune_opts *o, FILE *out, struct uerr *e);

#endif
