/* SPDX-License-Identifier: MIT */
/*
 * cachedir.h - the cache folder and what is made in it: cache_path, cache_root,
 * tmp_name, owner files, stale entries and their sweep.
 */
#ifndef UMLRUN_UTIL_CACHEDIR_H
#define UMLRUN_UTIL_CACHEDIR_H

#include <stdbool.h>

/* $XDG_CACHE_HOME/umlrun, or ~/.cache/umlrun (NULL: no home at all). */
char *cache_path(void);
/*
 * Why the cache folder root must not be used (none, another's, o+w, or
 * not there in a folder that is not there either), or NULL.
 */
char *cache_problem(const char *root);
/* cache_path(), checked: exits 2 with the reason when it must not be used. */
char *cache_root(void);
/*
 * A cache entry being made: PATH.tmp-PID.nsINODE, this process's PID and
 * PID namespace, so that what an interrupted umlrun left can be told from
 * what another namespace's umlrun, sharing the cache, is making.
 */
char *tmp_name(const char *path);
/* Its "PID.nsINODE" part, for other names of the kind (merge's OUT.merging-...). */
char *tmp_suffix(void);
/*
 * An owner file's text (a stage's, --plain's suites): this process's PID and
 * PID namespace; owner_gone says whether the process that wrote text is
 * gone for sure (not when it was of another namespace, which could share
 * TMPDIR).
 */
char *owner_text(void);
bool owner_gone(const char *text);
/*
 * Whether NAME is such an entry whose process is gone: TMP_STALE when its
 * PID is of this namespace (gone for sure), TMP_STALE_IF_OLD when it may
 * be another's (or named by an older umlrun, without .ns), else 0.
 */
/* Seconds before a stale entry that may be another PID namespace's goes. */
#define STALE_TMP_AGE	 3600
#define TMP_STALE	 1
#define TMP_STALE_IF_OLD 2
int tmp_staleness(const char *name);
/* Removes the stale entries of a cache folder: of another namespace, after an hour. */
void sweep_stale_tmp(const char *dir);

#endif
