// SPDX-License-Identifier: MIT
/* test_hwsim_pyc.c - tests/hwsim's bytecode: keyed, checked, kept, linked. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwsim_pyc.h"
#include "tap.h"

static char top[] = "/tmp/test_hwsim_pyc.XXXXXX";

/* TOP/rel in one of four rotating buffers: no frees in the checks. */
static const char *at(const char *rel)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", top, rel);
	return buf[i];
}

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", top, rel);

	write_file_atomic(p, text, strlen(text));
}

static bool there(const char *rel)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", top, rel);

	return path_exists(p);
}

int main(void)
{
	_cleanup_free_ char *tree = NULL, *out = NULL, *dest = NULL, *stage = NULL;
	char k1[17], k2[17], k3[17];
	struct uerr e;

	plan(9);
	if (!mkdtemp(top)) {
		diag("mkdtemp: %s", strerror(errno));
		return 1;
	}
	tree = xasprintf("%s/tree", top);
	out = xasprintf("%s/out", top);
	dest = xasprintf("%s/cache/pyc-x", top);
	stage = xasprintf("%s/stage", top);
	mkdir_p(at("tree/tests/hwsim"), 0755);
	mkdir_p(out, 0755);
	mkdir_p(at("cache"), 0755);
	put("tree/tests/hwsim/test_a.py", "def test_a(dev):\n    pass\n");
	put("tree/tests/hwsim/hwsim.py", "x = 1\n");
	put("tree/tests/hwsim/notes.txt", "not a module\n");

	ok(hwsim_pyc_key(tree, k1, &e) == 0 && strlen(k1) == 16, "key: 16 hex digits");
	put("tree/tests/hwsim/notes.txt", "still not a module\n");
	hwsim_pyc_key(tree, k2, &e);
	put("tree/tests/hwsim/hwsim.py", "x = 2\n");
	hwsim_pyc_key(tree, k3, &e);
	ok(!strcmp(k1, k2) && strcmp(k2, k3), "key: a module's content counts, other files do not");

	put("out/test_a.cpython-311.pyc", "bytecode a");
	put("out/hwsim.cpython-311.pyc", "bytecode h");
	put("out/nope.cpython-311.pyc", "not of a module of the tree");
	ok(hwsim_pyc_keep(out, tree, dest, &e) < 0 && e.code == EXIT_INFRA &&
	       strstr(e.msg, "nope.cpython-311.pyc") && !is_dir(dest),
	   "keep: a file that is no module's bytecode: refused, nothing kept");
	unlink(at("out/nope.cpython-311.pyc"));
	symlink("/etc/passwd", at("out/test_a.cpython-312.pyc"));
	ok(hwsim_pyc_keep(out, tree, dest, &e) < 0 && !is_dir(dest),
	   "keep: a symbolic link (the guest's): refused, never followed");
	unlink(at("out/test_a.cpython-312.pyc"));
	mkdir_p(at("out/sub.cpython-311.pyc"), 0755);
	ok(hwsim_pyc_keep(out, tree, dest, &e) < 0 && !is_dir(dest), "keep: a folder: refused");
	rmdir(at("out/sub.cpython-311.pyc"));
	ok(hwsim_pyc_keep(out, tree, dest, &e) == 0 &&
	       there("cache/pyc-x/test_a.cpython-311.pyc") &&
	       there("cache/pyc-x/hwsim.cpython-311.pyc"),
	   "keep: the modules' bytecode, kept whole");
	ok(hwsim_pyc_keep(out, tree, dest, &e) == 0,
	   "keep: a set already kept (another umlrun's) is fine");
	ok(hwsim_pyc_link(dest, stage, &e) == 0 &&
	       there("stage/tests/hwsim/__pycache__/test_a.cpython-311.pyc") &&
	       there("stage/tests/hwsim/__pycache__/hwsim.cpython-311.pyc"),
	   "link: laid into the stage's tests/hwsim/__pycache__");
	{
		struct uerr e2;
		mkdir_p(at("empty"), 0755);
		ok(hwsim_pyc_keep(at("empty"), tree, at("cache/pyc-y"), &e2) < 0 &&
		       strstr(e2.msg, "no bytecode"),
		   "keep: an empty set is an error, not a cache entry");
	}
	rm_rf(top);
	return done_testing();
}
