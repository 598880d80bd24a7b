/* SPDX-License-Identifier: MIT */
/*
 * hwsim_pyc.h - hostap's tests/hwsim, byte-compiled once and cached.
 *
 * run-tests.py imports every test module of tests/hwsim before its first
 * case; compiling them is most of a guest's start (about 5 s of 10 on
 * the AMD host), paid again by every guest, as the tree is read-only and
 * each guest writes its bytecode to a tmpfs. So umlrun compiles them once,
 * in a guest of its own that runs none of the tree's code (python3 -m
 * compileall), keeps the .pyc files in the cache under a key of the
 * modules' content, and lays them under the tree in every later guest.
 * Python checks each .pyc against its source's size and mtime before it
 * uses it, so a file changed since is compiled afresh, as before.
 *
 *	hwsim_pyc_key(tree, key, &e);
 *	dir = hwsim_pyc_dir(cache_root(), key);
 *	if (!is_dir(dir)) { boot HWSIM_PYC_SCRIPT with out at HWSIM_PYC_GUEST;
 *			     hwsim_pyc_keep(out, tree, dir, &e); }
 *	hwsim_pyc_link(dir, stage_tree_dir, &e);
 *
 * Modules never print or exit; errors come back in struct uerr.
 */
#ifndef UMLRUN_HWSIM_PYC_H
#define UMLRUN_HWSIM_PYC_H

#include "util.h"

/* Where the compiling guest writes the .pyc files (a read-write --mount). */
#define HWSIM_PYC_GUEST "/mnt/hwsim-pyc"

/*
 * The compiling guest's job (sh -c): the tree laid out as testsuites/lib/
 * hwsim.sh lays it (at the same path, so the bytecode names the paths the
 * cases run from), tests/hwsim compiled, this Python's .pyc files copied out.
 */
#define HWSIM_PYC_SCRIPT                                                                           \
	"set -e; mkdir -p /tmp/ov/up /tmp/ov/work /tmp/hostap; "                                   \
	"mount -t overlay overlay -o lowerdir=/mnt/hostap-build/tree:/mnt/hostap,"                 \
	"upperdir=/tmp/ov/up,workdir=/tmp/ov/work /tmp/hostap; "                                   \
	"python3 -m compileall -q -l /tmp/hostap/tests/hwsim >/dev/null; "                         \
	"tag=$(python3 -c 'import sys; print(sys.implementation.cache_tag)'); "                    \
	"cp /tmp/hostap/tests/hwsim/__pycache__/*.$tag.pyc " HWSIM_PYC_GUEST "/"

/* The cached set's key: each .py of tests/hwsim, by name and content. */
int hwsim_pyc_key(const char *tree, char key[17], struct uerr *e);
/* The cached set's folder for key in the cache folder (there or not). */
char *hwsim_pyc_dir(const char *cache, const char *key);
/*
 * The compiling guest's out folder, checked (each file a regular file
 * named NAME.TAG.pyc for a NAME.py of the tree's tests/hwsim, none over
 * 16 MiB) and copied whole into dest, atomically; a set with any other
 * file is refused (EXIT_INFRA) and nothing is kept.
 */
int hwsim_pyc_keep(const char *out, const char *tree, const char *dest, struct uerr *e);
/* The cached set at dir linked (or copied) into DEST/tests/hwsim/__pycache__. */
int hwsim_pyc_link(const char *dir, const char *dest, struct uerr *e);

#endif
