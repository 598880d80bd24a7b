// SPDX-License-Identifier: MIT
/* overlay_cache.c - laid overlays kept by what went into them (see overlay_cache.h). */
#define _GNU_SOURCE
#include "overlay_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* ---- the key ---- */

/* What a walk of one overlay saw: a line per entry, its path from the overlay's top. */
struct manifest {
	char *part[PATH_MAX / 2]; /* the names from the top to the current entry */
	char **lines;
	size_t n;
	int dfd_top;
};

static enum walk_step manifest_entry(int dfd, const char *name, const struct stat *st, int depth,
				     void *ctx)
{
	struct manifest *m = ctx;
	struct strbuf path = { 0 };
	char target[PATH_MAX] = "";

	if (depth < 1 || depth > (int)(sizeof(m->part) / sizeof(m->part[0])))
		return WALK_STOP;
	free(m->part[depth - 1]);
	m->part[depth - 1] = xstrdup(name);
	for (int i = 0; i < depth; i++)
		sb_printf(&path, "%s%s", i ? "/" : "", m->part[i]);
	if (S_ISLNK(st->st_mode)) {
		ssize_t l = readlinkat(dfd, name, target, sizeof(target) - 1);

		target[l > 0 ? l : 0] = '\0';
	}
	m->lines = xrealloc(m->lines, (m->n + 1) * sizeof(*m->lines));
	m->lines[m->n++] =
	    xasprintf("%s\t%o\t%lld\t%lld.%09ld\t%lld.%09ld\t%s", path.buf, (unsigned)st->st_mode,
		      (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		      (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec, target);
	sb_release(&path);
	return S_ISDIR(st->st_mode) ? WALK_ENTER : WALK_NEXT;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int hash_dir(struct hasher *h, const char *dir, struct uerr *e)
{
	struct manifest m = { .lines = NULL };
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return uerr_sys(e, EXIT_USAGE, "--overlay=%s: cannot read it", dir);
	r = walk_at(fd, manifest_entry, &m);
	/* Sorted: readdir's order is no part of what the overlay holds. */
	qsort(m.lines, m.n, sizeof(*m.lines), cmp_str);
	hasher_add_str(h, dir);
	for (size_t i = 0; i < m.n; i++) {
		hasher_add_str(h, m.lines[i]);
		free(m.lines[i]);
	}
	free(m.lines);
	for (size_t i = 0; i < sizeof(m.part) / sizeof(m.part[0]); i++)
		free(m.part[i]);
	if (r < 0)
		return uerr_set(e, EXIT_USAGE,
				"--overlay=%s: cannot walk it whole (a folder it cannot read, or "
				"more than %d levels)",
				dir, (int)(sizeof(m.part) / sizeof(m.part[0])));
	return 0;
}

int overlay_key(const char *rootfs, const char *script, char *const *dirs, size_t n, char key[65],
		struct uerr *e)
{
	struct hasher *h = hasher_new();
	int r;

	hasher_add_str(h, "umlrun-overlay-1");
	hasher_add_str(h, rootfs);
	if ((r = hasher_add_file(h, script)) < 0) {
		hasher_final(h, key);
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", script);
	}
	for (size_t i = 0; i < n; i++)
		if (hash_dir(h, dirs[i], e) < 0) {
			hasher_final(h, key);
			return -1;
		}
	hasher_final(h, key);
	return 0;
}

/* ---- the entries ---- */

static char *entry_path(const char *key)
{
	_cleanup_free_ char *root = cache_root();

	return xasprintf("%s/overlays/%s", root, key);
}

/* "SIZE MTIME CTIME PATH" of a host library, as recorded and as found now. */
static char *lib_line(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return NULL;
	return xasprintf("%lld %lld.%09ld %lld.%09ld %s", (long long)st.st_size,
			 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			 (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec, path);
}

/* Whether every host library the entry recorded is still as it was. */
static bool libs_unchanged(const char *text)
{
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		_cleanup_free_ char *line = xstrndup(p, (size_t)(nl - p));
		const char *path = line;
		_cleanup_free_ char *now = NULL;

		for (int i = 0; i < 3 && path; i++)
			path = (path = strchr(path, ' ')) ? path + 1 : NULL;
		if (*line && (!path || !(now = lib_line(path)) || strcmp(now, line)))
			return false;
		p = *nl ? nl + 1 : nl;
	}
	return true;
}

char *overlay_cache_get(const char *key)
{
	_cleanup_free_ char *entry = entry_path(key);
	_cleanup_free_ char *libs = xasprintf("%s/libs", entry);
	_cleanup_free_ char *text = NULL;
	char *laid = xasprintf("%s/root", entry);

	if (!is_dir(laid) || read_file(libs, &text, NULL) < 0 || !libs_unchanged(text)) {
		free(laid);
		return NULL;
	}
	/* Used now: the last to be removed. */
	utimensat(AT_FDCWD, entry, NULL, 0);
	return laid;
}

struct aged {
	char *path;
	struct timespec used;
};

static int cmp_newest_first(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec > y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec > y->used.tv_nsec ? -1 : 1;
	return 0;
}

/* Keeps the OVERLAY_CACHE_KEEP entries used last. */
static void evict(const char *base)
{
	DIR *d = opendir(base);
	struct aged *v = NULL;
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = xasprintf("%s/%s", base, de->d_name);
		struct stat st;

		if (strlen(de->d_name) != 64 || strspn(de->d_name, "0123456789abcdef") != 64 ||
		    lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = (struct aged){ steal_ptr(&path), st.st_mtim };
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_newest_first);
	for (size_t i = 0; i < n; i++) {
		if (i >= OVERLAY_CACHE_KEEP)
			rm_rf(v[i].path);
		free(v[i].path);
	}
	free(v);
}

int overlay_cache_put(const char *key, const char *root, char *const *libs)
{
	_cleanup_free_ char *entry = entry_path(key);
	_cleanup_free_ char *base = xstrdup(entry);
	_cleanup_free_ char *tmp = tmp_name(entry);
	_cleanup_free_ char *tmp_root = xasprintf("%s/root", tmp);
	_cleanup_free_ char *tmp_libs = xasprintf("%s/libs", tmp);
	char *argv[] = { "cp", "-al", (char *)root, tmp_root, NULL };
	struct strbuf sb = { 0 };
	int r = 0, st;

	*strrchr(base, '/') = '\0';
	if (mkdir_p(base, 0755) < 0)
		return -errno;
	sweep_stale_tmp(base);
	if (mkdir(tmp, 0755) < 0)
		return -errno;
	for (size_t i = 0; libs && libs[i]; i++) {
		_cleanup_free_ char *line = lib_line(libs[i]);

		if (line)
			sb_printf(&sb, "%s\n", line);
	}
	st = run_argv(argv, -1);
	if (st != 0)
		r = st < 0 ? st : -EIO;
	else
		r = write_file_atomic(tmp_libs, sb.buf ? sb.buf : "", sb.len);
	sb_release(&sb);
	if (r == 0 && rename(tmp, entry) < 0) {
		r = -errno;
		/* One there already: another run's stays, one whose libraries changed goes. */
		if (r == -ENOTEMPTY || r == -EEXIST) {
			_cleanup_free_ char *laid = overlay_cache_get(key);

			r = 0;
			if (!laid && (rm_rf(entry), rename(tmp, entry) < 0))
				r = -errno;
		}
	}
	if (is_dir(tmp))
		rm_rf(tmp);
	evict(base);
	return r;
}
