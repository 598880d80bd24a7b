/* SPDX-License-Identifier: MIT */
/*
 * rootfs.h - the guest's root folder, assembled from Debian packages by
 * rootfs/mkrootfs.sh and cached under $XDG_CACHE_HOME/umlrun/rootfs/KEY.
 * KEY hashes the manifest, the script, the installed packages' versions
 * and the project's static guest programs: it is rebuilt only when one of
 * them changed.
 */
#ifndef UMLRUN_ROOTFS_H
#define UMLRUN_ROOTFS_H

#include "util.h"

/*
 * Whether dpkg-query's output (-f='${Package} ${db:Status-Abbrev}...', a
 * line a package) shows name installed ("ii").
 */
bool dpkg_shows_installed(const char *dpkg_output, const char *name);
/* Packages the manifest lists that are not installed ("a b c"), or NULL. */
char *rootfs_missing_packages(const char *manifest_text);
/*
 * The folder the current inputs select (built or not), without building.
 * extras: manifests whose lines follow rootfs/manifest's, in order (a
 * suite's own root: rootfs/manifest.hwsim, then rootfs/manifest.tshark
 * with hwsim --tshark), NULL-terminated, in the key too; NULL for none.
 */
int rootfs_locate(const char *project_dir, const char *guestbin, char *const *extras, char **dir,
		  struct uerr *e);
/* Builds it if need be; what it does about a damaged one goes to say (NULL: nowhere). */
int rootfs_ensure(const char *project_dir, const char *guestbin, char *const *extras, char **dir,
		  void (*say)(void *ctx, bool transient, const char *text), void *say_ctx,
		  struct uerr *e);

#endif
