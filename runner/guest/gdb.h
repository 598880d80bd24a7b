/* SPDX-License-Identifier: MIT */
/*
 * gdb.h - the guest kernel under the host's gdb (--gdb).
 *
 * A UML kernel is a host process, and its binary (kernels/KEY/linux, built
 * with CONFIG_DEBUG_INFO) is its own vmlinux: gdb reads the symbols from
 * it and the sources from the extracted tree the build named. gdb starts
 * linux itself, lets UML's own signals through (it pages and takes
 * interrupts with SIGSEGV, SIGIO...) and stops at kernel_init, before any
 * initcall and before the guest's init. Under time travel the guest's
 * clock is a counter the kernel moves itself: while gdb holds the process
 * stopped, simulated time stands still.
 *
 * The kernel's console goes to fd 6 (the caller's console pipe); gdb has
 * fds 0-2: the terminal, or with a script (--gdb=FILE) /dev/null and
 * umlrun's stderr, in batch mode.
 */
#ifndef UMLRUN_GDB_H
#define UMLRUN_GDB_H

#include <sys/types.h>

#include "util.h"

/* umlrun run's wall-clock limit under gdb: a person decides (seconds, 100 days). */
#define GDB_WALL_TIMEOUT 8640000.0

/* Where the console goes when linux runs under gdb. */
#define GDB_CONSOLE_FD 6

/* gdb on PATH, or NULL. */
char *gdb_find(void);
/*
 * argv to exec instead of linux's own: gdb, its commands, then linux's
 * command line (argv, taken over) as the program's arguments. With drop,
 * gdb keeps its user (as root it reads the sources in the cache) and
 * starts linux as uid:gid through setpriv, its exec-wrapper.
 */
char **gdb_argv(const char *gdb, const char *script, bool drop, uid_t uid, gid_t gid, char **argv);

#endif
