// SPDX-License-Identifier: MIT
/* prune.c - remove what the cache holds and nobody uses. */
#define _GNU_SOURCE
#include "prune.h"
#include "kernel_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned long long tree_bytes;

static int add_bytes(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)path, (void)flag, (void)f;
	tree_bytes += (unsigned long long)st->st_blocks * 512;
	return 0;
}

/* The disk space of a file or a whole tree, as du counts it. */
static unsigned long long bytes_of(const char *path)
{
	tree_bytes = 0;
	nftw(path, add_bytes, 16, FTW_PHYS);
	return tree_bytes;
}

static char *human(unsigned long long b)
{
	if (b >= 1ULL << 30)
		return xasprintf("%.1f GB", (double)b / (1 << 30));
	return xasprintf("%.1f MB", (double)b / (1 << 20));
}

static bool kept(const struct prune_opts *o, const char *path)
{
	for (size_t i = 0; i < o->nkeep; i++)
		if (!strcmp(o->keep[i], path))
			return true;
	return false;
}

/* An entry being made: KEY.tmp-PID[.nsINODE] (util.h, tmp_name), PID alive. */
static bool in_progress(const char *name)
{
	const char *t = strstr(name, ".tmp-");
	char *end;
	long pid;

	if (!t)
		return false;
	pid = strtol(t + 5, &end, 10);
	if (!strncmp(end, ".ns", 3))
		end += 3 + strspn(end + 3, "0123456789");
	return pid > 0 && !*end && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static bool used_lately(const struct prune_opts *o, const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_mtime > o->now - PRUNE_MIN_AGE;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct tally {
	unsigned long long bytes;
	int entries;
};

/* Names (KEY) a prune_sub keeps, or records as removed. */
struct names {
	char **v;
	size_t n;
};

static void names_add(struct names *l, const char *name)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
}

static bool names_has(const struct names *l, const char *name, size_t len)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (strlen(l->v[i]) == len && !strncmp(l->v[i], name, len))
			return true;
	return false;
}

/* KEY or KEY.log of a KEY in used: what an interrupted KEY.tmp-PID left is not. */
static bool used_name(const struct names *used, const char *name)
{
	size_t len = strcspn(name, ".");

	return (!name[len] || !strcmp(name + len, ".log") || !strcmp(name + len, ".files")) &&
	       names_has(used, name, len);
}

static void names_free(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/*
 * Prunes CACHE/sub: entries KEY (a folder), KEY.log, KEY.tmp-PID[.nsINODE].
 * The KEYs in used stay; those removed (or that would be) join gone.
 */
static int prune_sub(const struct prune_opts *o, const char *sub, const struct names *used,
		     struct names *gone, FILE *out, struct tally *t, struct uerr *e)
{
	_cleanup_free_ char *dir = xasprintf("%s/%s", o->cache, sub);
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	struct stat st;
	int r = 0;

	/* A folder linked in from elsewhere (a test's cache sharing src/) is not ours to prune. */
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (d)
			closedir(d);
		return 0;
	}
	if (!d)
		return errno == ENOENT ? 0 : uerr_sys(e, EXIT_INFRA, "cannot read %s", dir);
	/* Names first: the folder changes under readdir otherwise. */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	/* Sorted: KEY.log after KEY, the same order every time. */
	qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", dir, names[i]);
		_cleanup_free_ char *key =
		    xasprintf("%s/%.*s", dir, (int)strcspn(names[i], "."), names[i]);
		_cleanup_free_ char *size = NULL;
		unsigned long long bytes;

		/*
		 * Not what was used lately: a KEY.tmp-PID whose PID seems gone
		 * may be another PID namespace's build sharing the cache.
		 */
		if (r < 0 || kept(o, key) || used_name(used, names[i]) || in_progress(names[i]) ||
		    used_lately(o, key) || used_lately(o, path))
			continue;
		if (gone)
			names_add(gone, names[i]);
		bytes = bytes_of(path);
		if (!o->dry_run && rm_rf(path) < 0) {
			r = uerr_sys(e, EXIT_INFRA, "cannot remove %s", path);
			continue;
		}
		size = human(bytes);
		fprintf(out, "%s %s/%s (%s)\n", o->dry_run ? "would remove" : "removed", sub,
			names[i], size);
		t->bytes += bytes;
		t->entries++;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}

/*
 * The src/ and builds/ folders of the kernels that stay (not in gone): read
 * from each one's inputs.txt. A kernel without one keeps nothing of them.
 */
static void folders_used(const struct prune_opts *o, const struct names *gone, struct names *srcs,
			 struct names *builds)
{
	_cleanup_free_ char *dir = xasprintf("%s/kernels", o->cache);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		_cleanup_free_ char *inputs = NULL;
		_cleanup_free_ char *text = NULL;
		char sid[17], build[17];

		if (de->d_name[0] == '.' || strchr(de->d_name, '.') ||
		    names_has(gone, de->d_name, strlen(de->d_name)))
			continue;
		inputs = xasprintf("%s/%s/inputs.txt", dir, de->d_name);
		if (read_file(inputs, &text, NULL) < 0 ||
		    kernel_cache_folders(o->cache, text, sid, build) < 0)
			continue;
		kernel_build_folder(dir, de->d_name, build);
		if (sid[0])
			names_add(srcs, sid);
		names_add(builds, build);
	}
	if (d)
		closedir(d);
}

int cache_prune(const struct prune_opts *o, FILE *out, struct uerr *e)
{
	_cleanup_free_ char *lockpath = xasprintf("%s/lock", o->cache);
	_cleanup_close_ int lock = -1;
	_cleanup_free_ char *size = NULL;
	struct tally t = { 0, 0 };
	struct names gone = { 0 }, srcs = { 0 }, builds = { 0 };
	int ret = -1;

	if (!is_dir(o->cache)) {
		fprintf(out, "nothing to remove: no cache in %s\n", o->cache);
		return 0;
	}
	/* Builds hold it: a kernel being built is left alone. */
	lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0 || flock(lock, LOCK_EX) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot lock %s", lockpath);
	/*
	 * The extracted sources and build folders the kernels that stay
	 * name (their inputs.txt), and what an interrupted extraction left:
	 * the rest belonged to kernels gone (each source is 1.5 GB).
	 */
	if (prune_sub(o, "kernels", NULL, &gone, out, &t, e) < 0 ||
	    prune_sub(o, "rootfs", NULL, NULL, out, &t, e) < 0)
		goto out;
	folders_used(o, &gone, &srcs, &builds);
	if (prune_sub(o, "src", &srcs, NULL, out, &t, e) < 0 ||
	    prune_sub(o, "builds", &builds, NULL, out, &t, e) < 0)
		goto out;
	ret = 0;
	if (!t.entries) {
		fprintf(out, "nothing to remove in %s\n", o->cache);
		goto out;
	}
	size = human(t.bytes);
	fprintf(out, "%s %s in %d entr%s of %s\n", o->dry_run ? "would free" : "freed", size,
		t.entries, t.entries == 1 ? "y" : "ies", o->cache);
out:
	names_free(&gone);
	names_free(&srcs);
	names_free(&builds);
	return ret;
}
