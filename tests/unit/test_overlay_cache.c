// SPDX-License-Identifier: MIT
/* test_overlay_cache.c - laid overlays kept, and never served once their inputs changed. */
#define _GNU_SOURCE
#include "overlay_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

static char tmp[] = "/tmp/umlrun-test-ovc-XXXXXX";

static char *in_tmp(const char *rel)
{
	return xasprintf("%s/%s", tmp, rel);
}

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = in_tmp(rel);
	_cleanup_free_ char *dir = xstrdup(p);

	*strrchr(dir, '/') = '\0';
	mkdir_p(dir, 0755);
	write_file_atomic(p, text, strlen(text));
}

static void key_of(char *const *dirs, size_t n, char key[65])
{
	_cleanup_free_ char *script = in_tmp("overlay.sh");
	struct uerr e = { 0 };

	if (overlay_key("/cache/rootfs/K", script, dirs, n, key, &e) < 0) {
		diag("overlay_key: %s", e.msg);
		key[0] = '\0';
	}
}

/* The key: what the overlays hold, in their order, and the script that lays them. */
static void test_key(void)
{
	_cleanup_free_ char *a = in_tmp("ov/a"), *b = in_tmp("ov/b");
	_cleanup_free_ char *f = in_tmp("ov/a/usr/bin/tool");
	char *ab[] = { a, b }, *ba[] = { b, a };
	char k1[65], k2[65], k3[65], k4[65], k5[65], k6[65];
	struct stat st;
	struct timespec keep[2];

	put("overlay.sh", "#!/bin/sh\n");
	put("ov/a/usr/bin/tool", "version 1\n");
	put("ov/b/etc/conf", "x\n");
	key_of(ab, 2, k1);
	key_of(ab, 2, k2);
	ok(k1[0] && !strcmp(k1, k2), "the same overlays: the same key");
	key_of(ba, 2, k3);
	ok(strcmp(k1, k3) != 0, "the overlays in another order: another key");
	/* Rewritten in place, same size, its modification time set back. */
	stat(f, &st);
	keep[0] = st.st_atim;
	keep[1] = st.st_mtim;
	put("ov/a/usr/bin/tool", "version 2\n");
	utimensat(AT_FDCWD, f, keep, 0);
	key_of(ab, 2, k4);
	ok(strcmp(k1, k4) != 0,
	   "a file rewritten, its size and mtime kept: another key (its ctime)");
	put("ov/b/etc/new", "y\n");
	key_of(ab, 2, k5);
	ok(strcmp(k4, k5) != 0, "a file added: another key");
	put("overlay.sh", "#!/bin/sh\n# changed\n");
	key_of(ab, 2, k6);
	ok(strcmp(k5, k6) != 0, "overlay.sh changed: another key");
}

/* An entry put is got back, until a host library it recorded changes. */
static void test_entries(void)
{
	_cleanup_free_ char *cache = in_tmp("cache");
	_cleanup_free_ char *root = in_tmp("stage/root");
	_cleanup_free_ char *lib = in_tmp("host/libfoo.so.1");
	_cleanup_free_ char *staged = in_tmp("stage/root/usr/bin/tool");
	_cleanup_free_ char *got = NULL, *file = NULL, *again = NULL;
	char *libs[] = { lib, NULL };
	const char *key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	struct stat a, b;

	setenv("XDG_CACHE_HOME", cache, 1);
	mkdir_p(cache, 0755);
	put("stage/root/usr/bin/tool", "laid\n");
	put("host/libfoo.so.1", "lib v1\n");
	ok(!overlay_cache_get(key), "nothing cached yet: a miss");
	is_int(overlay_cache_put(key, root, libs), 0, "the laid root put");
	got = overlay_cache_get(key);
	file = got ? xasprintf("%s/usr/bin/tool", got) : NULL;
	ok(file && stat(file, &a) == 0 && stat(staged, &b) == 0 && a.st_ino == b.st_ino,
	   "got back: hard links of the stage's root");
	put("host/libfoo.so.1", "lib v2, longer\n");
	again = overlay_cache_get(key);
	ok(!again, "a host library it added changed since: a miss (laid again)");
	is_int(overlay_cache_put(key, root, libs), 0, "laid again: put over the old entry");
	free(again);
	again = overlay_cache_get(key);
	ok(again != NULL, "and got back");
	for (int i = 0; i < OVERLAY_CACHE_KEEP + 2; i++) {
		_cleanup_free_ char *k = xasprintf("%064x", i + 1);

		overlay_cache_put(k, root, NULL);
	}
	{
		_cleanup_free_ char *base = xasprintf("%s/umlrun/overlays", cache);
		struct dirent **names;
		int n = scandir(base, &names, NULL, NULL), dirs = 0;

		for (int i = 0; i < n; i++) {
			dirs += names[i]->d_name[0] != '.';
			free(names[i]);
		}
		free(names);
		is_int(dirs, OVERLAY_CACHE_KEEP, "the cache keeps the entries used last, no more");
	}
}

int main(void)
{
	plan(5 + 7);
	if (!mkdtemp(tmp))
		return 1;
	test_key();
	test_entries();
	rm_rf(tmp);
	return done_testing();
}
