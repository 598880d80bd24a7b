// SPDX-License-Identifier: MIT
/*
 * cmd_merge.c - umlrun merge: the run folders of --shard runs merged into
 * one (merge.h), which exits as the merged run would.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "commands.h"
#include "merge.h"
#include "results_read.h"
#include "supervise.h"

int cmd_merge(const struct opts *o)
{
	struct uerr e;

	struct loaded_run merged;
	int code;

	/* A signal stops the merge between two test folders, its half-made folder gone. */
	supervise_block_signals();
	if (merge_runs(o->args, (size_t)o->nargs, o->output, &e) < 0 ||
	    results_load(o->output, &merged, &e) < 0)
		uerr_die(&e);
	printf("# merged %d shard runs into %s: %zu test files\n", o->nargs, o->output, merged.n);
	/* The merged run's verdict, so a CI merge job fails when a shard did. */
	code = merged.info.exit_code;
	results_free(&merged);
	return code;
}
