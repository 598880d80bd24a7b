/* SPDX-License-Identifier: MIT */
/*
 * cmd_run.h - the phases of 'umlrun run', which the other commands that
 * run test files share: kselftest and hwsim run their generated suites
 * through run_session, compare runs its tests twice through run_tests.
 */
#ifndef UMLRUN_CMD_RUN_H
#define UMLRUN_CMD_RUN_H

#include "finish.h"
#include "session.h"
#include "suite.h"

/* Boots every test of the list in run->mode; the stage must exist. */
void run_tests(struct session *s, const struct test_list *tests, struct run *run);
/* run once the project is found: choose, check, build, boot, report; the exit code. */
int run_session(struct session *s);
/*
 * --seeds: the command that replays test t under seed, for the line that
 * names the first failure: this command, its options as given but those
 * that choose tests (--seeds, --filter, --exclude, --rerun-failed,
 * --shard, --durations, --shuffle), with --start=now as the seconds this
 * run started at, then --random-seed=SEED and t alone: its id (run), or
 * --filter=ID and s->replay_select (kselftest, hwsim). Allocated.
 */
char *replay_command(const struct session *s, const struct test *t, long long seed);

#endif
