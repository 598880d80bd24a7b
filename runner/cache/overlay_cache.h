/* SPDX-License-Identifier: MIT */
/*
 * overlay_cache.h - the guest's root with its --overlay folders laid,
 * cached by what went into it.
 *
 * Laying an overlay runs rootfs/overlay.sh, which checks and copies it
 * file by file and brings the host libraries its programs need: 41 s for
 * 2,315 files (python3 and its modules), on every run. The laid root is
 * kept instead, hard links of the stage's, and a later run with the same
 * inputs starts its stage from it:
 *
 *	char key[65];
 *	char *laid;
 *
 *	if (overlay_key(rootfs, script, dirs, n, key, &e) < 0)
 *		uerr_die(&e);
 *	laid = overlay_cache_get(key);  // NULL: lay them, then overlay_cache_put
 *
 * The key is the cached root's folder (its own key names its content),
 * overlay.sh's text, and per overlay, in order, its path and what the
 * walk of it sees of every entry: name, type, mode, size, link target,
 * and modification and change times to the nanosecond (a change time
 * cannot be set back: a file rewritten in place is a new key). The host
 * libraries overlay.sh added are recorded with their size and times, and
 * an entry whose libraries changed since (an upgrade) is laid again.
 *
 * The cache keeps OVERLAY_CACHE_KEEP entries, the least recently used
 * removed when another is put. Entries are
 * CACHE/overlays/KEY/{root,libs}; a stage takes its own hard links of
 * one before it boots a guest, so removing it harms no run.
 */
#ifndef UMLRUN_OVERLAY_CACHE_H
#define UMLRUN_OVERLAY_CACHE_H

#include <stddef.h>

#include "util.h"

#define OVERLAY_CACHE_KEEP 8

/* The key of laying dirs (n, resolved, in order) over rootfs with script. */
int overlay_key(const char *rootfs, const char *script, char *const *dirs, size_t n, char key[65],
		struct uerr *e);
/* The laid root for key (allocated), or NULL: none, or its host libraries changed. */
char *overlay_cache_get(const char *key);
/*
 * Keeps root, laid with the overlays of key, as its entry (hard links),
 * with libs (NULL-terminated: the host libraries overlay.sh added). A
 * failure is no run's: 0 or -errno, and the run goes on without it.
 */
int overlay_cache_put(const char *key, const char *root, char *const *libs);

#endif
