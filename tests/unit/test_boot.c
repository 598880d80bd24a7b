// SPDX-License-Identifier: MIT
/* test_boot.c - the guest's kernel command line. */
#define _GNU_SOURCE
#include "boot.h"

#include <ctype.h>
#include <inttypes.h>

#include "tap.h"

static struct stage stage = { .dir = "/tmp/stage-x" };

/* The first parameter equal to want, or starting with want when it ends in '='. */
static const char *param(char **v, const char *want)
{
	size_t l = strlen(want);

	for (size_t i = 1; v && v[i]; i++)
		if (want[l - 1] == '=' ? !strncmp(v[i], want, l) : !strcmp(v[i], want))
			return v[i];
	return NULL;
}

static size_t count_prefix(char **v, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 1; v && v[i]; i++)
		n += !strncmp(v[i], prefix, strlen(prefix));
	return n;
}

static char **cmdline(const struct guest_spec *g)
{
	struct uerr e = { 0 };
	char **v = guest_cmdline(g, &e);

	if (!v)
		diag("guest_cmdline failed: %s", e.msg);
	return v;
}

static void test_modes(void)
{
	struct guest_spec g = { .stage = &stage, .index = 0, .mode = TT_OFF };
	char **v;

	v = cmdline(&g);
	is_str(v ? v[0] : NULL, "/tmp/stage-x/linux", "argv[0] is the staged kernel");
	is_int((long long)count_prefix(v, "time-travel"), 0, "off: no time-travel parameter");
	is_str(param(v, "umlrun.mode="), "umlrun.mode=off", "off: init told the mode");
	strv_free(v);

	g.mode = TT_BASIC;
	v = cmdline(&g);
	is_str(param(v, "time-travel"), "time-travel", "basic: time-travel");
	is_int((long long)count_prefix(v, "time-travel"), 1, "basic: nothing else time-travel");
	is_str(param(v, "umlrun.mode="), "umlrun.mode=basic", "basic: init told the mode");
	strv_free(v);

	g.mode = TT_INF_CPU;
	v = cmdline(&g);
	is_str(param(v, "time-travel="), "time-travel=inf-cpu", "inf-cpu: time-travel=inf-cpu");
	is_int((long long)count_prefix(v, "time-travel"), 1, "inf-cpu: only that one");
	is_str(param(v, "umlrun.mode="), "umlrun.mode=inf-cpu", "inf-cpu: init told the mode");
	strv_free(v);

	for (int m = TT_OFF; m <= TT_INF_CPU; m++) {
		enum tt_mode got = (enum tt_mode) - 1;

		ok(tt_mode_parse(tt_mode_name((enum tt_mode)m), &got) == 0 && (int)got == m,
		   "tt_mode name round trip: %s", tt_mode_name((enum tt_mode)m));
	}
	{
		enum tt_mode got = TT_BASIC;

		ok(tt_mode_parse("ext", &got) < 0 && got == TT_BASIC, "tt_mode_parse: unknown");
	}
}

static void test_start(void)
{
	struct guest_spec g = { .stage = &stage,
				.mode = TT_INF_CPU,
				.has_start = true,
				.start_kernel = 1709164800000000000ULL,
				.start_secs = 1709164800 };
	char **v;

	v = cmdline(&g);
	is_str(param(v, "time-travel-start="), "time-travel-start=1709164800000000000",
	       "start: time-travel-start= in the kernel's unit");
	is_str(param(v, "umlrun.start="), "umlrun.start=1709164800", "start: init gets seconds");
	strv_free(v);

	g.mode = TT_BASIC;
	v = cmdline(&g);
	ok(param(v, "time-travel-start=") != NULL, "start: with basic time travel too");
	strv_free(v);

	g.mode = TT_OFF;
	v = cmdline(&g);
	is_int((long long)count_prefix(v, "time-travel"), 0, "start: none without time travel");
	strv_free(v);

	g.mode = TT_INF_CPU;
	g.has_start = false;
	v = cmdline(&g);
	ok(!param(v, "time-travel-start=") && !param(v, "umlrun.start="), "start: none unless set");
	strv_free(v);
}

static void test_stage_params(void)
{
	struct guest_spec g0 = { .stage = &stage, .index = 0, .mode = TT_INF_CPU };
	struct guest_spec g1 = { .stage = &stage, .index = 1, .mode = TT_INF_CPU };
	_cleanup_free_ char *u0 = guest_umid(&g0);
	_cleanup_free_ char *u1 = guest_umid(&g1);
	_cleanup_free_ char *want_umid = xasprintf("umid=%s", u1);
	char **v = cmdline(&g1);

	is_str(u0, u1, "umid: the same in every slot (it names a folder in the slot's uml_dir)");
	ok(strlen(u1) < 32 && !strchr(u1, '/') && !strchr(u1, ' '), "umid: short, no '/' or blank");
	is_str(param(v, "umid="), want_umid, "umid= on the command line");
	is_str(param(v, "hostfs="), "hostfs=.",
	       "hostfs= is the guest's folder, where linux starts");
	is_str(param(v, "rootflags="), "rootflags=../root", "the root is the stage's");
	is_str(param(v, "umlrun.suite="), "umlrun.suite=../suite", "so are the suites");
	is_str(param(v, "uml_dir="), "uml_dir=uml", "uml_dir= inside the guest's folder");
	is_str(param(v, "umlrun.results="), "umlrun.results=results",
	       "results: the guest's own folder");
	is_str(param(v, "umlrun.seed="), "umlrun.seed=0", "the random seed: 0 unless chosen");
	{
		char **v0 = cmdline(&g0);
		bool same = true;

		for (size_t i = 1; v0[i] || v[i]; i++)
			if (!v0[i] || !v[i] || strcmp(v0[i], v[i]))
				same = false;
		ok(same, "the kernel command line is the same in every slot");
		strv_free(v0);
	}
	is_str(param(v, "mem="), "mem=256M", "mem: 256M by default");
	is_str(param(v, "ssl0="), "ssl0=null,fd:3", "ssl0 writes to fd 3");
	is_str(param(v, "ssl1="), "ssl1=null,fd:4", "ssl1 writes to fd 4");
	is_str(param(v, "ssl2="), "ssl2=null,fd:5", "ssl2 writes to fd 5");
	is_str(param(v, "ssl="), "ssl=null", "other serial lines off");
	is_str(param(v, "con0="), "con0=null,fd:1", "con0: no input, output to fd 1");
	is_str(param(v, "mac80211_hwsim.radios="), "mac80211_hwsim.radios=0",
	       "hwsim starts with no radios");
	is_str(param(v, "umlrun.test="), NULL, "no test: no umlrun.test=");
	is_str(param(v, "umlrun.argv="), NULL, "no argv: no umlrun.argv=");
	is_str(param(v, "umlrun.shell=1"), NULL, "not a shell: no umlrun.shell");
	is_str(param(v, "umlrun.timeout="), "umlrun.timeout=0", "no timeout: 0");
	strv_free(v);

	g1.mem = "1G";
	g1.test = "net/t0001-ping.sh";
	g1.shell = true;
	g1.sim_timeout = 30;
	g1.extra = " foo=1\tbar  ";
	v = cmdline(&g1);
	is_str(param(v, "mem="), "mem=1G", "mem: given");
	is_str(param(v, "umlrun.test="), "umlrun.test=net/t0001-ping.sh", "umlrun.test=");
	is_str(param(v, "con0="), "con0=fd:0,fd:1", "shell: con0 reads the terminal");
	is_str(param(v, "umlrun.shell=1"), "umlrun.shell=1", "shell: init told");
	is_str(param(v, "umlrun.timeout="), "umlrun.timeout=30", "umlrun.timeout=");
	ok(param(v, "foo=1") && param(v, "bar"), "extra: split into parameters");
	{
		size_t n = 0;

		while (v && v[n])
			n++;
		is_str(n ? v[n - 1] : NULL, "bar", "extra: last, so they can override");
	}
	strv_free(v);
}

static int unhex(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes umlrun.argv=: hex bytes, each argument ending in 00. */
static char **decode_argv(const char *hex, int *nargs)
{
	size_t len = strlen(hex);
	char *bytes = xmalloc(len / 2 + 1);
	char **v = xcalloc(len / 2 + 1, sizeof(char *));
	size_t nb = 0;

	*nargs = 0;
	if (len % 2) {
		free(bytes);
		free(v);
		return NULL;
	}
	for (size_t i = 0; i < len; i += 2) {
		int hi = unhex(hex[i]), lo = unhex(hex[i + 1]);

		if (hi < 0 || lo < 0) {
			free(bytes);
			free(v);
			return NULL;
		}
		bytes[nb++] = (char)(hi * 16 + lo);
	}
	for (size_t i = 0, start = 0; i < nb; i++) {
		if (bytes[i])
			continue;
		v[(*nargs)++] = xstrdup(bytes + start);
		start = i + 1;
	}
	free(bytes);
	return v;
}

static void test_argv(void)
{
	char *const argv[] = { "sh", "-c", "echo 'hi there' \"$x\"; exit 3", "", "é\t\n", NULL };
	struct guest_spec g = { .stage = &stage, .mode = TT_INF_CPU, .argv = argv };
	char **v = cmdline(&g);
	const char *p = param(v, "umlrun.argv=");
	char **back;
	int n = 0;
	bool same = true;

	ok(p && strspn(p + 12, "0123456789abcdef") == strlen(p + 12),
	   "argv: one parameter, only hex digits");
	back = p ? decode_argv(p + 12, &n) : NULL;
	is_int(n, 5, "argv: decodes to five arguments");
	for (int i = 0; back && i < n && i < 5; i++)
		same &= !strcmp(back[i], argv[i]);
	ok(back && same, "argv: decodes back verbatim (quotes, blanks, empty, UTF-8)");
	for (int i = 0; back && i < n; i++)
		free(back[i]);
	free(back);
	strv_free(v);

	{
		char *big = xmalloc(2001);
		char *const long_argv[] = { "echo", big, NULL };
		struct uerr e = { 0 };
		char **w;

		memset(big, 'x', 2000);
		big[2000] = '\0';
		g.argv = long_argv;
		w = guest_cmdline(&g, &e);
		ok(w == NULL, "argv: too long fails");
		is_int(e.code, EXIT_USAGE, "argv: too long is exit 2");
		has_str(e.msg, "too long", "argv: says it is too long");
		strv_free(w);
		free(big);
	}
	{
		char *mid = xmalloc(1401);
		char *const ok_argv[] = { "echo", mid, NULL };
		struct uerr e = { 0 };
		char **w;

		memset(mid, 'y', 1400);
		mid[1400] = '\0';
		g.argv = ok_argv;
		w = guest_cmdline(&g, &e);
		ok(w != NULL, "argv: 1400 bytes still fit");
		strv_free(w);
		free(mid);
	}
}

static void test_join(void)
{
	char *const plain[] = { "/tmp/stage-x/linux", "mem=256M", "con0=null,fd:1", "a_b-c+d@e%f",
				NULL };
	char *const quoted[] = { "echo", "hello world", "it's", "", "$HOME", "a\"b", NULL };
	char *const none[] = { NULL };
	_cleanup_free_ char *j1 = strv_join(plain);
	_cleanup_free_ char *j2 = strv_join(quoted);
	_cleanup_free_ char *j3 = strv_join(none);

	is_str(j1, "/tmp/stage-x/linux mem=256M con0=null,fd:1 a_b-c+d@e%f",
	       "strv_join: plain words unquoted");
	is_str(j2, "echo 'hello world' 'it'\\''s' '' '$HOME' 'a\"b'",
	       "strv_join: blanks, single quotes, empty, $ and \" quoted");
	ok(j3 == NULL || !strcmp(j3, ""), "strv_join: no words, empty line");
}

/* --mount=HOST[:GUEST][:rw]: its form, before the paths are resolved. */
static void test_mount_form(void)
{
	static const struct {
		const char *spec; /* D: an existing folder */
		const char *want; /* NULL: accepted */
	} cases[] = {
		{ "D:/data:rx", "only rw may follow, not 'rx'" },
		{ "D:/a:b", "GUEST may not hold ':'" },
		{ "D:/data:", "only rw may follow" },
		{ "D:/a:b:rw", "too many ':'" },
		{ ":/data", "no HOST folder" },
		{ "", "no HOST folder" },
		{ "D", NULL },
		{ "D:/d", NULL },
		{ "D:/d:rw", NULL },
		{ "D:rw", NULL },
		{ "D::rw", NULL },
		{ "D:/d:ro", NULL },
	};
	char dir[] = "/tmp/umlrun-mount.XXXXXX";

	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *d = strchr(cases[i].spec, 'D');
		_cleanup_free_ char *spec =
		    d ? xasprintf("%.*s%s%s", (int)(d - cases[i].spec), cases[i].spec, dir, d + 1)
		      : xstrdup(cases[i].spec);
		struct confine_mount m;
		struct uerr e = { 0 };
		int r = guest_mount_parse(spec, &m, &e);

		if (cases[i].want) {
			ok(r < 0 && e.code == EXIT_USAGE && !strchr(e.msg, '\n'),
			   "--mount=%s: exit 2, one line", cases[i].spec);
			ok(strstr(e.msg, cases[i].want) != NULL, "--mount=%s: says '%s'",
			   cases[i].spec, cases[i].want);
		} else {
			if (!ok(r == 0 && !strcmp(m.host, dir), "--mount=%s: accepted",
				cases[i].spec))
				diag("  got: %s", e.msg);
			free(m.host);
			free(m.guest);
		}
	}
	rmdir(dir);
}

/*
 * --mount of the host kernel's own file systems, or of a folder with a
 * mount below it: refused before boot (a guest mounted /proc and reached
 * every process's root; a mount below failed at boot in a user namespace).
 */
static void test_pseudo_mounts(void)
{
	static const char mountinfo[] =
	    "21 26 0:20 / /proc rw,relatime - proc proc rw\n"
	    "26 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
	    "23 26 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw\n"
	    "30 26 0:30 / /srv/jail/hostproc rw shared:5 - proc proc rw\n"
	    "31 26 0:31 / /srv/data/sub rw - tmpfs tmpfs rw\n"
	    "32 26 0:32 / /srv/sys\\040x rw - sysfs sysfs rw\n"
	    "33 26 8:2 / /srv/plain rw - ext4 /dev/sda2 rw\n";
	static const struct {
		const char *host;
		const char *want; /* NULL: accepted */
	} cases[] = {
		{ "/proc", "/proc is on a proc file system, the host kernel's own" },
		{ "/proc/1", "/proc/1 is on a proc file system" },
		{ "/dev", "/dev is on a devtmpfs file system" },
		{ "/srv/jail",
		  "proc is mounted at /srv/jail/hostproc, below /srv/jail: a guest would "
		  "reach the host kernel's own files" },
		{ "/srv", "proc is mounted at /srv/jail/hostproc, below /srv" },
		{ "/srv/sys x", "/srv/sys x is on a sysfs file system" },
		{ "/srv/data", "/srv/data has a file system mounted below it, at /srv/data/sub" },
		{ "/srv/data/sub", NULL },
		{ "/srv/plain", NULL },
		{ "/srv/jail/host", NULL },
		{ "/srv/dat", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fmemopen((void *)mountinfo, sizeof(mountinfo) - 1, "r");
		struct uerr e = { 0 };
		int r = host_mounts_check(f, "--mount=X", cases[i].host, &e);

		fclose(f);
		if (cases[i].want) {
			ok(r < 0 && e.code == EXIT_USAGE && strstr(e.msg, cases[i].want),
			   "--mount of %s: exit 2 saying '%s'", cases[i].host, cases[i].want);
			if (r == 0 || !strstr(e.msg, cases[i].want))
				diag("  got: %s", r < 0 ? e.msg : "accepted");
		} else {
			if (!ok(r == 0, "--mount of %s: accepted", cases[i].host))
				diag("  got: %s", e.msg);
		}
	}
	ok(pseudo_fs_name(0x9fa0, NULL) && !strcmp(pseudo_fs_name(0x9fa0, NULL), "proc") &&
	       pseudo_fs_name(0x27e0eb, NULL) && pseudo_fs_name(0, "cgroup2") &&
	       !pseudo_fs_name(0xef53, "ext4") && !pseudo_fs_name(0x01021994, "tmpfs"),
	   "procfs, cgroup and cgroup2 are the host kernel's own file systems; ext4 and tmpfs are "
	   "not");
}

/* The real host: /proc and /sys are refused by path, whatever mountinfo says. */
static void test_pseudo_real(void)
{
	static const char *const hosts[] = { "/proc", "/proc/self", "/sys" };

	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		_cleanup_free_ char *spec = xasprintf("%s:/hostproc", hosts[i]);
		struct confine_mount m;
		struct uerr e = { 0 };
		int r = guest_mount_parse(spec, &m, &e);

		ok(r < 0 && e.code == EXIT_USAGE && !strchr(e.msg, '\n') &&
		       strstr(e.msg, "the host kernel's own"),
		   "--mount=%s: exit 2, one line, the host kernel's own file system", spec);
		if (r == 0) {
			free(m.host);
			free(m.guest);
		}
	}
}

int main(void)
{
	plan(56 + 18 + 12 + 3);
	test_modes();
	test_start();
	test_stage_params();
	test_argv();
	test_join();
	test_mount_form();
	test_pseudo_mounts();
	test_pseudo_real();
	return done_testing();
}
