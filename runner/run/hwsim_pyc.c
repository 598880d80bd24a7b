// SPDX-License-Identifier: MIT
/* hwsim_pyc.c - hostap's tests/hwsim, byte-compiled once and cached (hwsim_pyc.h). */
#define _GNU_SOURCE
#include "hwsim_pyc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most a set may hold: tests/hwsim has about 130 modules, 6 MB of bytecode. */
#define PYC_MAX_FILES 2048
#define PYC_MAX_SIZE  (16L << 20)

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int hwsim_pyc_key(const char *tree, char key[17], struct uerr *e)
{
	_cleanup_free_ char *dir = xasprintf("%s/tests/hwsim", tree);
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);
	struct hasher *h;
	char hex[65];
	int r = 0;

	if (n < 0)
		return uerr_sys(e, EXIT_USAGE, "--hostap=%s: cannot read %s", tree, dir);
	h = hasher_new();
	hasher_add_str(h, "umlrun hwsim pyc 1\n");
	for (int i = 0; i < n; i++) {
		const char *f = names[i]->d_name;

		if (!r && f[0] != '.' && ends_with(f, ".py")) {
			_cleanup_free_ char *path = xasprintf("%s/%s", dir, f);

			hasher_add_str(h, f);
			hasher_add_str(h, "\n");
			if ((r = hasher_add_file(h, path)) < 0) {
				errno = -r;
				uerr_sys(e, EXIT_INFRA, "hwsim: cannot read %s", path);
			}
		}
		free(names[i]);
	}
	free(names);
	hasher_final(h, hex);
	snprintf(key, 17, "%.16s", hex);
	return r < 0 ? -1 : 0;
}

char *hwsim_pyc_dir(const char *cache, const char *key)
{
	return xasprintf("%s/hostap/pyc-%s", cache, key);
}

/* NAME.TAG.pyc for a NAME.py of the tree's tests/hwsim: its NAME.py, or NULL. */
static char *source_of(const char *tree, const char *f)
{
	const char *dot = strchr(f, '.');
	_cleanup_free_ char *name = NULL;
	char *py;
	struct stat st;

	if (!dot || dot == f || !ends_with(f, ".pyc") || strchr(f, '/') ||
	    strspn(dot + 1, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(dot + 1) ||
	    strstr(dot + 1, ".."))
		return NULL;
	name = xstrndup(f, (size_t)(dot - f));
	py = xasprintf("%s/tests/hwsim/%s.py", tree, name);
	if (stat(py, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(py);
		return NULL;
	}
	return py;
}

int hwsim_pyc_keep(const char *out, const char *tree, const char *dest, struct uerr *e)
{
	_cleanup_free_ char *tmp = tmp_name(dest);
	struct dirent **names;
	int n = scandir(out, &names, NULL, by_name);
	int kept = 0, r = 0;

	if (n < 0)
		return uerr_sys(e, EXIT_INFRA, "hwsim: cannot read %s", out);
	if (rm_rf(tmp) < 0 || mkdir_p(tmp, 0755) < 0)
		r = uerr_sys(e, EXIT_INFRA, "hwsim: cannot create %s", tmp);
	for (int i = 0; i < n; i++) {
		const char *f = names[i]->d_name;
		_cleanup_free_ char *from = xasprintf("%s/%s", out, f);
		_cleanup_free_ char *to = xasprintf("%s/%s", tmp, f);
		_cleanup_free_ char *py = NULL;
		_cleanup_free_ char *data = NULL;
		struct stat st;
		size_t len;
		int w;

		if (r < 0 || !strcmp(f, ".") || !strcmp(f, "..")) {
			free(names[i]);
			continue;
		}
		/* What a guest wrote: never followed, never trusted for its size. */
		if (lstat(from, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > PYC_MAX_SIZE ||
		    kept >= PYC_MAX_FILES || !(py = source_of(tree, f)))
			r = uerr_set(e, EXIT_INFRA,
				     "hwsim: the compiled tests/hwsim hold %s, which is not the "
				     "bytecode of one of its modules: nothing kept",
				     f);
		else if ((w = read_file(from, &data, &len)) < 0 || len > PYC_MAX_SIZE ||
			 (w = write_file_atomic(to, data, len)) < 0) {
			errno = -w;
			r = uerr_sys(e, EXIT_INFRA, "hwsim: cannot copy %s to %s", from, to);
		} else {
			kept++;
		}
		free(names[i]);
	}
	free(names);
	if (!r && !kept)
		r = uerr_set(e, EXIT_INFRA, "hwsim: the compiling guest left no bytecode in %s",
			     out);
	if (!r && rename(tmp, dest) < 0 && errno != ENOTEMPTY && errno != EEXIST)
		r = uerr_sys(e, EXIT_INFRA, "hwsim: cannot rename %s to %s", tmp, dest);
	rm_rf(tmp); /* gone after the rename; a set kept by another umlrun meanwhile */
	return r < 0 ? -1 : 0;
}

int hwsim_pyc_link(const char *dir, const char *dest, struct uerr *e)
{
	_cleanup_free_ char *to_dir = xasprintf("%s/tests/hwsim/__pycache__", dest);
	struct dirent **names;
	int n, r = 0;

	if (mkdir_p(to_dir, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "hwsim: cannot create %s", to_dir);
	if ((n = scandir(dir, &names, NULL, by_name)) < 0)
		return uerr_sys(e, EXIT_INFRA, "hwsim: cannot read %s", dir);
	for (int i = 0; i < n; i++) {
		const char *f = names[i]->d_name;

		if (!r && ends_with(f, ".pyc")) {
			_cleanup_free_ char *from = xasprintf("%s/%s", dir, f);
			_cleanup_free_ char *to = xasprintf("%s/%s", to_dir, f);
			_cleanup_free_ char *data = NULL;
			size_t len;
			int w = 0;

			/* A hard link costs nothing; a copy across file systems. */
			if (link(from, to) < 0 && ((w = read_file(from, &data, &len)) < 0 ||
						   (w = write_file_atomic(to, data, len)) < 0)) {
				errno = -w;
				r = uerr_sys(e, EXIT_INFRA, "hwsim: cannot link %s to %s", from,
					     to);
			}
		}
		free(names[i]);
	}
	free(names);
	return r;
}
