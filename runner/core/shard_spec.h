/* SPDX-License-Identifier: MIT */
/*
 * shard_spec.h - a shard's K/N, as `umlrun run --shard` takes it and as a
 * shard's results.json records it ("shard"), which `umlrun merge` reads
 * back. Which tests a shard runs is shard.h's.
 */
#ifndef UMLRUN_SHARD_SPEC_H
#define UMLRUN_SHARD_SPEC_H

#include "util.h"

#define SHARD_MAX 1000

/* "K/N" with 1 <= K <= N <= SHARD_MAX; else EXIT_USAGE, one line. */
int shard_parse(const char *s, int *k, int *n, struct uerr *e);

#endif
