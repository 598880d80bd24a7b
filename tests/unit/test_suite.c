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
	r = settings_parse("   \n\t\ntimeout=7\n#x\n", "more/settings", &d, &e);
	ok(r == 0 && d.timeout == 7, "settings: lines of blanks only are empty lines");
	r = settings_parse("cmdline=a=b#c  quiet \n", "more/settings", &d, &e);
	is_str(d.cmdline, "a=b#c  quiet ", "settings: cmdline= keeps a '#' inside a word");
	free(d.cmdline);
	d.cmdline = NULL;
	r = settings_parse("cmdline=mac80211_hwsim.support_p2p_device=0 console=x sslx=1 conx "
			   "dtbx=1 ethx=1 stderr_log=1 _x=1\n",
			   "more/settings", &d, &e);
	ok(r == 0 && d.cmdline, "settings: cmdline= words that only start like umlrun's own pass");
	free(d.mem);
	free(d.cmdline);

	{
		static const struct {
			const char *text;
			const char *where;
		} bad[] = {
			{ "timeout=30\ncolour=blue\n",
			  "net/settings:2: colour=blue: unknown key: want timeout=, wall_timeout=, "
			  "mem=, cmdline= or shell=" },
			{ "# c\n\ntimeout\n",
			  "net/settings:3: timeout: not a key=value line: want timeout=" },
			{ "timeout=abc\n", "net/settings:1: timeout=abc: not a whole number of "
					   "seconds from 1 to 3153600000" },
			{ "timeout=0\n", "net/settings:1: timeout=0: not a whole number" },
			{ "timeout=-5\n", "net/settings:1: timeout=-5: not a whole number" },
			{ "timeout=+5\n", "net/settings:1: timeout=+5: not a whole number" },
			{ "timeout=\n", "net/settings:1: timeout=: not a whole number" },
			{ "timeout=10s\n", "net/settings:1: timeout=10s: not a whole number" },
			{ "timeout=5000000000\n", "net/settings:1: timeout=5000000000: not a whole "
						  "number of seconds from 1 to 3153600000" },
			{ "wall_timeout=0\n",
			  "net/settings:1: wall_timeout=0: not a whole number of "
			  "seconds from 1 to 604800" },
			{ "wall_timeout=604801\n",
			  "net/settings:1: wall_timeout=604801: not a whole "
			  "number of seconds from 1 to 604800" },
			{ "mem=1G\nwall_timeout=x\n",
			  "net/settings:2: wall_timeout=x: not a whole" },
			{ "shell=bash\n", "net/settings:1: shell=bash: want sh" },
			{ "timeout=5\nshell=/usr/bin/dash\n",
			  "net/settings:2: shell=/usr/bin/dash: want sh" },
			{ "shell=\n", "net/settings:1: shell=: want sh" },
			{ "  timeout=100\n",
			  "net/settings:1:   timeout=100: leading blanks are not allowed" },
			{ "\t# indented\n", "net/settings:1: \\t# indented: leading blanks" },
			{ "timeout=100 # note\n", "net/settings:1: timeout=100 # note: a comment "
						  "must be a line of its own, starting with #" },
			{ "timeout=100#note\n", "net/settings:1: timeout=100#note: a comment" },
			{ "cmdline=loglevel=7 # verbose\n",
			  "net/settings:1: cmdline=loglevel=7 # verbose: a comment" },
			{ "cmdline=#x\n", "net/settings:1: cmdline=#x: a comment" },
			{ "timeout=100 \n",
			  "net/settings:1: timeout=100 : blanks after the value are not allowed" },
			{ "timeout = 100\n",
			  "net/settings:1: timeout = 100: blanks around '=' are not allowed" },
			{ "timeout= 100\n", "net/settings:1: timeout= 100: blanks around '='" },
			{ "timeout=30\r\n",
			  "net/settings:1: a CR at the end of the line (a Windows line ending): "
			  "save the file with LF line endings" },
			{ "# from Windows\r\ntimeout=30\r\n", "net/settings:1: a CR at the end" },
			{ "cmdline=quiet\r\n", "net/settings:1: a CR at the end" },
			{ "cmdline=a\033b\n",
			  "net/settings:1: cmdline=a\\x1bb: a control character is not allowed" },
			{ "timeout=3\rx\n", "net/settings:1: timeout=3\\rx: a control character" },
			{ "timeout=5\n# later\ntimeout=600\n",
			  "net/settings:3: timeout=600: timeout= is set on line 1 already; keep "
			  "one "
			  "of the two" },
			{ "cmdline=quiet\ncmdline=loglevel=7\n",
			  "net/settings:2: cmdline=loglevel=7: cmdline= is set on line 1 already" },
			{ "cmdline=\n",
			  "net/settings:1: cmdline=: no kernel parameters after cmdline=; give "
			  "some, or drop the line" },
			{ "cmdline=   \n", "net/settings:1: cmdline=   : no kernel parameters" },
			{ "cmdline=quiet umlrun.timeout=99999\n",
			  "cmdline=quiet umlrun.timeout=99999: umlrun.timeout is umlrun's own "
			  "parameter" },
			{ "cmdline=mem=6G\n", ": mem is umlrun's own parameter" },
			{ "cmdline=loglevel=7 con0=fd:0,fd:1\n", ": con0 is umlrun's own" },
			{ "cmdline=ssl=null\n", ": ssl is umlrun's own" },
			{ "cmdline=hostfs=/\n", ": hostfs is umlrun's own" },
			{ "cmdline=\"umlrun.timeout=99999\"\n",
			  ": umlrun.timeout is umlrun's own" },
			{ "cmdline=um\"lrun.timeout=9\"\n", ": umlrun.timeout is umlrun's own" },
			{ "cmdline=mac80211-hwsim.radios=5\n",
			  "cmdline=mac80211-hwsim.radios=5: guests boot with no radios and a test "
			  "makes its own" },
			{ "cmdline=uml-syscall-cost=1\n", ": uml_syscall_cost is umlrun's own" },
			{ "cmdline=time-travel=basic\n", ": time_travel is umlrun's own" },
			{ "cmdline=time_travel\n", ": time_travel is umlrun's own" },
			{ "cmdline=foo\xa0init=/bin/sh\n", ": a byte that is not ASCII (0xa0)" },
			{ "cmdline=quiet ubd1=/etc/shadow\n",
			  ": ubd1 would give UML a host file, device or program" },
			{ "cmdline=ubdbr=/x\n", ": ubdbr would give UML a host file" },
			{ "cmdline=vec0:transport=tap,ifname=tap0\n",
			  ": vec0:transport would give UML a host file" },
			{ "cmdline=vec+0:transport=tap\n", ": vec+0:transport would give UML" },
			{ "cmdline=mconsole=notify:/tmp/s\n", ": mconsole would give UML" },
			{ "cmdline=xterm=/bin/sh,-T,-e\n", ": xterm would give UML" },
			{ "cmdline=--version\n", ": __version would give UML" },
			{ "cmdline=ssl-non-raw\n", ": ssl_non_raw is umlrun's own" },
			{ "cmdline=ssl0x6=port:47123\n", ": ssl0x6 is umlrun's own" },
			{ "cmdline=con0X1=null\n", ": con0X1 is umlrun's own" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			struct test t = { 0 };

			memset(&e, 0, sizeof(e));
			r = settings_parse(bad[i].text, "net/settings", &t, &e);
			if (!ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, bad[i].where) &&
				    !strchr(e.msg, '\n') && !strchr(e.msg, '\r'),
				"settings: bad line %zu: exit 2, one line: %s", i, bad[i].where))
				diag("  got: r=%d code=%d msg='%s'", r, e.code, e.msg);
			free(t.mem);
			free(t.cmdline);
		}
	}
}

/* mem= is a number with at most one K, M or G: 2KM was once accepted. */
static void test_mem(void)
{
	static const char *const good[] = { "mem=512M",	    "mem=1G",  "mem=65536K",
					    "mem=67108864", "mem=32M", NULL };
	static const char *const bad[] = {
		"mem=2KM",	    "mem=1GK", "mem=0",
		"mem=05M",	    "mem=K",   "mem=-1M",
		"mem=+1M",	    "mem= 1M", "mem=1m",
		"mem=1T",	    "mem=",    "mem=99999999999999999999",
		"mem=17179869184G", "mem=64K", "mem=1048576",
		"mem=31M",	    NULL
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

/* arg NULL: every suite, as when none is named. */
static void rejected(const char *arg, const char *want)
{
	const char *args[] = { arg };
	struct test_list l = { 0 };
	struct uerr e;
	_cleanup_free_ char *got = find(arg ? args : NULL, arg ? 1 : 0, &l, &e);
	_cleanup_free_ char *prefix = xasprintf("error %d: ", EXIT_USAGE);

	ok(!strncmp(got, prefix, strlen(prefix)) && strstr(got, want),
	   "suites_find '%s': exit 2, says '%s'", arg ? arg : "(all)", want);
	if (strncmp(got, prefix, strlen(prefix)) || !strstr(got, want))
		diag("  got: %s", got);
	tests_free(&l);
}

#define NAME_RULE "may hold only ASCII letters, digits and '.', '_', '+', '-'; rename it"

/*
 * A test file's or suite's name reaches the guest's kernel command line and
 * the KTAP result lines: a blank splits a kernel parameter, a newline forges
 * a result line, '#' makes one a SKIP. Such a name is refused, and named.
 */
static void test_names(void)
{
	static const struct {
		const char *file;  /* under tmp */
		const char *shown; /* in the message, after tmp */
	} bad[] = {
		{ "n1/t0001-a b.sh", "/n1/t0001-a b.sh': a test file's name " NAME_RULE },
		{ "n2/t0002-nl\nok 99 forged.sh", "/n2/t0002-nl\\nok 99 forged.sh': a test file" },
		{ "n3/t0003-hash # SKIP x.sh", "/n3/t0003-hash # SKIP x.sh': a test file" },
		{ "n4/t0004-caf\xc3\xa9.sh", "/n4/t0004-caf\\xc3\\xa9.sh': a test file" },
		{ "n5/t0005-tab\there.sh", "/n5/t0005-tab\\there.sh': a test file" },
		{ "n6/t0006-back\\slash.sh", "/n6/t0006-back\\\\slash.sh': a test file" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		_cleanup_free_ char *suite = xstrndup(bad[i].file, 2);
		_cleanup_free_ char *want = xasprintf("'%s%s", tmp, bad[i].shown);
		_cleanup_free_ char *dir = xasprintf("%s/%s", tmp, suite);

		put(bad[i].file, "#!/bin/sh\n");
		rejected(suite, want);
		rm_rf(dir);
	}

	/* The whole suite is refused, even when a good file of it is named. */
	put("n1/t0001-a b.sh", "#!/bin/sh\n");
	put("n1/t0002-good.sh", "#!/bin/sh\n");
	rejected("n1/t0002-good", "/n1/t0001-a b.sh': a test file's name");
	rejected("n1/t0001-a b", "/n1/t0001-a b.sh': a test file's name");
	rejected(NULL, "/n1/t0001-a b.sh': a test file's name");
	found("net", "net/t0001-ping.sh net/t0002-dns.sh");
	{
		_cleanup_free_ char *p = xasprintf("%s/n1/t0001-a b.sh", tmp);

		rm_rf(p);
	}
	found("n1", "n1/t0002-good.sh");

	/* Files that are not tests may be named anything. */
	put("n1/helper file.sh", "#!/bin/sh\n");
	put("n1/t0003 no dash.sh", "#!/bin/sh\n");
	found("n1", "n1/t0002-good.sh");
	put("n7/t0001-a+b_c.d-e.sh", "#!/bin/sh\n");
	found("n7", "n7/t0001-a+b_c.d-e.sh");

	put("a b/t0001-x.sh", "#!/bin/sh\n");
	rejected("a b", "/a b': a suite folder's name " NAME_RULE);
	rejected("a b/t0001-x", "/a b': a suite folder's name");
	found("n7", "n7/t0001-a+b_c.d-e.sh");
	rejected(NULL, "/a b': a suite folder's name");
	put("x\ny/t0001-x.sh", "#!/bin/sh\n");
	rejected("x\ny", "/x\\ny': a suite folder's name"); /* the newline shown as \n */

	/* Names a run gives its own files and folders. */
	put("results.json/t0001-x.sh", "#!/bin/sh\n");
	rejected("results.json", "a suite folder may not be named results.json, as a run folder's");
	put("n8/t0001-a.2.sh", "#!/bin/sh\n");
	rejected("n8", "/n8/t0001-a.2.sh': a test file's name may not end in .N or .tryN");
	put("n9/t0001-a.try1.sh", "#!/bin/sh\n");
	rejected("n9", "/n9/t0001-a.try1.sh': a test file's name may not end in .N");
	put("n10/t0001-ipv6.sh", "#!/bin/sh\n");
	put("n10/t0002-v1.2b.sh", "#!/bin/sh\n");
	put("n10/t0003-retry2.sh", "#!/bin/sh\n");
	found("n10", "n10/t0001-ipv6.sh n10/t0002-v1.2b.sh n10/t0003-retry2.sh");
}

/*
 * A test file is an executable file (docs/harness.md): a folder named like
 * one, and a file without its execute bit, are usage errors naming the fix.
 */
static void test_files_executable(void)
{
	_cleanup_free_ char *dir = xasprintf("%s/dsuite/t0003-dir.sh", tmp);
	_cleanup_free_ char *plain = xasprintf("%s/xsuite/t0002-noexec.sh", tmp);
	_cleanup_free_ char *want_dir =
	    xasprintf("'%s': a folder named like a test file (tNNNN-name.sh)", dir);
	_cleanup_free_ char *want_x =
	    xasprintf("'%s': a test file must be executable; chmod +x '%s'", plain, plain);
	_cleanup_free_ char *dsuite = xasprintf("%s/dsuite", tmp);
	_cleanup_free_ char *xsuite = xasprintf("%s/xsuite", tmp);

	put("dsuite/t0001-ok.sh", "#!/bin/sh\n");
	mkdir_p(dir, 0755);
	rejected("dsuite", want_dir);
	rejected("dsuite/t0001-ok.sh", want_dir);
	rejected(NULL, want_dir);
	rm_rf(dsuite);
	put("xsuite/t0001-ok.sh", "#!/bin/sh\n");
	put("xsuite/t0002-noexec.sh", "#!/bin/sh\n");
	chmod(plain, 0644);
	rejected("xsuite", want_x);
	rejected("xsuite/t0001-ok.sh", want_x);
	chmod(plain, 0700);
	found("xsuite", "xsuite/t0001-ok.sh xsuite/t0002-noexec.sh");
	rm_rf(xsuite);
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
		/* A path to the suites folder's file, as a shell completes it. */
		_cleanup_free_ char *path = xasprintf("%s/net/t0002-dns.sh", tmp);
		_cleanup_free_ char *suite = xasprintf("%s/./time/", tmp);

		found(path, "net/t0002-dns.sh");
		found(suite, "time/t0001-clock.sh");
	}
	{
		const char *args[] = { "time", "net/t0002-dns" };
		struct test_list l = { 0 };
		struct uerr e;
		_cleanup_free_ char *got = find(args, 2, &l, &e);

		is_str(got, "time/t0001-clock.sh net/t0002-dns.sh", "several args, in order");
		tests_free(&l);
	}
	{
		const char *args[] = { "net/t0002-dns", "net", "net/t0002-dns.sh" };
		struct test_list l = { 0 };
		struct uerr e;
		_cleanup_free_ char *got = find(args, 3, &l, &e);

		is_str(got, "net/t0002-dns.sh net/t0001-ping.sh",
		       "a test named twice is found once, where first named");
		tests_free(&l);
	}
	rejected("nosuch", "unknown suite 'nosuch'");
	rejected("net/t0009-none", "unknown test");
	rejected("net/helper.sh", "not a test file name");
	rejected("net/t12-short", "not a test file name");
	rejected("../net", "unknown suite or test '../net'");
	rejected("net/../time", "unknown suite or test");
	rejected("time/../../etc", "unknown suite or test");
	{
		/* --suite-dir naming one suite instead of the folder above it. */
		char *top = tmp;
		_cleanup_free_ char *net = xasprintf("%s/net", top);

		tmp = net;
		rejected(NULL, "net holds test files itself");
		tmp = top;
	}
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
	/* Only the suites loaded are read: the broken one is not named here. */
	found("time", "time/t0001-clock.sh");
	{
		_cleanup_free_ char *bad = xasprintf("%s/bad", tmp);

		rm_rf(bad);
	}
	test_files_executable();
	test_names();
	rm_rf(tmp);
	ok(!path_exists(tmp), "temporary folder removed");
}

int main(void)
{
	plan(145 + 6);
	test_settings();
	test_mem();
	test_find();
	return done_testing();
}
