/* SPDX-License-Identifier: MIT */
/*
 * hostap_build.h - hostap's test programs built from a user's hostap tree,
 * cached by the content of its C inputs.
 *
 * `umlrun hwsim --hostap=DIR` runs hostap's own tests/hwsim suite with the
 * programs of DIR, built as hostap's tests/hwsim/build.sh builds them:
 *
 *	char *dir;
 *	bool built;
 *	hostap_tree_check(tree, &e);			// exit 2: not a hostap tree
 *	hostap_build(&(struct hostap_build_opts){ .tree = tree, .jobs = 2,
 *		     .say = say, .say_ctx = ctx }, &dir, &built, &e);
 *	// dir/tree/hostapd/hostapd, ...; their libraries in dir/lib
 *
 * The user's tree is never written to: its inputs are copied into a
 * scratch folder and built there, with the configs of tests/hwsim
 * (example-hostapd.config, example-wpa_supplicant.config) as .config.
 *
 * Cache: $XDG_CACHE_HOME/umlrun/hostap/KEY/ holds
 *   tree/	the programs at their paths in a hostap tree:
 *		hostapd/{hostapd,hostapd_cli,hlr_auc_gw},
 *		wpa_supplicant/{wpa_supplicant,wpa_cli,eapol_test},
 *		wlantest/{wlantest,wlantest_cli}, tests/hwsim/tnc/lib*.so, and
 *		hs20/client/hs20-osu-client when it builds (it needs libcurl's
 *		headers; without it build.log says so and the rest is cached);
 *   lib/	the shared libraries they need, as the host's dynamic loader
 *		lists them (never running them), the loader itself left out:
 *		laid over the guest's /usr/lib/x86_64-linux-gnu (hwsim.sh);
 *   build.log	make's output;
 *   inputs.txt	what KEY hashes, in words.
 * KEY hashes the relative paths and content of the build inputs (every
 * regular file under src/, hostapd/, wpa_supplicant/, wlantest/, hs20/
 * and tests/hwsim/tnc/, and the two example configs; build outputs and
 * ELF files left out), the compiler's version and the recipe: editing
 * a tests/hwsim/test_*.py does not rebuild, editing a .c file does.
 * It is built in KEY.tmp-PID.nsINODE and renamed into place when complete
 * (two umlruns building the same KEY: the second one's rename finds the
 * first's and uses it); a failed build leaves only its log,
 * KEY.failed.log.
 */
#ifndef UMLRUN_HOSTAP_BUILD_H
#define UMLRUN_HOSTAP_BUILD_H

#include <stdbool.h>

#include "util.h"

/*
 * 0 when tree looks like a hostap checkout (hostapd/Makefile,
 * wpa_supplicant/Makefile, tests/hwsim/run-tests.py and the two
 * tests/hwsim/example-*.config); else -1 with one line naming the first
 * file missing, exit code 2.
 */
int hostap_tree_check(const char *tree, struct uerr *e);

struct hostap_build_opts {
	const char *tree; /* the user's hostap tree (never written to) */
	int jobs;	  /* make's -j (below 1: 1) */
	bool progress;	  /* a terminal: one moving line */
	void (*say)(void *ctx, bool transient, const char *text);
	void *say_ctx;
};

/*
 * *dir: the cache folder (built now, or found; *built says which). A
 * failed build: -1, exit code 3, one line naming the program that failed
 * and the kept log.
 */
int hostap_build(const struct hostap_build_opts *o, char **dir, bool *built, struct uerr *e);

/* The cache key of tree (16 hex digits): what hostap_build names its folder by. */
int hostap_build_key(const char *tree, char out[17], struct uerr *e);

#endif
