// SPDX-License-Identifier: MIT
/*
 * test_rootfs.c - the root folder's key: rootfs/manifest and the extra
 * manifests after it (hwsim's, then tshark's with hwsim --tshark), and the
 * package kinds debian-packages gives them.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doctor.h"
#include "rootfs.h"
#include "tap.h"

static char top[] = "/tmp/test_rootfs.XXXXXX";

static char *at(const char *rel)
{
	return xasprintf("%s/%s", top, rel);
}

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = at(rel);

	if (write_file_atomic(p, text, strlen(text)) < 0)
		diag("cannot write %s", p);
}

/* The folder rootfs_locate gives for these extras (NULL-terminated), or "error: MSG". */
static char *dir_of(char **extras)
{
	_cleanup_free_ char *guestbin = at("project/build/guest");
	_cleanup_free_ char *project = at("project");
	char *dir = NULL;
	struct uerr e = { 0 };

	if (rootfs_locate(project, guestbin, extras, &dir, &e) < 0)
		return xasprintf("error %d: %s", e.code, e.msg);
	return dir;
}

static void test_key(void)
{
	char *hwsim = at("project/rootfs/manifest.hwsim");
	char *tshark = at("project/rootfs/manifest.tshark");
	char *joined = at("joined");
	char *missing = at("project/rootfs/manifest.none");
	char *one[] = { hwsim, NULL };
	char *both[] = { hwsim, tshark, NULL };
	char *swapped[] = { tshark, hwsim, NULL };
	char *as_one[] = { joined, NULL };
	char *bad[] = { hwsim, missing, NULL };
	_cleanup_free_ char *cache = at("cache/umlrun/rootfs/");
	_cleanup_free_ char *plain = dir_of(NULL);
	_cleanup_free_ char *empty = dir_of((char *[]){ NULL });
	_cleanup_free_ char *h = dir_of(one);
	_cleanup_free_ char *ht = dir_of(both);
	_cleanup_free_ char *ht2 = dir_of(both);
	_cleanup_free_ char *th = dir_of(swapped);
	_cleanup_free_ char *j = dir_of(as_one);
	_cleanup_free_ char *err = dir_of(bad);

	ok(!strncmp(plain, cache, strlen(cache)) && strlen(plain) == strlen(cache) + 16,
	   "the root folder is CACHE/rootfs/KEY (got %s)", plain);
	is_str(empty, plain, "no extras and an empty list: the same root");
	ok(strcmp(h, plain) != 0, "hwsim's manifest: a root of its own");
	ok(strcmp(ht, h) != 0 && strcmp(ht, plain) != 0,
	   "hwsim's and tshark's: a root of their own");
	is_str(ht2, ht, "the same inputs: the same root");
	ok(strcmp(th, ht) != 0, "the manifests' order is in the key");
	/* As rootfs/manifest and one extra were keyed: their texts joined by a newline. */
	is_str(j, ht, "two extras key as their texts joined by a newline, in one");
	ok(!strncmp(err, "error 3: cannot read ", 21) && strstr(err, "manifest.none"),
	   "an extra manifest that cannot be read: exit 3, named (%s)", err);
	put("project/rootfs/manifest.tshark", "package tshark\nbin /usr/bin/tshark\n");
	{
		_cleanup_free_ char *changed = dir_of(both);
		_cleanup_free_ char *h2 = dir_of(one);

		ok(strcmp(changed, ht) != 0,
		   "tshark's manifest edited: the tshark root's key moves");
		is_str(h2, h, "and the hwsim root's stays");
	}
	free(hwsim);
	free(tshark);
	free(joined);
	free(missing);
}

/* debian-packages' "tshark" kind: its own check, left out of "hwsim"'s. */
static void test_kinds(void)
{
	static const char list[] = "sh-umlrun-absent-1\tguest\n"
				   "python3-umlrun-absent-2\thwsim\n"
				   "tshark-umlrun-absent-3\ttshark\t# hwsim --tshark\n";
	_cleanup_free_ char *ts = doctor_kind_missing(list, "tshark");
	_cleanup_free_ char *hw = doctor_kind_missing(list, "hwsim");
	_cleanup_free_ char *none = doctor_kind_missing("x\tguest\n", "tshark");
	char **rest = doctor_packages_parse(list, "build check hwsim tshark");

	is_str(ts, "tshark-umlrun-absent-3", "--tshark's check: only the tshark kind");
	is_str(hw, "python3-umlrun-absent-2", "hwsim's check: not the tshark kind");
	ok(none == NULL, "no tshark line: nothing missing");
	ok(rest[0] && !strcmp(rest[0], "sh-umlrun-absent-1") && !rest[1],
	   "doctor's main list leaves the tshark kind out");
	strv_free(rest);
}

int main(void)
{
	plan(14);
	if (!mkdtemp(top)) {
		diag("cannot create %s", top);
		return 1;
	}
	{
		_cleanup_free_ char *cache = at("cache");

		mkdir(cache, 0755);
		setenv("XDG_CACHE_HOME", cache, 1);
	}
	{
		_cleanup_free_ char *d = at("project/rootfs");
		_cleanup_free_ char *g = at("project/build/guest");

		mkdir_p(d, 0755);
		mkdir_p(g, 0755);
	}
	/* No "package" lines: the key asks dpkg-query about none. */
	put("project/rootfs/manifest", "# the default root\nbin /bin/sh\n");
	put("project/rootfs/mkrootfs.sh", "#!/bin/sh\n");
	put("project/build/guest/init", "init");
	put("project/rootfs/manifest.hwsim", "bin /usr/bin/python3\n");
	put("project/rootfs/manifest.tshark", "bin /usr/bin/tshark\n");
	put("joined", "bin /usr/bin/python3\n\nbin /usr/bin/tshark\n");
	test_key();
	test_kinds();
	rm_rf(top);
	return done_testing();
}
