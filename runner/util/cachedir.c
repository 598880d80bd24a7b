// SPDX-License-Identifier: MIT
/*
 * cachedir.c - the cache folder (where, and whether it may be used), the names
 * of entries being made (PID and PID namespace), owner files, and
 * sweeping what an interrupted umlrun left.
 */
#define _GNU_SOURCE
#include "cachedir.h"

#include "alloc.h"
#include "fs.h"
#include "msg.h"

#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * ${XDG_CACHE_HOME:-~/.cache}/umlrun. A relative XDG_CACHE_HOME is ignored
 * (the XDG spec says so: it would mean another folder from every working
 * folder), and without an absolute HOME the user's home comes from the
 * password database, never a shared folder such as /tmp. NULL when there
 * is no home at all.
 */
char *cache_path(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct passwd *pw;
	static bool warned;

	if (xdg && xdg[0] == '/')
		return xasprintf("%s/umlrun", xdg);
	if (!home || home[0] != '/')
		home = (pw = getpwuid(geteuid())) && pw->pw_dir ? pw->pw_dir : NULL;
	if (!home || home[0] != '/')
		return NULL;
	/* A CI's cache paths are relative (GitLab): say where the cache went. */
	if (xdg && *xdg && !warned) {
		warned = true;
		warn("XDG_CACHE_HOME=%s is not an absolute path, so it is ignored (the XDG rule): "
		     "the cache is %s/.cache/umlrun; give it as $PWD/%s",
		     xdg, home, xdg);
	}
	return xasprintf("%s/.cache/umlrun", home);
}

/*
 * A cache not made yet is made when first needed, in a folder that is
 * there: XDG_CACHE_HOME, or HOME (whose .cache may be new). Not in one
 * that is not (HOME=/nonexistent, a typo): that made the whole path and
 * built a kernel there, unasked.
 */
static char *cache_parent_problem(const char *root)
{
	_cleanup_free_ char *parent = xstrdup(root);
	char *slash = strrchr(parent, '/');
	struct stat st;

	if (!slash)
		return NULL;	       /* cache_path's are absolute */
	slash[slash == parent] = '\0'; /* "/umlrun": "/" */
	if (stat(parent, &st) == 0)
		return NULL;
	slash = strrchr(parent, '/');
	if (slash && !strcmp(slash, "/.cache")) {
		slash[slash == parent] = '\0';
		if (stat(parent, &st) == 0)
			return NULL;
	}
	return xasprintf("the cache %s cannot be made: %s does not exist (as HOME or "
			 "XDG_CACHE_HOME names it); create it, or set XDG_CACHE_HOME to a folder "
			 "that exists",
			 root, parent);
}

/*
 * umlrun runs what its cache holds (kernels, build trees): a cache that
 * another user (root aside) owns, or that every user may write to, could
 * run code as us. Why the cache folder root (NULL: cache_path found no
 * home) must not be used, or NULL when it is fine.
 */
char *cache_problem(const char *root)
{
	struct stat st;

	if (!root)
		return xstrdup("no folder for the cache: set XDG_CACHE_HOME (or HOME) to an "
			       "absolute path");
	if (stat(root, &st) < 0) {
		if (errno == ENOENT)
			return cache_parent_problem(root);
		return xasprintf("the cache %s cannot be used: %s; set XDG_CACHE_HOME (or HOME) to "
				 "a folder",
				 root, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return xasprintf("the cache %s is not a folder; remove it, or set XDG_CACHE_HOME "
				 "to a folder",
				 root);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return xasprintf("the cache %s belongs to another user (uid %u): umlrun runs what "
				 "its cache holds; use a folder of your own (XDG_CACHE_HOME=DIR)",
				 root, (unsigned)st.st_uid);
	if (st.st_mode & S_IWOTH)
		return xasprintf("the cache %s is writable by every user: umlrun runs what its "
				 "cache holds; 'chmod o-w %s' or use a folder of your own "
				 "(XDG_CACHE_HOME=DIR)",
				 root, root);
	return NULL;
}

char *cache_root(void)
{
	char *root = cache_path();
	char *problem;

	if ((problem = cache_problem(root)))
		die(EXIT_USAGE, "%s", problem);
	return root;
}

/*
 * What an interrupted umlrun left in a cache folder (NAME.tmp-PID of a
 * process that is gone, untouched for an hour: a PID that seems gone may
 * be another PID namespace's, sharing the cache): never mistaken for a
 * finished entry, but removed so that it does not pile up (an extracted
 * kernel source is 1.3 GB).
 */

/* This process's PID namespace, as the inode of /proc/self/ns/pid (0: unknown). */
static unsigned long long pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

char *owner_text(void)
{
	return xasprintf("%ld %llu\n", (long)getpid(), pid_ns());
}

bool owner_gone(const char *text)
{
	char *end;
	long pid;
	unsigned long long ns;

	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || pid <= 0)
		return false;
	ns = strtoull(end, NULL, 10);
	/* Another PID namespace's PID says nothing of this one's processes. */
	if (ns && ns != pid_ns())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

char *tmp_suffix(void)
{
	return xasprintf("%ld.ns%llu", (long)getpid(), pid_ns());
}

char *tmp_name(const char *path)
{
	_cleanup_free_ char *suffix = tmp_suffix();

	return xasprintf("%s.tmp-%s", path, suffix);
}

int tmp_staleness(const char *name)
{
	const char *t = strstr(name, ".tmp-");
	char *end;
	long pid;
	unsigned long long ns = 0;

	if (!t)
		return 0;
	errno = 0;
	pid = strtol(t + 5, &end, 10);
	if (errno || pid <= 0)
		return 0;
	if (!strncmp(end, ".ns", 3)) {
		char *nsend;

		ns = strtoull(end + 3, &nsend, 10);
		end = nsend;
	}
	if (*end || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;
	/* The PID is of our namespace: its process is gone for sure. */
	return ns && ns == pid_ns() ? TMP_STALE : TMP_STALE_IF_OLD;
}

void sweep_stale_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		int stale = tmp_staleness(de->d_name);
		_cleanup_free_ char *path = NULL;
		struct stat st;

		if (!stale)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (stale == TMP_STALE ||
		    (lstat(path, &st) == 0 && st.st_mtime < time(NULL) - STALE_TMP_AGE))
			rm_rf(path);
	}
	closedir(d);
}
