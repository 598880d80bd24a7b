/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the handler of every command, cmd_NAME for each X(ID, name)
 * of UMLRUN_COMMANDS (options.h), for main's dispatch[] (umlrun.c).
 *
 * A handler gets the parsed options and returns the exit code
 * (docs/exit-codes.md); it prints and exits on an error, as the command
 * layer does. Each lives in the file of its command: cmd_run.c (run,
 * list), cmd_kselftest.c, cmd_hwsim.c, cmd_kunit.c, cmd_compare.c,
 * cmd_exec.c (exec, shell), cmd_cache.c (build, prune), cmd_doctor.c,
 * cmd_merge.c; help in umlrun.c.
 */
#ifndef UMLRUN_COMMANDS_H
#define UMLRUN_COMMANDS_H

#include "options.h"

#define COMMAND_HANDLER(id, name) int cmd_##name(const struct opts *o);
UMLRUN_COMMANDS(COMMAND_HANDLER)
#undef COMMAND_HANDLER

#endif
