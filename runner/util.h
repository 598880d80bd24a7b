/* SPDX-License-Identifier: MIT */
/*
 * util.h - small helpers shared by every umlrun module: the one header
 * the rest of runner/ includes. What each part owns is in runner/util/,
 * one file and header for each (msg, alloc, outq, text, fs, hash,
 * cachedir, proc, host).
 *
 * Error contract (docs/errors.md): library-like modules never print and
 * never exit. They return 0 on success and -1 on failure after filling a
 * struct uerr with one line of text and the exit code the command layer
 * should use. Only runner/cli/umlrun.c (the command layer) prints and exits,
 * through die()/uerr_die().
 *
 * Ownership: _cleanup_free_ and _cleanup_close_ release on scope exit;
 * steal_ptr()/steal_fd() hand ownership on explicitly. -1 means "no fd".
 */
#ifndef UMLRUN_UTIL_H
#define UMLRUN_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "msg.h"
#include "alloc.h"
#include "outq.h"
#include "text.h"
#include "fs.h"
#include "hash.h"
#include "cachedir.h"
#include "proc.h"
#include "host.h"

#endif
