/* SPDX-License-Identifier: MIT */
/*
 * kernel_cache.h - build a time-travel UML kernel once, reuse it after.
 *
 * Kernels live under $XDG_CACHE_HOME/umlrun (default ~/.cache/umlrun):
 *   src/ID/          the Debian linux-source tarball, extracted once
 *   builds/BKEY/     the O= build folder, per source and compiler: a changed
 *                    fragment rebuilds incrementally
 *   kernels/KEY/     linux, config, inputs.txt, info, build.log
 * KEY hashes the source identity (tarball name/size/mtime, or every file's
 * path/size/mtime of a --kernel-src tree), the base config, each fragment's
 * text and the compiler's version: a changed input can never reuse a stale
 * kernel, and an unchanged one does no work (kernels/KEY/linux exists).
 */
#ifndef UMLRUN_KERNEL_CACHE_H
#define UMLRUN_KERNEL_CACHE_H

#include "starttime.h"
#include "util.h"

/*
 * The kernels umlrun knows by version (--kernel=VERSION): Debian's
 * linux-source-VERSION package, from the system's /usr/src when it is
 * installed, else fetched from Debian's SUITE into the cache
 * (uml-config/fetch-source.sh). KERNEL_DEFAULT is the one a run uses
 * unless told (docs/kernel.md says why).
 */
#define KERNEL_DEFAULT "7.2"
/* When the default's source cannot be fetched: Debian 12's own, installed by deps. */
#define KERNEL_FALLBACK "6.1"
struct kernel_version {
	const char *name;  /* "6.12" */
	const char *suite; /* the Debian suite that has linux-source-NAME */
};
const struct kernel_version *kernel_version_find(const char *name);
/* "6.1, 6.12, 7.2": for messages. */
const char *kernel_version_names(void);

struct kernel_opts {
	const char *src;		      /* --kernel-src, or NULL for the Debian tarball */
	const char *tarball;		      /* the Debian tarball's path */
	const struct kernel_version *version; /* where a missing tarball comes from */
	const char *series;	  /* "6.1", "6.12", "7.2": whose uml-config/patches/SERIES/ apply */
	const char *fetch_script; /* uml-config/fetch-source.sh */
	char **fragments;	  /* --config FRAGMENT, in order */
	size_t nfragments;
	/*
	 * --profile: its fragment (uml-config/profiles/NAME.config), merged
	 * after the project's and before the user's; a lost option is the
	 * project's to fix (exit 3). NULL: none.
	 */
	const char *profile;
	/* Keep the build's .gcno files with the kernel (kernels/KEY/gcov/): coverage. */
	bool keep_gcno;
	const char *config_dir; /* the project's uml-config/ */
	/*
	 * A KUnit kernel, kunit.py's with time travel: no defconfig under
	 * the fragments (kunit.py starts from its kunitconfig alone) and, of
	 * the project's fragments, time-travel.config alone, so that it
	 * builds and counts the tests kunit.py does. UML's defconfig and the
	 * guest's fragments (hostfs, networking, wireless, tracing, debugfs)
	 * would add tests of their own.
	 */
	bool time_travel_only;
	int jobs;
	bool progress; /* a terminal: progress as one moving line */
	/*
	 * Progress for the user, or NULL: the command layer prints it. A
	 * transient text replaces the last one (with progress set); NULL
	 * text clears it.
	 */
	void (*say)(void *ctx, bool transient, const char *text);
	void *say_ctx;
};

struct kernel {
	char *dir;    /* kernels/KEY */
	char *binary; /* kernels/KEY/linux */
	char key[65];
	enum start_unit start_unit;
	char release[64];     /* its --version: "6.12.118" */
	int version_code;     /* major * 65536 + minor * 256 (KERNEL_VERSION) */
	bool has_seccomp;     /* its --help offers seccomp= (UML's seccomp userspace, 6.16) */
	bool has_cpu_cost;    /* uml-syscall-cost= (our patch, uml-config/patches) */
	bool has_stall_wall;  /* uml-stall-wall-ms= (our stall breaker patch, 7.2, 6.1) */
	bool has_random_seed; /* uml-random-seed= (our patch, 7.2) */
	bool built;	      /* false when the cache already had it */
};

/* The kernel's cache key for these options, without building anything. */
int kernel_key(const struct kernel_opts *o, char key[65], struct uerr *e);
/*
 * The key of the build folder these options build in (builds/, with the
 * cache's path): one per configuration, named by the fragments' names (the
 * user's by path), not their content, so an edit builds incrementally.
 */
int kernel_build_key(const struct kernel_opts *o, char key[65], struct uerr *e);
/* kernels/KEY in the cache for these options, built or not. */
int kernel_locate(const struct kernel_opts *o, char **dir, struct uerr *e);
int kernel_ensure(const struct kernel_opts *o, struct kernel *k, struct uerr *e);
/*
 * The kernel source tree these options build from, nothing built: the
 * --kernel-src tree, or the Debian tarball's, extracted into the cache
 * first if need be (once; fetched first if need be).
 */
int kernel_source_tree(const struct kernel_opts *o, char **tree, struct uerr *e);
void kernel_release(struct kernel *k);
/* Is an in-tree configured kernel tree? Names the offending file. */
const char *kernel_tree_unclean(const char *src);

/*
 * From a kernel's inputs.txt text: the names of the folders its build used
 * in the cache at root, its extracted source (src/SID, "" for a
 * --kernel-src tree) and the build folder it used when one was shared by
 * all configurations (builds/BUILD). -1 for a text that is not one.
 */
int kernel_cache_folders(const char *root, const char *inputs, char sid[17], char build[17]);
/*
 * The build folder the kernel kernels/NAME (in dir) names in its note
 * (its build file: a folder per configuration), into build; a kernel
 * without the note (built when all shared one) leaves build as it was.
 */
void kernel_build_folder(const char *dir, const char *name, char build[17]);

#endif
