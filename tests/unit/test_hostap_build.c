// SPDX-License-Identifier: MIT
/* test_hostap_build.c - what a hostap tree is, and what its cache key hashes. */
#define _GNU_SOURCE
#include "hostap_build.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

static char *top;

/* TOP/rel with text in it, its folders made. */
static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", top, rel);
	_cleanup_free_ char *parent = xstrdup(path);

	*strrchr(parent, '/') = '\0';
	if (mkdir_p(parent, 0755) < 0 || write_file_atomic(path, text, strlen(text)) < 0)
		diag("cannot write %s", path);
}

static void drop(const char *rel)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", top, rel);

	unlink(path);
}

static void test_tree_check(void)
{
	_cleanup_free_ char *gone = xasprintf("%s/nothing-here", top);
	struct uerr e = { 0 };

	ok(hostap_tree_check(gone, &e) == -1 && e.code == EXIT_USAGE,
	   "tree check: no such folder, exit 2");
	memset(&e, 0, sizeof(e));
	ok(hostap_tree_check(top, &e) == -1 && e.code == EXIT_USAGE,
	   "tree check: an empty folder, exit 2");
	has_str(e.msg, "is not a hostap tree (no tests/hwsim/run-tests.py); give a hostap checkout",
		"tree check: the line names what is missing");
	put("tests/hwsim/run-tests.py", "#!/usr/bin/env python3\n");
	put("hostapd/Makefile", "ALL=hostapd hostapd_cli\n");
	put("tests/hwsim/example-hostapd.config", "CONFIG_DRIVER_NL80211=y\n");
	put("tests/hwsim/example-wpa_supplicant.config", "CONFIG_DRIVER_NL80211=y\n");
	memset(&e, 0, sizeof(e));
	ok(hostap_tree_check(top, &e) == -1 && e.code == EXIT_USAGE,
	   "tree check: no wpa_supplicant/Makefile, exit 2");
	has_str(e.msg, "(no wpa_supplicant/Makefile)", "tree check: names wpa_supplicant/Makefile");
	has_str(e.msg, "--hostap=", "tree check: the line names the option");
	put("wpa_supplicant/Makefile", "ALL = $(BINALL)\n");
	memset(&e, 0, sizeof(e));
	is_int(hostap_tree_check(top, &e), 0, "tree check: the complete layout is a hostap tree");
}

static bool key_of(char out[17])
{
	struct uerr e = { 0 };

	if (hostap_build_key(top, out, &e) < 0) {
		diag("%s", e.msg);
		return false;
	}
	return true;
}

/* Whether the key after a change is the key before it (want_same) or another. */
static void key_after(const char *before, bool want_same, const char *what)
{
	char now[17] = "";

	ok(key_of(now) && (strcmp(now, before) == 0) == want_same, "key: %s %s", what,
	   want_same ? "keeps it" : "changes it");
}

static void test_key(void)
{
	char k0[17] = "", again[17] = "";
	static const char elf[] = "\177ELF\2\1\1 a program built in the tree";

	put("src/utils/common.c", "int common(void) { return 0; }\n");
	put("src/utils/common.h", "int common(void);\n");
	put("hostapd/main.c", "int main(void) { return 0; }\n");
	ok(key_of(k0) && strlen(k0) == 16 && strspn(k0, "0123456789abcdef") == 16,
	   "key: 16 hex digits");
	ok(key_of(again) && !strcmp(k0, again), "key: the same tree gives the same key");

	put("src/utils/common.o", "object");
	put("src/utils/.common.d", "deps");
	put("src/crypto/libcrypto.a", "archive");
	put("tests/hwsim/tnc/libhostap_imc.so", "shared");
	put("hostapd/.config", "CONFIG_X=y\n");
	put("hostapd/main.gcno", "coverage");
	key_after(k0, true, "objects, libraries, .config and coverage files in the tree");
	put("tests/hwsim/test_x.py", "def test_x(dev): pass\n");
	key_after(k0, true, "a tests/hwsim/test_x.py added");
	put("hostapd/hostapd", "#!/bin/sh\n# not an ELF, but the program's name\n");
	key_after(k0, true, "hostapd/hostapd (a program the build makes)");
	put("src/utils/nt_password_hash", elf);
	key_after(k0, true, "an ELF file among the sources");
	put("wpa_supplicant/systemd/wpa_supplicant.service", "[Unit]\n");
	key_after(k0, true, "a generated .service file");
	put("build/hostapd/main.o", "object");
	put("README", "hostap\n");
	key_after(k0, true, "files outside the input folders");

	put("src/utils/common.c", "int common(void) { return 1; }\n");
	key_after(k0, false, "a .c file edited");
	put("src/utils/common.c", "int common(void) { return 0; }\n");
	key_after(k0, true, "the .c file edited back");
	put("wlantest/new.c", "int x;\n");
	key_after(k0, false, "a .c file added");
	drop("wlantest/new.c");
	put("src/utils/other.h", "int common(void);\n");
	drop("src/utils/common.h");
	key_after(k0, false, "a header renamed (same content, another path)");
	put("src/utils/common.h", "int common(void);\n");
	drop("src/utils/other.h");
	key_after(k0, true, "the header named back");
	put("tests/hwsim/example-hostapd.config", "CONFIG_DRIVER_NL80211=y\nCONFIG_SAE=y\n");
	key_after(k0, false, "tests/hwsim/example-hostapd.config edited");
	put("tests/hwsim/example-hostapd.config", "CONFIG_DRIVER_NL80211=y\n");
	/* Path and content are framed: moving bytes from one to the other is another key. */
	put("hostapd/a", "bc");
	key_of(k0);
	drop("hostapd/a");
	put("hostapd/ab", "c");
	key_after(k0, false, "bytes moved from a file's content to its name");
}

int main(void)
{
	char tmpl[] = "/tmp/test_hostap_build.XXXXXX";

	plan(22);
	top = mkdtemp(tmpl);
	if (!top) {
		diag("cannot create a temporary folder");
		return 1;
	}
	test_tree_check();
	test_key();
	rm_rf(top);
	return done_testing();
}
