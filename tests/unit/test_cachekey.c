// SPDX-License-Identifier: MIT
/* test_cachekey.c - the kernel cache key: what changes it, what does not. */
#define _GNU_SOURCE
#include "kernel_cache.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "tap.h"

static char *tmp;

static char *path_of(const char *rel)
{
	return xasprintf("%s/%s", tmp, rel);
}

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = path_of(rel);
	_cleanup_free_ char *dir = xstrdup(p);

	*strrchr(dir, '/') = '\0';
	mkdir_p(dir, 0755);
	if (write_file_atomic(p, text, strlen(text)) < 0)
		diag("cannot write %s", p);
}

static void set_mtime(const char *rel, time_t when)
{
	_cleanup_free_ char *p = path_of(rel);
	struct timespec ts[2] = { { when, 0 }, { when, 0 } };

	if (utimensat(AT_FDCWD, p, ts, 0) < 0)
		diag("cannot set the time of %s", p);
}

/* What fn (kernel_key, kernel_build_key) gives, or "error N: message". */
static char *key_by(int (*fn)(const struct kernel_opts *, char[65], struct uerr *),
		    const struct kernel_opts *o)
{
	char key[65];
	struct uerr e = { 0 };

	if (fn(o, key, &e) < 0)
		return xasprintf("error %d: %s", e.code, e.msg);
	return xstrdup(key);
}

/* The kernel's key, or "error N: message". */
static char *key_of(const struct kernel_opts *o)
{
	return key_by(kernel_key, o);
}

static bool is_key(const char *k)
{
	return strlen(k) == 64 && strspn(k, "0123456789abcdef") == 64;
}

static void test_tarball_key(void)
{
	_cleanup_free_ char *config_dir = path_of("uml-config");
	_cleanup_free_ char *tarball = path_of("linux-source-6.1.tar.xz");
	_cleanup_free_ char *user = path_of("mine/wifi.config");
	char *frags[] = { user };
	struct kernel_opts o = { .tarball = tarball, .config_dir = config_dir };
	_cleanup_free_ char *k1 = NULL;
	_cleanup_free_ char *k2 = NULL;
	char *k;

	put("uml-config/base.config", "CONFIG_UML_TIME_TRAVEL_SUPPORT=y\n");
	put("uml-config/net.config", "# Wireless\nCONFIG_MAC80211_HWSIM=m\n");
	put("uml-config/README", "not a fragment\n");
	put("linux-source-6.1.tar.xz", "not really a tarball\n");
	set_mtime("linux-source-6.1.tar.xz", 1700000000);
	put("mine/wifi.config", "CONFIG_CFG80211=y\n");

	k1 = key_of(&o);
	ok(is_key(k1), "key: 64 hex digits");
	if (!is_key(k1))
		diag("  got: %s", k1);
	k2 = key_of(&o);
	is_str(k2, k1, "key: the same inputs give the same key");

	put("uml-config/net.config", "# Wireless\nCONFIG_MAC80211_HWSIM=y\n");
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, k1), "key: a fragment's content changes it");
	free(k);
	put("uml-config/net.config", "# Wireless\nCONFIG_MAC80211_HWSIM=m\n");
	k = key_of(&o);
	is_str(k, k1, "key: content restored, key restored");
	free(k);

	put("uml-config/extra.config", "CONFIG_RTC_CLASS=y\n");
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, k1), "key: a new project fragment changes it");
	free(k);
	{
		_cleanup_free_ char *p = path_of("uml-config/extra.config");

		unlink(p);
	}
	put("uml-config/NOTES.txt", "not a fragment either\n");
	k = key_of(&o);
	is_str(k, k1, "key: files not named *.config do not count");
	free(k);

	o.fragments = frags;
	o.nfragments = 1;
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, k1), "key: a --config fragment changes it");
	{
		_cleanup_free_ char *again = key_of(&o);

		is_str(again, k, "key: with --config, stable");
	}
	put("mine/wifi.config", "CONFIG_CFG80211=m\n");
	{
		_cleanup_free_ char *changed = key_of(&o);

		ok(is_key(changed) && strcmp(changed, k),
		   "key: the --config file's content counts");
	}
	free(k);
	o.fragments = NULL;
	o.nfragments = 0;

	set_mtime("linux-source-6.1.tar.xz", 1700000001);
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, k1), "key: the tarball's mtime changes it");
	free(k);
	set_mtime("linux-source-6.1.tar.xz", 1700000000);
	put("linux-source-6.1.tar.xz", "not really a tarball, longer\n");
	set_mtime("linux-source-6.1.tar.xz", 1700000000);
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, k1), "key: the tarball's size changes it");
	free(k);
	put("linux-source-6.1.tar.xz", "not really a tarball\n");
	set_mtime("linux-source-6.1.tar.xz", 1700000000);
	k = key_of(&o);
	is_str(k, k1, "key: tarball restored, key restored");
	free(k);

	/* Moving the project (the same fragments elsewhere) reuses the cache. */
	{
		_cleanup_free_ char *moved = path_of("moved-config");
		struct kernel_opts m = o;

		put("moved-config/base.config", "CONFIG_UML_TIME_TRAVEL_SUPPORT=y\n");
		put("moved-config/net.config", "# Wireless\nCONFIG_MAC80211_HWSIM=m\n");
		m.config_dir = moved;
		k = key_of(&m);
		is_str(k, k1, "key: fragments by name and content, not folder");
		free(k);
	}
}

static void test_errors(void)
{
	_cleanup_free_ char *config_dir = path_of("uml-config");
	_cleanup_free_ char *tarball = path_of("linux-source-6.1.tar.xz");
	_cleanup_free_ char *bad = path_of("mine/bad.config");
	_cleanup_free_ char *missing_tarball = path_of("no-such-linux-source-6.1.tar.xz");
	_cleanup_free_ char *gone = path_of("mine/gone.config");
	char *bad_frags[] = { bad };
	char *gone_frags[] = { gone };
	struct kernel_opts o = { .tarball = tarball, .config_dir = config_dir };
	char *k;

	put("mine/bad.config", "CONFIG_CFG80211=y\nWIFI=on\n");
	o.fragments = bad_frags;
	o.nfragments = 1;
	k = key_of(&o);
	has_str(k, "error 2: ", "malformed --config fragment: exit 2");
	has_str(k, "bad.config:2", "malformed --config fragment: names file:line");
	free(k);

	o.fragments = gone_frags;
	k = key_of(&o);
	has_str(k, "error 2: ", "missing --config fragment: exit 2");
	has_str(k, "gone.config", "missing --config fragment: named");
	free(k);
	o.fragments = NULL;
	o.nfragments = 0;

	put("uml-config/broken.config", "CONFIG_OK=y\nbroken line\n");
	k = key_of(&o);
	has_str(k, "error 3: ", "malformed project fragment: exit 3");
	has_str(k, "broken.config:2", "malformed project fragment: names file:line");
	free(k);
	{
		_cleanup_free_ char *p = path_of("uml-config/broken.config");

		unlink(p);
	}

	o.tarball = missing_tarball;
	k = key_of(&o);
	has_str(k, "error 3: ", "missing tarball: exit 3");
	has_str(k, "apt-get install linux-source-" KERNEL_DEFAULT,
		"missing tarball: says what to install");
	free(k);
	o.tarball = tarball;

	{
		_cleanup_free_ char *nodir = path_of("no-config-dir");

		o.config_dir = nodir;
		k = key_of(&o);
		has_str(k, "error 3: ", "missing project config folder: exit 3");
		free(k);
		o.config_dir = config_dir;
	}
}

static void test_tree_key(void)
{
	_cleanup_free_ char *config_dir = path_of("uml-config");
	_cleanup_free_ char *tarball = path_of("linux-source-6.1.tar.xz");
	_cleanup_free_ char *tree = path_of("linux");
	_cleanup_free_ char *dirty = path_of("dirty-linux");
	_cleanup_free_ char *nowhere = path_of("no-such-tree");
	struct kernel_opts o = { .src = tree, .tarball = tarball, .config_dir = config_dir };
	struct kernel_opts t = { .tarball = tarball, .config_dir = config_dir };
	_cleanup_free_ char *k1 = NULL;
	_cleanup_free_ char *kt = NULL;
	char *k;

	put("linux/Makefile", "VERSION = 6\n");
	put("linux/kernel/time/timer.c", "/* timers */\n");
	put("linux/.git/HEAD", "ref: refs/heads/master\n");
	set_mtime("linux/kernel/time/timer.c", 1700000000);
	k1 = key_of(&o);
	kt = key_of(&t);
	ok(is_key(k1), "tree: a clean tree has a key");
	if (!is_key(k1))
		diag("  got: %s", k1);
	ok(strcmp(k1, kt), "tree: differs from the tarball's key");
	k = key_of(&o);
	is_str(k, k1, "tree: stable");
	free(k);

	set_mtime("linux/kernel/time/timer.c", 1700000005);
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, k1), "tree: a touched source file changes it");
	free(k);
	set_mtime("linux/kernel/time/timer.c", 1700000000);
	put("linux/.git/HEAD", "ref: refs/heads/other\n");
	k = key_of(&o);
	is_str(k, k1, "tree: .git does not count");
	free(k);

	put("dirty-linux/Makefile", "VERSION = 6\n");
	put("dirty-linux/.config", "CONFIG_UML=y\n");
	o.src = dirty;
	k = key_of(&o);
	has_str(k, "error 2: ", "tree with .config: exit 2");
	has_str(k, ".config", "tree with .config: names it");
	has_str(k, "mrproper", "tree with .config: says to run mrproper");
	free(k);
	is_str(kernel_tree_unclean(dirty), ".config", "kernel_tree_unclean names .config");
	is_str(kernel_tree_unclean(tree), NULL, "kernel_tree_unclean: clean tree");

	o.src = nowhere;
	k = key_of(&o);
	has_str(k, "error 2: ", "--kernel-src that does not exist: exit 2");
	free(k);
}

/* patches/NAME.patch go to every version, patches/SERIES/NAME.patch to SERIES only. */
static void test_series_patches(void)
{
	_cleanup_free_ char *config_dir = path_of("pcfg");
	_cleanup_free_ char *tarball = path_of("linux-source-6.1.tar.xz");
	struct kernel_opts o = { .tarball = tarball, .config_dir = config_dir };
	_cleanup_free_ char *none = NULL;
	_cleanup_free_ char *all = NULL;
	_cleanup_free_ char *v61 = NULL;
	_cleanup_free_ char *v612 = NULL;

	put("pcfg/base.config", "CONFIG_UML_TIME_TRAVEL_SUPPORT=y\n");
	none = key_of(&o);
	put("pcfg/patches/0001-all.patch", "--- a/x\n+++ b/x\n");
	all = key_of(&o);
	ok(is_key(all) && strcmp(all, none), "patches: one for every version changes the key");
	put("pcfg/patches/6.1/0002-old.patch", "--- a/y\n+++ b/y\n");
	o.series = "6.1";
	v61 = key_of(&o);
	ok(is_key(v61) && strcmp(v61, all), "patches: 6.1's own patch changes 6.1's key");
	o.series = "6.12";
	v612 = key_of(&o);
	is_str(v612, all, "patches: 6.1's own patch leaves 6.12's key alone");
}

/* The build folder's key, or "error N: message". */
static char *bkey_of(const struct kernel_opts *o)
{
	return key_by(kernel_build_key, o);
}

/* A build folder per configuration: named by fragments, not their content. */
static void test_build_folder(void)
{
	_cleanup_free_ char *config_dir = path_of("bf/uml-config");
	_cleanup_free_ char *tarball = path_of("linux-source-6.1.tar.xz");
	_cleanup_free_ char *a = path_of("bf/mine/a.config");
	_cleanup_free_ char *b = path_of("bf/other/a.config");
	_cleanup_free_ char *add = path_of("bf/cache/kunit-add/0123/kconfig_add.config");
	char *fa[] = { a }, *fb[] = { b }, *fadd[] = { a, add };
	struct kernel_opts o = { .tarball = tarball, .config_dir = config_dir };
	_cleanup_free_ char *base = NULL, *with_a = NULL, *key_a = NULL;
	char *k;

	put("bf/uml-config/guest.config", "CONFIG_HOSTFS=y\n");
	put("bf/mine/a.config", "CONFIG_KUNIT=y\n");
	put("bf/other/a.config", "CONFIG_KUNIT=y\n");
	put("bf/cache/kunit-add/0123/kconfig_add.config", "CONFIG_KUNIT_DEBUGFS=y\n");
	base = bkey_of(&o);
	ok(is_key(base), "build folder: 64 hex digits");
	put("bf/uml-config/guest.config", "CONFIG_HOSTFS=y\nCONFIG_TMPFS=y\n");
	k = bkey_of(&o);
	is_str(k, base, "build folder: a project fragment's edit keeps it (an incremental build)");
	free(k);
	o.fragments = fa;
	o.nfragments = 1;
	with_a = bkey_of(&o);
	key_a = key_of(&o);
	ok(is_key(with_a) && strcmp(with_a, base),
	   "build folder: another configuration (a --config fragment) has its own");
	put("bf/mine/a.config", "CONFIG_KUNIT=y\nCONFIG_KUNIT_TEST=y\n");
	k = bkey_of(&o);
	is_str(k, with_a, "build folder: the --config file's edit keeps it");
	free(k);
	o.fragments = fb;
	k = bkey_of(&o);
	ok(is_key(k) && strcmp(k, with_a),
	   "build folder: a fragment of the same name elsewhere is another configuration");
	free(k);
	o.fragments = fadd;
	o.nfragments = 2;
	k = bkey_of(&o);
	is_str(k, with_a, "build folder: kunit --kconfig_add builds in its kunitconfig's");
	free(k);
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, key_a), "build folder: ... while the kernel's key counts it");
	free(k);
}

/* A KUnit kernel: no defconfig, and of the project's fragments time-travel.config alone. */
static void test_kunit_kernel(void)
{
	_cleanup_free_ char *config_dir = path_of("kk/uml-config");
	_cleanup_free_ char *tarball = path_of("linux-source-6.1.tar.xz");
	struct kernel_opts o = { .tarball = tarball, .config_dir = config_dir };
	_cleanup_free_ char *guest_key = NULL, *kunit_key = NULL, *kunit_bkey = NULL;
	char *k;

	put("kk/uml-config/guest.config", "CONFIG_HOSTFS=y\n");
	put("kk/uml-config/time-travel.config", "CONFIG_UML_TIME_TRAVEL_SUPPORT=y\n");
	guest_key = key_of(&o);
	o.time_travel_only = true;
	kunit_key = key_of(&o);
	kunit_bkey = bkey_of(&o);
	ok(is_key(kunit_key) && strcmp(kunit_key, guest_key),
	   "kunit kernel: a key of its own (another base, other fragments)");
	put("kk/uml-config/guest.config", "CONFIG_HOSTFS=y\nCONFIG_TMPFS=y\n");
	k = key_of(&o);
	is_str(k, kunit_key, "kunit kernel: the guest's fragments are not in it");
	free(k);
	put("kk/uml-config/time-travel.config",
	    "CONFIG_UML_TIME_TRAVEL_SUPPORT=y\nCONFIG_FUTEX=y\n");
	k = key_of(&o);
	ok(is_key(k) && strcmp(k, kunit_key), "kunit kernel: time-travel.config is");
	free(k);
	k = bkey_of(&o);
	is_str(k, kunit_bkey, "kunit kernel: ... and its edit keeps the build folder");
	free(k);
}

int main(void)
{
	char tmpl[] = "/tmp/umlrun-cachekey.XXXXXX";

	plan(47);
	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return done_testing();
	}
	tmp = tmpl;
	test_tarball_key();
	test_errors();
	test_tree_key();
	test_series_patches();
	test_build_folder();
	test_kunit_kernel();
	rm_rf(tmp);
	return done_testing();
}
