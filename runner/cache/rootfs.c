// SPDX-License-Identifier: MIT
/* rootfs.c - check the packages, key the cache, run mkrootfs.sh. */
#define _GNU_SOURCE
#include "rootfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* The "package NAME" lines of the manifest, as an argv tail. */
static size_t manifest_packages(const char *text, char ***out)
{
	char **v = NULL;
	size_t n = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, "package ", 8)) {
			v = xrealloc(v, (n + 2) * sizeof(*v));
			v[n++] = xstrndup(p + 8, (size_t)(nl - p - 8));
			v[n] = NULL;
		}
		p = *nl ? nl + 1 : nl;
	}
	*out = v;
	return n;
}

/* "NAME ii VERSION" lines for the installed packages among names. */
static char *package_versions(char **names, size_t n)
{
	char **argv = xcalloc(n + 4, sizeof(char *));
	char *out;
	int st;

	argv[0] = "dpkg-query";
	argv[1] = "-W";
	argv[2] = "-f=${Package} ${db:Status-Abbrev}${Version}\n";
	for (size_t i = 0; i < n; i++)
		argv[3 + i] = names[i];
	out = capture_argv(argv, &st);
	free(argv);
	return out ? out : xstrdup("");
}

bool dpkg_shows_installed(const char *dpkg_output, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = dpkg_output; *p;) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, name, l) && p[l] == ' ' && !strncmp(p + l + 1, "ii", 2))
			return true;
		p = *nl ? nl + 1 : nl;
	}
	return false;
}

char *rootfs_missing_packages(const char *manifest_text)
{
	char **names;
	size_t n = manifest_packages(manifest_text, &names);
	_cleanup_free_ char *versions = package_versions(names, n);
	struct strbuf sb = { 0 };

	for (size_t i = 0; i < n; i++)
		if (!dpkg_shows_installed(versions, names[i]))
			sb_printf(&sb, "%s%s", sb.len ? " " : "", names[i]);
	strv_free(names);
	return sb.len ? sb_detach(&sb) : NULL;
}

static int hash_dir_files(struct hasher *h, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			_cleanup_free_ char *p = xasprintf("%s/%s", dir, names[i]->d_name);

			hasher_add_str(h, names[i]->d_name);
			hasher_add_file(h, p);
		}
		free(names[i]);
	}
	free(names);
	return 0;
}

/*
 * The manifest's text: rootfs/manifest, then each extra one's lines in
 * order (a suite's own root, e.g. rootfs/manifest.hwsim), as mkrootfs.sh
 * reads them. Without extras, the text is rootfs/manifest's alone; with
 * one, the two joined by a newline, as before extras were a list: the
 * keys of the roots already cached stay.
 */
static int manifest_text(const char *project_dir, char *const *extras, char **text, struct uerr *e)
{
	_cleanup_free_ char *manifest = xasprintf("%s/rootfs/manifest", project_dir);
	struct strbuf sb = { 0 };
	char *one = NULL;

	if (read_file(manifest, &one, NULL) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", manifest);
	sb_adds(&sb, one);
	free(one);
	for (size_t i = 0; extras && extras[i]; i++) {
		if (read_file(extras[i], &one, NULL) < 0) {
			sb_release(&sb);
			return uerr_sys(e, EXIT_INFRA, "cannot read %s", extras[i]);
		}
		sb_adds(&sb, "\n");
		sb_adds(&sb, one);
		free(one);
	}
	*text = sb_detach(&sb);
	return 0;
}

/* The folder the current inputs select, built or not; *text is the manifest. */
static int rootfs_locate_text(const char *project_dir, const char *guestbin, char *const *extras,
			      char **text, char **dir, struct uerr *e)
{
	_cleanup_free_ char *script = xasprintf("%s/rootfs/mkrootfs.sh", project_dir);
	_cleanup_free_ char *versions = NULL;
	_cleanup_free_ char *cache = cache_root();
	struct hasher *h;
	char **names, key[65];
	size_t n;

	*dir = NULL;
	if (manifest_text(project_dir, extras, text, e) < 0)
		return -1;
	n = manifest_packages(*text, &names);
	versions = package_versions(names, n);
	strv_free(names);
	h = hasher_new();
	hasher_add_str(h, *text);
	hasher_add_str(h, versions);
	if (hasher_add_file(h, script) < 0 || hash_dir_files(h, guestbin) < 0) {
		hasher_final(h, key);
		return uerr_sys(e, EXIT_INFRA, "cannot read %s or %s", script, guestbin);
	}
	hasher_final(h, key);
	*dir = xasprintf("%s/rootfs/%.16s", cache, key);
	return 0;
}

int rootfs_locate(const char *project_dir, const char *guestbin, char *const *extras, char **dir,
		  struct uerr *e)
{
	_cleanup_free_ char *text = NULL;

	return rootfs_locate_text(project_dir, guestbin, extras, &text, dir, e);
}

/*
 * What the root folder held when it was assembled: one line per entry,
 * in name order, "MODE SIZE PATH" (a link's SIZE is its target). Kept as
 * KEY.files; a root folder that no longer matches it (a program cut
 * short, a folder chmod 700, outside umlrun) would fail every test as if
 * the tests were wrong.
 */
static void inventory(const char *top, const char *rel, struct strbuf *sb)
{
	_cleanup_free_ char *path = *rel ? xasprintf("%s/%s", top, rel) : xstrdup(top);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);

	if (n < 0) {
		sb_printf(sb, "unreadable %s\n", rel);
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		_cleanup_free_ char *sub = *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name);
		_cleanup_free_ char *full = xasprintf("%s/%s", top, sub);
		struct stat st;

		if (strcmp(name, ".") && strcmp(name, "..")) {
			if (lstat(full, &st) < 0) {
				sb_printf(sb, "gone %s\n", sub);
			} else if (S_ISLNK(st.st_mode)) {
				char target[4096];
				ssize_t l = readlink(full, target, sizeof(target) - 1);

				target[l < 0 ? 0 : l] = '\0';
				sb_printf(sb, "%o %s %s\n", (unsigned)st.st_mode, target, sub);
			} else {
				sb_printf(sb, "%o %lld %s\n", (unsigned)st.st_mode,
					  S_ISREG(st.st_mode) ? (long long)st.st_size : 0LL, sub);
				if (S_ISDIR(st.st_mode))
					inventory(top, sub, sb);
			}
		}
		free(names[i]);
	}
	free(names);
}

/* The folder, its init, /usr and busybox: read and run (folders: entered) by others. */
static bool readable_by_all(const char *dir)
{
	static const char *const parts[] = { "", "/init", "/usr", "/usr/bin", "/usr/bin/busybox" };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		_cleanup_free_ char *path = xasprintf("%s%s", dir, parts[i]);
		struct stat st;

		if (stat(path, &st) == 0 && (st.st_mode & 0005) != 0005)
			return false;
	}
	return true;
}

/* The first line where two inventories differ (its path), or NULL when they match. */
static char *inventory_difference(const char *want, const char *have)
{
	size_t i = 0, start = 0;

	while (want[i] && want[i] == have[i]) {
		if (want[i] == '\n')
			start = i + 1;
		i++;
	}
	if (!want[i] && !have[i])
		return NULL;
	{
		/* "MODE SIZE PATH": the path is after the second blank. */
		const char *line = want[start] ? want + start : have + start;
		const char *end = strchr(line, '\n');
		const char *blank = strchr(line, ' ');
		const char *path = blank ? strchr(blank + 1, ' ') : NULL;

		if (!path || (end && path > end))
			return xstrdup("its list of files");
		path++;
		return end ? xstrndup(path, (size_t)(end - path)) : xstrdup(path);
	}
}

int rootfs_ensure(const char *project_dir, const char *guestbin, char *const *extras, char **dir,
		  void (*say)(void *ctx, bool transient, const char *text), void *say_ctx,
		  struct uerr *e)
{
	_cleanup_free_ char *manifest = xasprintf("%s/rootfs/manifest", project_dir);
	_cleanup_free_ char *script = xasprintf("%s/rootfs/mkrootfs.sh", project_dir);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *missing = NULL;
	_cleanup_free_ char *root = NULL;
	_cleanup_free_ char *tmp = NULL;
	_cleanup_free_ char *log = NULL;
	_cleanup_free_ char *init = xasprintf("%s/init", guestbin);
	_cleanup_close_ int log_fd = -1;
	int st;

	*dir = NULL;
	if (rootfs_locate_text(project_dir, guestbin, extras, &text, dir, e) < 0)
		return -1;
	missing = rootfs_missing_packages(text);
	if (missing || !path_exists(init)) {
		free(steal_ptr(dir));
		if (!missing)
			return uerr_set(e, EXIT_INFRA, "%s is missing: run 'make' first", init);
		return uerr_set(e, EXIT_INFRA,
				"Debian packages missing for the guest: %s; install them with "
				"'apt-get install %s' (or run ./run-tests.sh as root)",
				missing, missing);
	}
	if (is_dir(*dir)) {
		_cleanup_free_ char *its_init = xasprintf("%s/init", *dir);
		_cleanup_free_ char *its_sh = xasprintf("%s/usr/bin/busybox", *dir);
		_cleanup_free_ char *files = xasprintf("%s.files", *dir);
		_cleanup_free_ char *want = NULL;
		_cleanup_free_ char *differs = NULL;
		struct strbuf have = { 0 };

		inventory(*dir, "", &have);
		/* A folder from before the list: its list is made now, as it is. */
		if (read_file(files, &want, NULL) < 0)
			(void)!write_file_atomic(files, have.buf ? have.buf : "", have.len);
		else
			differs = inventory_difference(want, have.buf ? have.buf : "");
		sb_release(&have);
		/* Assembled under a umask of 077 by an older umlrun: the guest's user reads
		 * nothing. */
		if (!differs && !readable_by_all(*dir))
			differs = xstrdup("not readable by the guest's user");
		if (path_exists(its_init) && path_exists(its_sh) && !differs) {
			/* Used now: `umlrun prune` spares what was used lately. */
			utimensat(AT_FDCWD, *dir, NULL, 0);
			return 0;
		}
		/* Emptied, cut short or changed outside umlrun: every guest would fail. */
		if (differs)
			say_through(
			    say, say_ctx, false,
			    "the cached root folder %s changed since it was assembled (%s): "
			    "assembling it again",
			    *dir, differs);
		else
			say_through(say, say_ctx, false,
				    "the cached root folder %s is incomplete (no init or busybox): "
				    "assembling it again",
				    *dir);
		/* The list stays: a folder left half removed will not match it either. */
		if (rm_rf(*dir) < 0 && is_dir(*dir))
			return uerr_sys(e, EXIT_INFRA, "cannot remove %s", *dir);
	}
	/* CACHE/rootfs, the folder *dir goes in. */
	root = xasprintf("%.*s", (int)(strrchr(*dir, '/') - *dir), *dir);
	if (mkdir_p(root, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", root);
	sweep_stale_tmp(root);
	tmp = tmp_name(*dir);
	log = xasprintf("%s.log", *dir);
	rm_rf(tmp);
	log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", log);
	{
		/* sh SCRIPT OUT MANIFEST GUESTBIN EXTRA... */
		size_t n = 0;
		char **argv;

		while (extras && extras[n])
			n++;
		argv = xcalloc(n + 6, sizeof(char *));
		argv[0] = "sh";
		argv[1] = script;
		argv[2] = tmp;
		argv[3] = manifest;
		argv[4] = (char *)guestbin;
		for (size_t i = 0; i < n; i++)
			argv[5 + i] = extras[i];
		scratch_push(tmp);
		st = run_argv(argv, log_fd);
		scratch_pop(tmp);
		free(argv);
	}
	/* Another umlrun may have finished the same folder first: use theirs. */
	if (st == 0 && rename(tmp, *dir) < 0 && is_dir(*dir)) {
		rm_rf(tmp);
		return 0;
	}
	if (st != 0 || !is_dir(*dir)) {
		rm_rf(tmp);
		free(steal_ptr(dir));
		return uerr_set(e, EXIT_INFRA,
				"assembling the guest's root folder failed (log: %s)", log);
	}
	{
		_cleanup_free_ char *files = xasprintf("%s.files", *dir);
		struct strbuf have = { 0 };

		inventory(*dir, "", &have);
		(void)!write_file_atomic(files, have.buf ? have.buf : "", have.len);
		sb_release(&have);
	}
	return 0;
}
