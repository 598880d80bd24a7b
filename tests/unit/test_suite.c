// SPDX-License-Identifier: MIT
/* test_suite.c - suites, test files and settings. */
#define _GNU_SOURCE
#include "suite.h"

#include <stdio.h>
#include <sys/stat.h>

#include "tap.h"

static void test_settings(void)
{
	struct test d = { .timeout = 600, .wall_timeout = 120 };
	struct uerr e = { 0 };
	int r;

	r = settings_parse("# The radio tests wait for beacons.\n"
			   "timeout=30\n"
			   "\n"
			   "wall_timeout=45\n"
			   "mem=512M\n"
			   "cmdline=mac80211_hwsim.support_p2p_device=0 loglevel=7\n",
			   "net/settings", &d, &e);
	if (!is_int(r, 0, "settings: parses"))
		diag("%s", e.msg);
	is_int(d.timeout, 30, "settings: timeout=");
	ok(d.wall_timeout == 45.0, "settings: wall_timeout=");
	is_str(d.mem, "512M", "settings: mem=");
	is_str(d.cmdline, "mac80211_hwsim.support_p2p_device=0 loglevel=7",
	       "settings: cmdline= keeps '=' and blanks in its value");

	r = settings_parse("mem=1G\ntimeout=5", "more/settings", &d, &e);
	ok(r == 0 && !strcmp(d.mem, "1G") && d.timeout == 5,
	   "settings: later values replace, last line without newline");
	ok(d.wall_timeout == 45.0, "settings: keys not given keep their value");
	ok(!d.shell, "settings: no shell= runs the test files with /bin/sh");
	r = settings_parse("shell=dash\n", "more/settings", &d, &e);
	ok(r == 0 && d.shell && !strcmp(d.shell, "/usr/bin/dash"),
	   "settings: shell=dash runs them with the guest's /usr/bin/dash");
	r = settings_parse("shell=sh\n", "more/settings", &d, &e);
	ok(r == 0 && !d.shell, "settings: shell=sh is busybox ash again");
	free(d.mem);
	free(d.cmdline);

	{
		static const struct {
			const char *text;
			const char *where;
		} bad[] = {
			{ "timeout=30\ncolour=blue\n", "net/settings:2:" },
			{ "# c\n\ntimeout\n", "net/settings:3:" },
			{ "timeout=abc\n", "net/settings:1:" },
			{ "timeout=0\n", "net/settings:1:" },
			{ "timeout=-5\n", "net/settings:1:" },
			{ "timeout=\n", "net/settings:1:" },
			{ "timeout=10s\n", "net/settings:1:" },
			{ "wall_timeout=0\n", "net/settings:1:" },
			{ "mem=1G\nwall_timeout=x\n", "net/settings:2:" },
			{ "shell=bash\n", "net/settings:1: shell=bash: want sh" },
			{ "timeout=5\nshell=/usr/bin/dash\n", "net/settings:2:" },
			{ "shell=\n", "net/settings:1:" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			struct test t = { 0 };

			memset(&e, 0, sizeof(e));
			r = settings_parse(bad[i].text, "net/settings", &t, &e);
			if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, bad[i].where),
				"settings: bad line %zu: exit 2, names %s", i, bad[i].where))
				diag("  got: r=%d code=%d msg='%s'", r, e.code, e.msg);
			free(t.mem);
			free(t.cmdline);
		}
	}
}

/* mem= is a number with at most one K, M or G: 2KM was once accepted. */
static void test_mem(void)
{
	static const char *const good[] = { "mem=512M", "mem=1G", "mem=64K", "mem=1048576", NULL };
	static const char *const bad[] = {
		"mem=2KM",	    "mem=1GK", "mem=0",
		"mem=05M",	    "mem=K",   "mem=-1M",
		"mem=+1M",	    "mem= 1M", "mem=1m",
		"mem=1T",	    "mem=",    "mem=99999999999999999999",
		"mem=17179869184G", NULL
	};

	for (size_t i = 0; good[i]; i++) {
		struct test t = { 0 };
		struct uerr e = { 0 };

		ok(settings_parse(good[i], "s", &t, &e) == 0 && !strcmp(t.mem, good[i] + 4),
		   "settings: %s accepted", good[i]);
		free(t.mem);
	}
	for (size_t i = 0; bad[i]; i++) {
		struct test t = { 0 };
		struct uerr e = { 0 };
		int r = settings_parse(bad[i], "s", &t, &e);

		if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, "s:1: mem=") && !t.mem,
			"settings: %s refused", bad[i]))
			diag("  got: r=%d msg='%s'", r, e.msg);
		free(t.mem);
	}
}

static char *tmp;

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", tmp, rel);
	_cleanup_free_ char *dir = xstrdup(p);

	*strrchr(dir, '/') = '\0';
	mkdir_p(dir, 0755);
	write_file_atomic(p, text, strlen(text));
	chmod(p, 0755);
}

/* Every id found, joined by spaces, or the error. */
static char *find(const char *const *args, int nargs, struct test_list *l, struct uerr *e)
{
	struct strbuf sb = { 0 };

	memset(e, 0, sizeof(*e));
	if (suites_find(tmp, (char *const *)args, nargs, l, e) < 0)
		return xasprintf("error %d: %s", e->code, e->msg);
	for (size_t i = 0; i < l->n; i++)
		sb_printf(&sb, "%s%s", i ? " " : "", l->v[i].id);
	return sb.len ? sb_detach(&sb) : xstrdup("");
}

static void found(const char *arg, const char *want)
{
	const char *args[] = { arg };
	struct test_list l = { 0 };
	struct uerr e;
	_cleanup_free_ char *got = find(args, 1, &l, &e);
	_cleanup_free_ char *name = xasprintf("suites_find '%s'", arg);

	is_str(got, want, name);
	tests_free(&l);
}

static void rejected(const char *arg, const char *want)
{
	const char *args[] = { arg };
	struct test_list l = { 0 };
	struct uerr e;
	_cleanup_free_ char *got = find(args, 1, &l, &e);
	_cleanup_free_ char *prefix = xasprintf("error %d: ", EXIT_USAGE);

	ok(!strncmp(got, prefix, strlen(prefix)) && strstr(got, want),
	   "suites_find '%s': exit 2, says '%s'", arg, want);
	if (strncmp(got, prefix, strlen(prefix)) || !strstr(got, want))
		diag("  got: %s", got);
	tests_free(&l);
}

static void test_find(void)
{
	char tmpl[] = "/tmp/umlrun-suite.XXXXXX";

	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return;
	}
	tmp = tmpl;
	put("net/t0002-dns.sh", "#!/bin/sh\n");
	put("net/t0001-ping.sh", "#!/bin/sh\n");
	put("net/settings", "timeout=30\nmem=512M\n");
	put("net/helper.sh", "#!/bin/sh\n");
	put("net/README", "not a test\n");
	put("net/t12-short.sh", "#!/bin/sh\n");
	put("time/t0001-clock.sh", "#!/bin/sh\n");
	put("lib/t0001-not-a-test.sh", "#!/bin/sh\n");
	put(".hidden/t0001-no.sh", "#!/bin/sh\n");
	put("notes.txt", "top-level file\n");

	{
		struct test_list l = { 0 };
		struct uerr e;
		_cleanup_free_ char *got = find(NULL, 0, &l, &e);

		is_str(got, "net/t0001-ping.sh net/t0002-dns.sh time/t0001-clock.sh",
		       "all suites: sorted, lib/ and hidden skipped");
		if (l.n == 3) {
			is_str(l.v[0].suite, "net", "test: suite");
			is_str(l.v[0].file, "t0001-ping.sh", "test: file");
			is_int(l.v[0].timeout, 30, "test: suite's settings timeout");
			is_str(l.v[1].mem, "512M", "test: suite's settings mem, each test");
			ok(l.v[0].wall_timeout == 120.0, "test: default wall timeout 120");
			is_int(l.v[2].timeout, 600, "test: default timeout 600");
			is_str(l.v[2].mem, NULL, "test: no mem without settings");
		}
		tests_free(&l);
	}
	found("net", "net/t0001-ping.sh net/t0002-dns.sh");
	found("net/", "net/t0001-ping.sh net/t0002-dns.sh");
	found("net/t0002-dns.sh", "net/t0002-dns.sh");
	found("net/t0002-dns", "net/t0002-dns.sh");
	found("testsuites/time", "time/t0001-clock.sh");
	found("testsuites/net/t0001-ping", "net/t0001-ping.sh");
	{
		const char *args[] = { "time", "net/t0002-dns" };
		struct test_list l = { 0 };
		struct uerr e;
		_cleanup_free_ char *got = find(args, 2, &l, &e);

		is_str(got, "time/t0001-clock.sh net/t0002-dns.sh", "several args, in order");
		tests_free(&l);
	}
	rejected("nosuch", "unknown suite 'nosuch'");
	rejected("net/t0009-none", "unknown test");
	rejected("net/helper.sh", "not a test file name");
	rejected("net/t12-short", "not a test file name");
	rejected("../net", "unknown suite or test '../net'");
	rejected("net/../time", "unknown suite or test");
	rejected("time/../../etc", "unknown suite or test");
	rejected("/etc", "unknown suite or test");
	rejected("lib", "unknown suite or test 'lib'");
	rejected("", "unknown suite or test");
	rejected("notes.txt", "unknown suite");

	/* A broken settings file is named, with its line. */
	put("bad/t0001-x.sh", "#!/bin/sh\n");
	put("bad/settings", "timeout=30\ntimeuot=40\n");
	rejected("bad", "bad/settings:2:");
	{
		struct test_list l = { 0 };
		struct uerr e;
		_cleanup_free_ char *got = find(NULL, 0, &l, &e);

		has_str(got,
			"bad/settings:2:", "all suites: a broken settings file fails the list");
		tests_free(&l);
	}
	rm_rf(tmp);
	ok(!path_exists(tmp), "temporary folder removed");
}

int main(void)
{
	plan(68);
	test_settings();
	test_mem();
	test_find();
	return done_testing();
}
