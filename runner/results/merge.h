/* SPDX-License-Identifier: MIT */
/*
 * merge.h - join the run folders of the N shards of one run (`umlrun
 * merge DIR...`) into one run folder, as if one machine had run it all.
 *
 *	OUT/results.json   every shard's records, ordered by test id (then
 *	                   attempt); no "shard"; exit_code recomputed
 *	OUT/junit.xml      from the same records
 *	OUT/ktap.txt       KTAP version 1, the plan, and per test file its
 *	                   subtests (indented 4) and its top-level result
 *	OUT/report.html    the HTML report (html.h)
 *	OUT/SUITE/TEST/... every shard's test folders (retries' too), hard-linked
 *	                   (copied across filesystems): the reports' links
 *	                   work, and the logs are the shards' own files;
 *	                   regular files and folders only
 *
 * Refused (EXIT_USAGE, one line naming the folder or test), before
 * anything is written: no folder, a folder with no readable results.json,
 * one whose results.json has no "shard" (not run with --shard), shards
 * that disagree on N, a shard number missing or given twice, a test id
 * that ran in two shards, an OUT that exists and is not an empty folder.
 * Found while copying, and refused the same way: two shards with the same
 * file under their test folders, and a symbolic link anywhere below a
 * shard's folder ("DIR/SUITE/TEST is a symbolic link: merge neither
 * follows nor copies one"). No run writes a link (sched.c removes the
 * guest's), and a crafted one must not make the merge write outside OUT
 * or read a file outside the shard: below the folders given (which may
 * be links, such as results/latest), nothing is opened through a link,
 * in the shards or in OUT. A copied file keeps its permission bits, not
 * set-user-ID or set-group-ID.
 *
 * What a shard's results.json holds is read as results_read.h says: a
 * control character in a test's id, reason or subtests comes out in
 * ktap.txt, junit.xml and results.json as \xHH, as a run shows it, and
 * a number no run writes is refused.
 *
 * The shards' run information (mode, start, kernel, seed) is taken from
 * shard 1; wall_seconds is the longest shard's, since they ran side by
 * side. The exit code is exit_code_of() over the merged records, except
 * that a shard that was interrupted (exit code 128+N) gives its code to
 * the merge: its missing tests must not read as a pass.
 *
 * OUT is built in a sibling temporary folder and renamed into place at
 * the end, so it is either complete or absent.
 */
#ifndef UMLRUN_MERGE_H
#define UMLRUN_MERGE_H

#include "util.h"

int merge_runs(char *const *dirs, size_t ndirs, const char *out_dir, struct uerr *e);

#endif
