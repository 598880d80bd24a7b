// SPDX-License-Identifier: MIT
/* kernel_cache.c - configure, build and cache the UML kernel. */
#define _GNU_SOURCE
#include "kernel_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kconfig.h"

const char *kernel_tree_unclean(const char *src)
{
	/* The same test the kernel's top Makefile makes before an O= build. */
	static const char *const marks[] = { ".config", "include/config",
					     "arch/um/include/generated" };

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", src, marks[i]);

		if (path_exists(p))
			return marks[i];
	}
	return NULL;
}

static const struct kernel_version kernel_versions[] = {
	{ "6.1", "bookworm" },
	{ "6.12", "trixie" },
	{ "7.2", "sid" },
};

const struct kernel_version *kernel_version_find(const char *name)
{
	for (size_t i = 0; i < sizeof(kernel_versions) / sizeof(kernel_versions[0]); i++)
		if (!strcmp(kernel_versions[i].name, name))
			return &kernel_versions[i];
	return NULL;
}

const char *kernel_version_names(void)
{
	static char names[128];

	if (!names[0]) {
		for (size_t i = 0; i < sizeof(kernel_versions) / sizeof(kernel_versions[0]); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", kernel_versions[i].name);
	}
	return names;
}

/* Progress through the caller's callback (util.h, say_through). */
#define tell(o, transient, ...) say_through((o)->say, (o)->say_ctx, transient, __VA_ARGS__)

/*
 * The tarball is not there: fetch linux-source-VERSION from Debian with
 * the project's script (it writes the tarball whole or not at all).
 */
static int fetch_tarball(const struct kernel_opts *o, struct uerr *e)
{
	char *argv[] = { "sh",
			 (char *)o->fetch_script,
			 (char *)o->version->name,
			 (char *)o->version->suite,
			 (char *)o->tarball,
			 NULL };
	int st;

	tell(o, false, "fetching linux-source-%s from Debian's %s (once)", o->version->name,
	     o->version->suite);
	/* Its one-line reasons go to stderr, with the command layer's. */
	st = run_argv(argv, -1);
	if (st == 0 && path_exists(o->tarball))
		return 0;
	return uerr_set(e, EXIT_INFRA,
			"cannot fetch linux-source-%s (see above); install it with 'apt-get "
			"install linux-source-%s' or give --kernel-src DIR",
			o->version->name, o->version->name);
}

/* Hashing a user's tree: path, size and mtime of every file. */
static struct hasher *tree_hasher;

static int tree_visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;

	if (flag == FTW_D && (!strcmp(base, ".git") || !strcmp(base, ".pc")))
		return FTW_SKIP_SUBTREE;
	if (flag != FTW_F && flag != FTW_SL)
		return FTW_CONTINUE;
	hasher_add_str(tree_hasher, path);
	hasher_add(tree_hasher, &st->st_size, sizeof(st->st_size));
	hasher_add(tree_hasher, &st->st_mtim, sizeof(st->st_mtim));
	return FTW_CONTINUE;
}

static int tree_identity(const char *src, char hex[65], struct uerr *e)
{
	tree_hasher = hasher_new();
	if (nftw(src, tree_visit, 64, FTW_PHYS | FTW_ACTIONRETVAL) < 0) {
		hasher_final(steal_ptr(&tree_hasher), hex);
		return uerr_sys(e, EXIT_USAGE, "cannot read kernel tree %s", src);
	}
	hasher_final(steal_ptr(&tree_hasher), hex);
	return 0;
}

static int log_open(const char *path, struct uerr *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
	return fd;
}

/* The last line of the log that looks like a compiler or make error. */
static char *log_last_error(const char *log)
{
	_cleanup_free_ char *text = NULL;
	char *best = NULL, *p;

	if (read_file(log, &text, NULL) < 0)
		return xstrdup("(no log)");
	for (p = text; *p;) {
		char *nl = strchrnul(p, '\n');

		if (memmem(p, (size_t)(nl - p), "rror", 4)) {
			free(best);
			best = xstrndup(p, (size_t)(nl - p));
		}
		p = *nl ? nl + 1 : nl;
	}
	return best ? best : xstrdup("(see the log)");
}

static int run_step(char *const argv[], const char *log, const char *what, struct uerr *e)
{
	_cleanup_close_ int fd = log_open(log, e);
	int st;

	if (fd < 0)
		return -1;
	dprintf(fd, "$");
	for (size_t i = 0; argv[i]; i++)
		dprintf(fd, " %s", argv[i]);
	dprintf(fd, "\n");
	st = run_argv(argv, fd);
	if (st < 0) {
		errno = -st;
		return uerr_sys(e, EXIT_INFRA, "%s: cannot run %s", what, argv[0]);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		_cleanup_free_ char *last = log_last_error(log);

		return uerr_set(e, EXIT_INFRA, "%s failed: %s (full log: %s)", what, last, log);
	}
	return 0;
}

/* The kernel build's progress: kbuild's quiet lines, one moving line or one a minute. */
struct build_progress {
	const struct kernel_opts *o;
	time_t t0, last_print;
	unsigned long steps;
	char cur[128];
};

static void build_line(void *ctx, const char *line)
{
	struct build_progress *bp = ctx;

	/* kbuild's quiet lines: "  CC      kernel/time/timer.o" */
	if (line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {
		bp->steps++;
		snprintf(bp->cur, sizeof(bp->cur), "%s", line + 2);
	}
}

static void build_tick(void *ctx)
{
	struct build_progress *bp = ctx;

	if (bp->o->progress) {
		tell(bp->o, true, "building kernel [%lu steps, %lds] %.60s", bp->steps,
		     (long)(time(NULL) - bp->t0), bp->cur);
	} else if (time(NULL) - bp->last_print >= 60) {
		bp->last_print = time(NULL);
		tell(bp->o, false, "building kernel: %lu steps, %lds", bp->steps,
		     (long)(bp->last_print - bp->t0));
	}
}

/*
 * make, with its output in the log and one moving line on the terminal
 * (or one line a minute when stderr is not a terminal, e.g. in CI logs).
 */
static int run_make_progress(char *const argv[], const char *log, const struct kernel_opts *o,
			     struct uerr *e)
{
	_cleanup_close_ int fd = log_open(log, e);
	struct build_progress bp = { .o = o, .t0 = time(NULL), .last_print = time(NULL) };
	struct run_watch w = { .on_line = build_line, .tick = build_tick, .ctx = &bp };
	int st;

	if (fd < 0)
		return -1;
	st = run_argv_watched(argv, fd, &w);
	if (o->progress && o->say)
		o->say(o->say_ctx, true, NULL);
	if (st < 0) {
		errno = -st;
		return uerr_sys(e, EXIT_INFRA, "cannot run make");
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		_cleanup_free_ char *last = log_last_error(log);

		return uerr_set(e, EXIT_INFRA, "kernel build failed: %s (full log: %s)", last, log);
	}
	return 0;
}

/* The tarball holds one top folder (linux-source-6.1): its path, or NULL. */
static char *only_subdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *sub = NULL;

	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && !sub)
			sub = xasprintf("%s/%s", dir, de->d_name);
	closedir(d);
	return sub;
}

/*
 * Our kernel patches (uml-config/patches/NAME.patch, then
 * uml-config/patches/VERSION/NAME.patch, each folder in name order): each
 * says at its top why the kernel needs it. Applied to the Debian source
 * when it is extracted, so they are part of the extracted tree's name and
 * of the kernel's key; a --kernel-src tree is never written to, and is
 * built without them.
 *
 * Here: the .patch files of dir, in name order, appended to v (n of them).
 */
static void patches_of(const char *dir, char ***v, size_t *n)
{
	struct dirent **names = NULL;
	int count = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < count; i++) {
		size_t l = strlen(names[i]->d_name);

		if (l > 6 && !strcmp(names[i]->d_name + l - 6, ".patch")) {
			*v = xrealloc(*v, (*n + 2) * sizeof(**v));
			(*v)[(*n)++] = xasprintf("%s/%s", dir, names[i]->d_name);
			(*v)[*n] = NULL;
		}
		free(names[i]);
	}
	free(names);
}

/*
 * Our patches: every patches/NAME.patch for every version, then each
 * patches/SERIES/NAME.patch for that version only (a fix its code needs and
 * newer versions have, or lack the code for).
 */
static char **patch_list(const char *config_dir, const char *series, size_t *n)
{
	_cleanup_free_ char *dir = xasprintf("%s/patches", config_dir);
	char **v = xcalloc(1, sizeof(char *));

	*n = 0;
	patches_of(dir, &v, n);
	if (series) {
		_cleanup_free_ char *sub = xasprintf("%s/%s", dir, series);

		patches_of(sub, &v, n);
	}
	return v;
}

static int apply_patches(const char *tree, char **patches, size_t n, const char *log,
			 struct uerr *e)
{
	for (size_t i = 0; i < n; i++) {
		char *argv[] = { "patch", "-d", (char *)tree, "-p1", "-N",
				 "-s",	  "-i", patches[i],   NULL };
		_cleanup_free_ char *what = xasprintf("applying %s", patches[i]);

		if (run_step(argv, log, what, e) < 0)
			return -1;
	}
	return 0;
}

static int extract_tarball(const char *root, const char *tarball, const char *id, char **patches,
			   size_t npatches, char **src, struct uerr *e)
{
	_cleanup_free_ char *dir = xasprintf("%s/src/%s", root, id);
	_cleanup_free_ char *tmp = tmp_name(dir);
	_cleanup_free_ char *log = xasprintf("%s/src/%s.log", root, id);
	if (!is_dir(dir)) {
		char *argv[] = { "tar", "-C", tmp, "-xf", (char *)tarball, NULL };
		_cleanup_free_ char *src_dir = xasprintf("%s/src", root);

		sweep_stale_tmp(src_dir);

		if (rm_rf(tmp) < 0 || mkdir_p(tmp, 0755) < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot create %s", tmp);
		scratch_push(tmp);
		if (run_step(argv, log, "extracting the kernel source", e) < 0) {
			scratch_pop(tmp);
			rm_rf(tmp);
			return -1;
		}
		if (npatches) {
			_cleanup_free_ char *top = only_subdir(tmp);
			int r = top ? apply_patches(top, patches, npatches, log, e) : -1;

			if (r < 0) {
				scratch_pop(tmp);
				if (!top)
					uerr_set(e, EXIT_INFRA, "%s holds no kernel tree", tarball);
				rm_rf(tmp);
				return -1;
			}
		}
		scratch_pop(tmp);
		if (rename(tmp, dir) < 0) {
			rm_rf(tmp);
			return uerr_sys(e, EXIT_INFRA, "cannot rename %s", tmp);
		}
	}
	*src = only_subdir(dir);
	if (!*src)
		return uerr_set(e, EXIT_INFRA, "%s is empty: remove it and retry", dir);
	return 0;
}

/* The config fragments to merge: the project's, then the user's. */
static char **fragment_list(const struct kernel_opts *o, size_t *n, struct uerr *e)
{
	struct dirent **names = NULL;
	int count = scandir(o->config_dir, &names, NULL, alphasort);
	char **v;

	*n = 0;
	if (count < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot read %s", o->config_dir);
		return NULL;
	}
	v = xcalloc((size_t)count + o->nfragments + 2, sizeof(char *));
	for (int i = 0; i < count; i++) {
		size_t l = strlen(names[i]->d_name);

		if (l > 7 && !strcmp(names[i]->d_name + l - 7, ".config") &&
		    (!o->time_travel_only || !strcmp(names[i]->d_name, "time-travel.config")))
			v[(*n)++] = xasprintf("%s/%s", o->config_dir, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	if (o->profile)
		v[(*n)++] = xstrdup(o->profile);
	for (size_t i = 0; i < o->nfragments; i++) {
		char *abs = realpath(o->fragments[i], NULL);

		if (!abs) {
			uerr_sys(e, EXIT_USAGE, "--config %s", o->fragments[i]);
			for (size_t j = 0; j < *n; j++)
				free(v[j]);
			free(v);
			return NULL;
		}
		v[(*n)++] = abs;
	}
	return v;
}

/*
 * What the binary says of itself: the unit of time-travel-start= and
 * whether it offers seccomp= (its --help), its release (--version).
 */
static int probe_binary(struct kernel *k, const char *binary, struct uerr *e)
{
	char *help_argv[] = { (char *)binary, "--help", NULL };
	char *version_argv[] = { (char *)binary, "--version", NULL };
	int st, major = 0, minor = 0;
	_cleanup_free_ char *help = capture_argv(help_argv, &st);
	_cleanup_free_ char *version = capture_argv(version_argv, &st);

	k->start_unit = help ? start_unit_from_help(help) : START_UNIT_UNKNOWN;
	if (k->start_unit == START_UNIT_UNKNOWN)
		return uerr_set(e, EXIT_INFRA,
				"%s --help does not document time-travel-start=: the kernel lacks "
				"CONFIG_UML_TIME_TRAVEL_SUPPORT",
				binary);
	k->has_seccomp = strstr(help, "seccomp=") != NULL;
	k->has_cpu_cost = strstr(help, "uml-syscall-cost=") != NULL;
	k->has_stall_wall = strstr(help, "uml-stall-wall-ms=") != NULL;
	k->has_random_seed = strstr(help, "uml-random-seed=") != NULL;
	snprintf(k->release, sizeof(k->release), "%.*s", version ? (int)strcspn(version, "\n") : 0,
		 version ? version : "");
	if (sscanf(k->release, "%d.%d", &major, &minor) != 2)
		return uerr_set(e, EXIT_INFRA, "%s --version does not name a release", binary);
	k->version_code = major * 65536 + minor * 256;
	return 0;
}

/* A binary's size: a cached entry whose linux is not the size it was built is damaged. */
static long long binary_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* The info file's text; size is that of the linux it describes. */
static char *info_text(const struct kernel *k, long long size)
{
	return xasprintf(
	    "start_unit=%s\nrelease=%s\nseccomp=%s\ncpu_cost=%s\nstall_wall=%s\nrandom_seed=%s\n"
	    "size=%lld\n",
	    start_unit_name(k->start_unit), k->release, k->has_seccomp ? "yes" : "no",
	    k->has_cpu_cost ? "yes" : "no", k->has_stall_wall ? "yes" : "no",
	    k->has_random_seed ? "yes" : "no", size);
}

/* KEY=value from the info file's text, or NULL. */
static char *info_value(const char *text, const char *key)
{
	_cleanup_free_ char *pat = xasprintf("\n%s=", key);
	_cleanup_free_ char *with_nl = xasprintf("\n%s", text);
	const char *p = strstr(with_nl, pat);

	if (!p)
		return NULL;
	p += strlen(pat);
	return xstrndup(p, strcspn(p, "\n"));
}

static int read_info(struct kernel *k)
{
	_cleanup_free_ char *path = xasprintf("%s/info", k->dir);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *unit = NULL;
	_cleanup_free_ char *release = NULL;
	_cleanup_free_ char *seccomp = NULL;
	_cleanup_free_ char *cpu_cost = NULL;
	_cleanup_free_ char *stall_wall = NULL;
	_cleanup_free_ char *random_seed = NULL;
	int major = 0, minor = 0;

	_cleanup_free_ char *size = NULL;

	if (read_file(path, &text, NULL) < 0 || !(unit = info_value(text, "start_unit")))
		return -1;
	/* Cut short outside umlrun (a full disk, a hand): built again, and said so. */
	size = info_value(text, "size");
	if (size && strtoll(size, NULL, 10) != binary_size(k->binary))
		return -2;
	k->start_unit = start_unit_from_name(unit);
	release = info_value(text, "release");
	seccomp = info_value(text, "seccomp");
	cpu_cost = info_value(text, "cpu_cost");
	stall_wall = info_value(text, "stall_wall");
	random_seed = info_value(text, "random_seed");
	if (!release || !seccomp || !cpu_cost || !stall_wall || !random_seed ||
	    sscanf(release, "%d.%d", &major, &minor) != 2) {
		/* Written by an older umlrun: ask the binary, keep the answer. */
		struct uerr e;
		_cleanup_free_ char *fresh = NULL;

		if (probe_binary(k, k->binary, &e) < 0)
			return -1;
		fresh = info_text(k, binary_size(k->binary));
		(void)write_file_atomic(path, fresh,
					strlen(fresh)); /* a read-only cache: next time */
		return 0;
	}
	snprintf(k->release, sizeof(k->release), "%s", release);
	k->version_code = major * 65536 + minor * 256;
	k->has_seccomp = !strcmp(seccomp, "yes");
	k->has_cpu_cost = !strcmp(cpu_cost, "yes");
	k->has_stall_wall = !strcmp(stall_wall, "yes");
	k->has_random_seed = !strcmp(random_seed, "yes");
	return 0;
}

/* How configure says that an option asked for was lost (no build followed). */
#define CONFIG_LOST_MSG "requested kernel options did not survive olddefconfig"

/*
 * from_defconfig: the fragments over UML's defconfig (every umlrun kernel);
 * else over nothing, as kunit.py makes its kernels (its .kunitconfig as
 * .config, then olddefconfig): a KUnit kernel builds what kunit.py's does.
 */
static int configure(const char *src, const char *bdir, bool from_defconfig, char **frags,
		     size_t nfrags, const struct kreq_set *req, const char *log, struct uerr *e)
{
	_cleanup_free_ char *o_arg = xasprintf("O=%s", bdir);
	_cleanup_free_ char *merge = xasprintf("%s/scripts/kconfig/merge_config.sh", src);
	_cleanup_free_ char *dotconfig = xasprintf("%s/.config", bdir);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *lost = NULL;
	char *defconfig[] = { "make", "-C", (char *)src, "ARCH=um", o_arg, "defconfig", NULL };
	char *olddef[] = { "make", "-C", (char *)src, "ARCH=um", o_arg, "olddefconfig", NULL };
	char **margv = xcalloc(nfrags + 6, sizeof(char *));
	bool user_lost;
	int r;

	margv[0] = merge;
	margv[1] = "-m";
	margv[2] = "-O";
	margv[3] = (char *)bdir;
	margv[4] = dotconfig;
	for (size_t i = 0; i < nfrags; i++)
		margv[5 + i] = frags[i];
	setenv("ARCH", "um", 1);
	/*
	 * The same inputs build the same kernel everywhere: its version string
	 * (build number, time, user, host: utsname) is mixed into the guest's random pool, so a
	 * rebuild would otherwise give guests other random numbers.
	 */
	setenv("KBUILD_BUILD_TIMESTAMP", "2024-01-01 00:00:00 UTC", 1);
	setenv("KBUILD_BUILD_USER", "umlrun", 1);
	setenv("KBUILD_BUILD_HOST", "umlrun", 1);
	setenv("KBUILD_BUILD_VERSION", "1", 1);
	if (from_defconfig)
		r = run_step(defconfig, log, "make defconfig", e);
	else if ((r = write_file_atomic(dotconfig, "", 0)) < 0) {
		errno = -r;
		r = uerr_sys(e, EXIT_INFRA, "cannot write %s", dotconfig);
	}
	if (r == 0)
		r = run_step(margv, log, "merge_config.sh", e);
	free(margv);
	if (r == 0)
		r = run_step(olddef, log, "make olddefconfig", e);
	if (r < 0)
		return r;
	if (read_file(dotconfig, &text, NULL) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", dotconfig);
	lost = kreq_verify(req, text, &user_lost);
	if (lost)
		return uerr_set(e, user_lost ? EXIT_USAGE : EXIT_INFRA, CONFIG_LOST_MSG ": %s",
				lost);
	return 0;
}

static int install_kernel(struct kernel *k, const char *bdir, struct uerr *e)
{
	_cleanup_free_ char *built = xasprintf("%s/linux", bdir);
	_cleanup_free_ char *cfg = xasprintf("%s/.config", bdir);
	_cleanup_free_ char *cfg_out = xasprintf("%s/config", k->dir);
	_cleanup_free_ char *tmp = xasprintf("%s.tmp", k->binary);
	_cleanup_free_ char *info = NULL;
	_cleanup_free_ char *info_path = xasprintf("%s/info", k->dir);
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	if (probe_binary(k, built, e) < 0)
		return -1;
	if (read_file(cfg, &text, &len) < 0 || write_file_atomic(cfg_out, text, len) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot copy %s", cfg);
	/* Written before linux is in place: the size is the built one's. */
	info = info_text(k, binary_size(built));
	if ((r = write_file_atomic(info_path, info, strlen(info))) < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", info_path);
	}
	/* linux appears last and atomically: it marks the entry complete. */
	unlink(tmp);
	if (link(built, tmp) < 0) {
		char *argv[] = { "cp", built, tmp, NULL };

		if (run_argv(argv, -1) != 0)
			return uerr_sys(e, EXIT_INFRA, "cannot copy %s", built);
	}
	if (rename(tmp, k->binary) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot install %s", k->binary);
	return 0;
}

/*
 * Coverage: lcov needs the .gcno files the build wrote next to each object,
 * and the shared build folder is rebuilt for the next configuration. Copied
 * into kernels/KEY/gcov/ with their paths below the build folder.
 */
static int keep_gcno(const char *bdir, const char *kdir, struct uerr *e)
{
	_cleanup_free_ char *dest = xasprintf("%s/gcov", kdir);
	_cleanup_free_ char *script =
	    xasprintf("cd '%s' && find . -name '*.gcno' -print0 | tar --null -T - -cf - | "
		      "tar -C '%s' -xf -",
		      bdir, dest);
	char *argv[] = { "sh", "-c", script, NULL };

	if (rm_rf(dest) < 0 || mkdir_p(dest, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", dest);
	if (run_argv(argv, -1) != 0)
		return uerr_set(e, EXIT_INFRA, "cannot copy the build's .gcno files into %s", dest);
	return 0;
}

struct kernel_plan {
	char *src;     /* the tree to build (NULL: the tarball, not yet extracted) */
	char *inputs;  /* what the key hashes, one "name: value" per line */
	char bkey[65]; /* the build folder's key: source, compiler, fragments by name */
	char key[65];  /* the kernel's key */
	char **frags;  /* every fragment to merge, project's first */
	size_t nfrags;
	char **patches; /* ours, applied to a Debian source (none for --kernel-src) */
	size_t npatches;
	char sid[17]; /* the extracted, patched source's folder name */
	struct kreq_set req;
};

static void plan_free(struct kernel_plan *p)
{
	for (size_t i = 0; p->frags && i < p->nfrags; i++)
		free(p->frags[i]);
	free(p->frags);
	for (size_t i = 0; p->patches && i < p->npatches; i++)
		free(p->patches[i]);
	free(p->patches);
	free(p->src);
	free(p->inputs);
	kreq_free(&p->req);
	memset(p, 0, sizeof(*p));
}

static int plan_source(const struct kernel_opts *o, struct kernel_plan *p, struct strbuf *inputs,
		       struct uerr *e)
{
	const char *bad;
	struct stat st;

	if (!o->src) {
		if (stat(o->tarball, &st) < 0 && o->version && o->fetch_script &&
		    fetch_tarball(o, e) < 0)
			return -1;
		if (stat(o->tarball, &st) < 0)
			return uerr_set(
			    e, EXIT_INFRA,
			    "kernel source %s is missing: install it with 'apt-get install "
			    "linux-source-%s' (or give --kernel-src DIR)",
			    o->tarball, o->version ? o->version->name : KERNEL_DEFAULT);
		/*
		 * By name, size and mtime, not path: a cache restored elsewhere
		 * (a CI cache under another project folder) keeps its kernels.
		 */
		sb_printf(inputs, "source: tarball %s size=%lld mtime=%lld\n",
			  strrchr(o->tarball, '/') ? strrchr(o->tarball, '/') + 1 : o->tarball,
			  (long long)st.st_size, (long long)st.st_mtime);
		return 0;
	}
	p->src = realpath(o->src, NULL);
	if (!p->src || !is_dir(p->src))
		return uerr_set(e, EXIT_USAGE, "--kernel-src %s: no such folder", o->src);
	if ((bad = kernel_tree_unclean(p->src)))
		return uerr_set(
		    e, EXIT_USAGE,
		    "kernel tree %s is not clean (it has %s): umlrun builds out of tree; "
		    "run 'make -C %s mrproper' or give a pristine copy",
		    p->src, bad, p->src);
	sb_printf(inputs, "source: tree %s\n", p->src);
	return 0;
}

/*
 * A Debian source gets our patches: their names and hashes join the
 * inputs, and the source line and they name the extracted tree (p->sid).
 */
static int plan_patches(const struct kernel_opts *o, struct kernel_plan *p, struct strbuf *inputs,
			struct uerr *e)
{
	struct hasher *h;
	char hex[65];

	if (o->src)
		return 0;
	size_t skip = strlen(o->config_dir) + strlen("/patches/");

	p->patches = patch_list(o->config_dir, o->series, &p->npatches);
	for (size_t i = 0; i < p->npatches; i++) {
		int r;

		h = hasher_new();
		if ((r = hasher_add_file(h, p->patches[i])) < 0) {
			hasher_final(h, hex);
			return uerr_set(e, EXIT_INFRA, "kernel patch %s: %s", p->patches[i],
					read_file_error(r));
		}
		hasher_final(h, hex);
		/* By its name under patches/ (SERIES/NAME for a version's own). */
		sb_printf(inputs, "patch: %s sha256=%s\n", p->patches[i] + skip, hex);
	}
	h = hasher_new();
	hasher_add_str(h, inputs->buf);
	hasher_final(h, hex);
	snprintf(p->sid, sizeof(p->sid), "%.16s", hex);
	return 0;
}

static int kernel_plan(const struct kernel_opts *o, struct kernel_plan *p, struct uerr *e)
{
	_cleanup_free_ char *cc = compiler_version();
	struct strbuf inputs = { 0 }, bkey = { 0 };
	struct hasher *h;
	char id[65];

	memset(p, 0, sizeof(*p));
	if (plan_source(o, p, &inputs, e) < 0 || plan_patches(o, p, &inputs, e) < 0)
		goto fail;
	sb_printf(&inputs, "base: ARCH=um %s\ncompiler: %s\n",
		  o->time_travel_only ? "none (the fragments alone, as kunit.py)" : "defconfig",
		  cc);
	/*
	 * One build folder per source, compiler and configuration, the
	 * configuration named by its fragments: the project's and a profile's
	 * by name, the user's by path. Switching between two configurations
	 * (the default kernel and a KASAN or KUnit one) then rebuilds nothing
	 * that did not change, and an edited fragment (the same name) costs an
	 * incremental build in its folder. The lock serialises its users.
	 */
	sb_adds(&bkey, inputs.buf);
	p->frags = fragment_list(o, &p->nfrags, e);
	if (!p->frags)
		goto fail;
	for (size_t i = 0; i < p->nfrags; i++) {
		bool user = i >= p->nfrags - o->nfragments;
		bool profile = o->profile && i == p->nfrags - o->nfragments - 1;
		char hex[65];
		int r;

		h = hasher_new();
		if ((r = hasher_add_file(h, p->frags[i])) < 0) {
			hasher_final(h, hex);
			uerr_set(e, EXIT_USAGE, "config fragment %s: %s", p->frags[i],
				 read_file_error(r));
			goto fail;
		}
		hasher_final(h, hex);
		/* By name and content, not path: a moved checkout reuses the cache. */
		sb_printf(&inputs, "fragment: %s%s sha256=%s\n",
			  user	    ? "user:"
			  : profile ? "profile:"
				    : "",
			  strrchr(p->frags[i], '/') + 1, hex);
		/*
		 * kunit --kconfig_add's lines (the cache's kunit-add/HASH/) are an
		 * increment on the kunitconfig's configuration, as kunit.py builds
		 * them: its build folder, not a fresh one for every addition.
		 */
		if (!(user && strstr(p->frags[i], "/kunit-add/") &&
		      ends_with(p->frags[i], "/kconfig_add.config")))
			sb_printf(&bkey, "fragment: %s\n",
				  user ? p->frags[i] : strrchr(p->frags[i], '/') + 1);
		if (kreq_add_fragment(&p->req, p->frags[i], user, e) < 0)
			goto fail;
	}
	h = hasher_new();
	hasher_add_str(h, bkey.buf);
	hasher_final(h, p->bkey);
	if (o->src) {
		if (tree_identity(p->src, id, e) < 0)
			goto fail;
		sb_printf(&inputs, "tree-content: %s\n", id);
	}
	h = hasher_new();
	hasher_add_str(h, inputs.buf);
	hasher_final(h, p->key);
	p->inputs = sb_detach(&inputs);
	sb_release(&bkey);
	return 0;
fail:
	sb_release(&inputs);
	sb_release(&bkey);
	plan_free(p);
	return -1;
}

int kernel_key(const struct kernel_opts *o, char key[65], struct uerr *e)
{
	struct kernel_plan p;

	if (kernel_plan(o, &p, e) < 0)
		return -1;
	memcpy(key, p.key, 65);
	plan_free(&p);
	return 0;
}

int kernel_build_key(const struct kernel_opts *o, char key[65], struct uerr *e)
{
	struct kernel_plan p;

	if (kernel_plan(o, &p, e) < 0)
		return -1;
	memcpy(key, p.bkey, 65);
	plan_free(&p);
	return 0;
}

static char *kernel_dir(const char *root, const char *key)
{
	return xasprintf("%s/kernels/%.16s", root, key);
}

int kernel_locate(const struct kernel_opts *o, char **dir, struct uerr *e)
{
	_cleanup_free_ char *root = cache_root();
	char key[65];

	*dir = NULL;
	if (kernel_key(o, key, e) < 0)
		return -1;
	*dir = kernel_dir(root, key);
	return 0;
}

/*
 * The tarball's extracted tree (src/ID/linux-source-VERSION), extracted
 * first if need be: ID is named after the source line of the inputs alone.
 * lock: the cache's lock file to hold while extracting, or -1 (held already).
 */
static int tarball_tree(const struct kernel_opts *o, const char *root, const struct kernel_plan *p,
			int lock, char **tree, struct uerr *e)
{
	_cleanup_free_ char *dir = xasprintf("%s/src/%s", root, p->sid);
	int r;

	if (!is_dir(dir) && lock >= 0 && flock(lock, LOCK_EX) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot lock %s/lock", root);
	if (!is_dir(dir) && o->progress)
		tell(o, false, "extracting %s (once)", o->tarball);
	r = extract_tarball(root, o->tarball, p->sid, p->patches, p->npatches, tree, e);
	if (lock >= 0)
		flock(lock, LOCK_UN);
	return r;
}

int kernel_source_tree(const struct kernel_opts *o, char **tree, struct uerr *e)
{
	_cleanup_free_ char *root = cache_root();
	_cleanup_free_ char *lockpath = xasprintf("%s/lock", root);
	_cleanup_close_ int lock = -1;
	struct strbuf inputs = { 0 };
	struct kernel_plan p;
	int r;

	*tree = NULL;
	memset(&p, 0, sizeof(p));
	r = plan_source(o, &p, &inputs, e);
	if (r == 0)
		r = plan_patches(o, &p, &inputs, e);
	if (r == 0 && o->src) {
		*tree = steal_ptr(&p.src);
	} else if (r == 0) {
		if (mkdir_p(root, 0755) < 0 ||
		    (lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
			r = uerr_sys(e, EXIT_INFRA, "cannot open %s", lockpath);
		else
			r = tarball_tree(o, root, &p, lock, tree, e);
	}
	sb_release(&inputs);
	plan_free(&p);
	return r;
}

/*
 * The cache's lock, for a build: taken at once, or, while another umlrun
 * holds it, waited for with what that one is doing (its note, lock.holder)
 * and how long we have waited: a moving line, or one a minute. The holder
 * leaves its note for the next waiter: its pid, what it builds, its log.
 */
static int lock_cache(const struct kernel_opts *o, int lock, const char *root, const char *kdir)
{
	_cleanup_free_ char *holder = xasprintf("%s/lock.holder", root);
	_cleanup_free_ char *mine = NULL;
	time_t t0 = time(NULL), last = t0;

	while (flock(lock, LOCK_EX | LOCK_NB) < 0) {
		_cleanup_free_ char *text = NULL;
		char *nl;
		long pid = 0;
		int n = 0;

		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		if (read_file(holder, &text, NULL) == 0 && (nl = strchr(text, '\n')))
			*nl = '\0';
		if (!text || sscanf(text, "%ld %n", &pid, &n) != 1 || pid <= 0 ||
		    kill((pid_t)pid, 0) < 0) {
			free(text);
			text = xstrdup("another umlrun holds it");
			n = 0;
		}
		if (o->progress)
			tell(o, true, "waiting %lds for the kernel cache's lock: %s",
			     (long)(time(NULL) - t0), text + n);
		else if (time(NULL) == t0 || time(NULL) - last >= 60) {
			last = time(NULL);
			tell(o, false, "waiting %lds for the kernel cache's lock: %s",
			     (long)(last - t0), text + n);
		}
		poll(NULL, 0, 1000);
	}
	if (time(NULL) != t0 && o->progress && o->say)
		o->say(o->say_ctx, true, NULL);
	mine = xasprintf("%ld umlrun (pid %ld) is building the kernel %s (log: %s/build.log)\n",
			 (long)getpid(), (long)getpid(), kdir, kdir);
	write_file_atomic(holder, mine, strlen(mine)); /* a courtesy: waiting works without it */
	return 0;
}

int kernel_ensure(const struct kernel_opts *o, struct kernel *k, struct uerr *e)
{
	_cleanup_free_ char *root = cache_root();
	_cleanup_free_ char *bdir = NULL;
	_cleanup_free_ char *log = NULL;
	_cleanup_free_ char *lockpath = NULL;
	_cleanup_free_ char *inputs_path = NULL;
	_cleanup_close_ int lock = -1;
	struct kernel_plan p;
	int r = -1;

	memset(k, 0, sizeof(*k));
	if (kernel_plan(o, &p, e) < 0)
		return -1;
	memcpy(k->key, p.key, sizeof(k->key));
	k->dir = kernel_dir(root, k->key);
	k->binary = xasprintf("%s/linux", k->dir);
	if (path_exists(k->binary)) {
		int info = read_info(k);

		if (info == 0) {
			/* Used now: `umlrun prune` spares what was used lately. */
			utimensat(AT_FDCWD, k->dir, NULL, 0);
			r = 0;
			goto out;
		}
		tell(o, false, "the cached kernel %s is %s: building it again", k->dir,
		     info == -2 ? "damaged (its linux is not the size it was built)"
				: "incomplete (no valid info file)");
	}

	/*
	 * Not cached: build it, one umlrun at a time. The entry is made once
	 * the lock is ours: a waiter stopped while it waits leaves nothing.
	 */
	lockpath = xasprintf("%s/lock", root);
	if (mkdir_p(root, 0755) < 0 ||
	    (lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0 ||
	    lock_cache(o, lock, root, k->dir) < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot lock %s", lockpath);
		goto out;
	}
	if (mkdir_p(k->dir, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot create %s", k->dir);
		goto out;
	}
	if (path_exists(k->binary) && read_info(k) == 0) {
		r = 0; /* another umlrun built it while we waited */
		goto out;
	}
	inputs_path = xasprintf("%s/inputs.txt", k->dir);
	{
		int w = write_file_atomic(inputs_path, p.inputs, strlen(p.inputs));

		if (w < 0) {
			errno = -w;
			uerr_sys(e, EXIT_INFRA, "cannot write %s", inputs_path);
			goto out;
		}
	}
	log = xasprintf("%s/build.log", k->dir);
	unlink(log);
	if (!o->src && tarball_tree(o, root, &p, -1, &p.src, e) < 0)
		goto out;
	{
		/*
		 * The build folder names the source's path (src/ is in the
		 * cache): a cache that moved builds in a folder of its own.
		 */
		_cleanup_free_ char *real = realpath(root, NULL);
		struct hasher *h = hasher_new();
		char hex[65];

		/* Resolved: the same cache by another name (a link) is the same place. */
		hasher_add_str(h, p.bkey);
		hasher_add_str(h, real ? real : root);
		hasher_final(h, hex);
		bdir = xasprintf("%s/builds/%.16s", root, hex);
	}
	if (mkdir_p(bdir, 0755) < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot create %s", bdir);
		goto out;
	}
	{
		/* Which build folder is this kernel's: prune keeps it while the kernel stays. */
		_cleanup_free_ char *note = xasprintf("%s/build", k->dir);
		_cleanup_free_ char *name = xasprintf("%s\n", strrchr(bdir, '/') + 1);
		int w = write_file_atomic(note, name, strlen(name));

		if (w < 0) {
			errno = -w;
			uerr_sys(e, EXIT_INFRA, "cannot write %s", note);
			goto out;
		}
	}
	tell(o, false, "building the kernel in %s (log: %s)", bdir, log);
	if (configure(p.src, bdir, !o->time_travel_only, p.frags, p.nfrags, &p.req, log, e) < 0) {
		/*
		 * A requested option the kernel does not keep: nothing was built
		 * and the error names the options, so no entry stays behind.
		 */
		if (strstr(e->msg, CONFIG_LOST_MSG))
			rm_rf(k->dir);
		goto out;
	}
	{
		_cleanup_free_ char *o_arg = xasprintf("O=%s", bdir);
		_cleanup_free_ char *j_arg = xasprintf("-j%d", o->jobs > 0 ? o->jobs : 1);
		char *argv[] = { "make", "-C", p.src, "ARCH=um", o_arg, j_arg, "linux", NULL };

		if (run_make_progress(argv, log, o, e) < 0)
			goto out;
	}
	if (o->keep_gcno && keep_gcno(bdir, k->dir, e) < 0)
		goto out;
	if (install_kernel(k, bdir, e) < 0)
		goto out;
	k->built = true;
	r = 0;
out:
	plan_free(&p);
	return r;
}

void kernel_release(struct kernel *k)
{
	free(k->dir);
	free(k->binary);
	k->dir = k->binary = NULL;
}

int kernel_cache_folders(const char *root, const char *inputs, char sid[17], char build[17])
{
	const char *base = strstr(inputs, "\nbase: ");
	const char *cc = strstr(inputs, "\ncompiler: ");
	const char *cc_end = cc ? strchr(cc + 1, '\n') : NULL;
	_cleanup_free_ char *named = NULL;
	_cleanup_free_ char *bkey_text = NULL;
	_cleanup_free_ char *real = NULL;
	struct hasher *h;
	char hex[65];

	sid[0] = build[0] = '\0';
	if (!base || !cc_end)
		return -1;
	/* plan_patches: the source line and the patches, each line whole. */
	if (!strncmp(inputs, "source: tarball ", 16)) {
		named = xstrndup(inputs, (size_t)(base + 1 - inputs));
		h = hasher_new();
		hasher_add_str(h, named);
		hasher_final(h, hex);
		snprintf(sid, 17, "%.16s", hex);
	}
	/* kernel_plan: everything to the compiler's line; kernel_build: that, and the cache. */
	bkey_text = xstrndup(inputs, (size_t)(cc_end + 1 - inputs));
	h = hasher_new();
	hasher_add_str(h, bkey_text);
	hasher_final(h, hex);
	real = realpath(root, NULL);
	h = hasher_new();
	hasher_add_str(h, hex);
	hasher_add_str(h, real ? real : root);
	hasher_final(h, hex);
	snprintf(build, 17, "%.16s", hex);
	return 0;
}

void kernel_build_folder(const char *dir, const char *name, char build[17])
{
	_cleanup_free_ char *note = xasprintf("%s/%s/build", dir, name);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;

	if (read_file(note, &text, &len) < 0 || len != 17 || text[16] != '\n' ||
	    strspn(text, "0123456789abcdef") != 16)
		return;
	memcpy(build, text, 16);
	build[16] = '\0';
}
