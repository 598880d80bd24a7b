// SPDX-License-Identifier: MIT
/* test_plain.c - the generated suites of --plain=DIR, and the names they refuse. */
#define _GNU_SOURCE
#include "plain.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tap.h"

static char scratch[] = "/tmp/umlrun-plain.XXXXXX";

/* Writes an executable (or, with mode 0644, a plain file) DIR/NAME. */
static void program(const char *dir, const char *name, mode_t mode)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);

	write_file_atomic(path, "#!/bin/sh\nexit 0\n", 17);
	chmod(path, mode);
}

/* Whether plain_make left anything in TMPDIR. */
static bool tmpdir_empty(void)
{
	DIR *d = opendir(getenv("TMPDIR"));
	struct dirent *de;
	bool empty = true;

	if (!d)
		return false;
	while ((de = readdir(d)))
		empty &= !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(d);
	return empty;
}

static void test_generated(void)
{
	_cleanup_free_ char *dir = xasprintf("%s/good+x", scratch);
	char *given[] = { dir };
	char *suites = NULL;
	struct plain_dir *dirs = NULL;
	struct uerr e = { 0 };
	_cleanup_free_ char *text = NULL;

	mkdir(dir, 0755);
	program(dir, "c++ok", 0755);
	program(dir, "README # not run", 0644);
	if (!is_int(plain_make(given, 1, &suites, &dirs, &e), 0,
		    "a folder of well-named programs makes a suite"))
		diag("%s", e.msg);
	is_str(dirs ? dirs[0].name : NULL, "good+x", "the suite is named after the folder");
	if (suites) {
		_cleanup_free_ char *file = xasprintf("%s/good+x/t0001-c++ok.sh", suites);

		read_file(file, &text, NULL);
	}
	has_str(text, "\nprog='c++ok'\n", "the test file runs the program, quoted");
	has_str(text,
		"# Made by umlrun (--plain) for good+x/c++ok:", "the test file names the program");
	plain_free(suites, dirs, 1);
	ok(tmpdir_empty(), "plain_free removes the generated suites");
}

/* A program whose name would reach a KTAP line or the script unsafely. */
static void test_refused(const char *name, const char *shown)
{
	_cleanup_free_ char *dir = xasprintf("%s/bad", scratch);
	_cleanup_free_ char *want = xasprintf("%s/%s': a --plain program's name may hold only "
					      "ASCII letters, digits and '.', '_', '+', '-'; "
					      "rename it",
					      dir, shown);
	char *given[] = { dir };
	char *suites = NULL;
	struct plain_dir *dirs = NULL;
	struct uerr e = { 0 };
	int r;

	rm_rf(dir);
	mkdir(dir, 0755);
	program(dir, "aaa-fine", 0755);
	program(dir, name, 0755);
	r = plain_make(given, 1, &suites, &dirs, &e);
	ok(r == -1 && e.code == EXIT_USAGE && !suites && !dirs, "'%s': refused, exit 2", shown);
	ok(strstr(e.msg, want), "'%s': the message names the file and the rule", shown);
	if (!strstr(e.msg, want))
		diag("got: %s\nwant: ...%s", e.msg, want);
	ok(!strchr(e.msg, '\n') && tmpdir_empty(), "'%s': one line, nothing written", shown);
}

int main(void)
{
	_cleanup_free_ char *tmp = NULL;

	plan(5 + 12 * 3);
	if (!mkdtemp(scratch))
		return 1;
	tmp = xasprintf("%s/tmp", scratch);
	mkdir(tmp, 0755);
	setenv("TMPDIR", tmp, 1);
	test_generated();
	test_refused("broken # SKIP", "broken # SKIP");
	test_refused("b2 # TODO known", "b2 # TODO known");
	test_refused("n\nnot ok 7 forged", "n\\nnot ok 7 forged");
	test_refused("x\n; touch pwned", "x\\n; touch pwned");
	test_refused("a'b", "a'b");
	test_refused("a\"b", "a\"b");
	test_refused("a$(id)b", "a$(id)b");
	test_refused("a`id`b", "a`id`b");
	test_refused("a\\b", "a\\\\b");
	test_refused("a b", "a b");
	test_refused("cr\r", "cr\\r");
	test_refused("caf\xc3\xa9", "caf\\xc3\\xa9");
	rm_rf(scratch);
	return done_testing();
}
