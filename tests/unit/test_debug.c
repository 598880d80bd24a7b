// SPDX-License-Identifier: MIT
/*
 * test_debug.c - the debugging options: --trace-event, --kprobe-event,
 * --profile and --gdb (parsing, the kernel's parameters, gdb's command
 * line), and the kernel reports that fail a test.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "gdb.h"
#include "gdbserver.h"
#include "kernel_cache.h"
#include "options.h"
#include "outcome.h"
#include "profile.h"
#include "report.h"
#include "supervise.h"
#include "trace.h"

#include "tap.h"

static int parse(char **argv, struct opts *o, struct uerr *e)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(e, 0, sizeof(*e));
	return opts_parse(argc, argv, o, e);
}

/* argv parses, or fails with exit 2 and a message holding want. */
static void parses(char **argv, const char *want, const char *name)
{
	struct opts o;
	struct uerr e;
	int r = parse(argv, &o, &e);

	if (!want) {
		if (!ok(r == 0, "%s: parses", name))
			diag("  got: %s", e.msg);
	} else {
		ok(r < 0 && e.code == EXIT_USAGE, "%s: exit 2", name);
		has_str(e.msg, want, name);
		ok(!strchr(e.msg, '\n'), "%s: one line", name);
	}
	opts_free(&o);
}

static void test_options(void)
{
	char *good[] = { "umlrun", "run", "--trace-event=timer:hrtimer_start,timer:*",
			 "--trace-event=sched_switch", NULL };
	char *bad_event[] = { "umlrun", "run", "--trace-event=timer:hrtimer start", NULL };
	char *empty_item[] = { "umlrun", "run", "--trace-event=timer:a,,b", NULL };
	char *colon[] = { "umlrun", "run", "--trace-event=timer:", NULL };
	char *kprobe_bad[] = { "umlrun", "exec", "--kprobe-event=p:a;p:b", "--", "true", NULL };
	char *profile[] = { "umlrun", "build", "--profile=kasan", NULL };
	char *profile_bad[] = { "umlrun", "run", "--profile=tsan", NULL };
	char *gdb_run[] = { "umlrun", "run", "--gdb", "smoke/t0001-pass.sh", NULL };
	char *gdb_file[] = { "umlrun", "exec", "--gdb=cmds.gdb", "--", "true", NULL };
	char *gdb_j[] = { "umlrun", "run", "--gdb", "-j2", "smoke", NULL };
	char *gdb_build[] = { "umlrun", "build", "--gdb", NULL };
	char *trace_build[] = { "umlrun", "build", "--trace-event=timer:*", NULL };
	struct opts o;
	struct uerr e;

	is_int(parse(good, &o, &e), 0, "two --trace-event lists parse");
	is_int((long long)o.ntrace_events, 2, "both kept");
	opts_free(&o);
	parses(bad_event, "SYSTEM:EVENT", "a space in --trace-event");
	parses(empty_item, "SYSTEM:EVENT", "an empty item in --trace-event");
	parses(colon, "SYSTEM:EVENT", "--trace-event ending in ':'");
	parses(kprobe_bad, "kprobe_events", "';' in --kprobe-event");
	is_int(parse(profile, &o, &e), 0, "build --profile=kasan parses");
	is_str(o.profile, "kasan", "the profile kept");
	opts_free(&o);
	parses(profile_bad, "unknown profile; umlrun knows hardened, kasan, lockdep, gcov",
	       "an unknown profile");
	is_int(parse(gdb_run, &o, &e), 0, "run --gdb parses");
	ok(o.gdb && !o.gdb_script, "--gdb: interactive");
	opts_free(&o);
	is_int(parse(gdb_file, &o, &e), 0, "exec --gdb=FILE parses");
	is_str(o.gdb_script, "cmds.gdb", "--gdb=FILE: the script");
	opts_free(&o);
	parses(gdb_j, "one guest", "--gdb with -j2");
	parses(gdb_build, "does not apply", "build --gdb");
	parses(trace_build, "does not apply", "build --trace-event");
}

static void test_params(void)
{
	char *lists[] = { "timer:hrtimer_start", "timer:hrtimer_expire_entry" };
	char *probes[] = { "p:myprobe do_nanosleep", "r:ret do_nanosleep $retval" };
	char *t = trace_event_param(lists, 2);
	char *k = kprobe_event_param(probes, 2);

	is_str(t, "timer:hrtimer_start,timer:hrtimer_expire_entry", "trace_event=: joined");
	is_str(k, "p:myprobe,do_nanosleep;r:ret,do_nanosleep,$retval",
	       "kprobe_event=: the kernel's boot syntax");
	ok(!trace_event_param(lists, 0) && !kprobe_event_param(probes, 0), "none: NULL");
	free(t);
	free(k);
}

static void test_check_kernel(void)
{
	struct uerr e;

	is_int(trace_check_kernel("CONFIG_FTRACE=y\nCONFIG_EVENT_TRACING=y\n", "6.1.1", true, false,
				  &e),
	       0, "a kernel with event tracing takes --trace-event");
	memset(&e, 0, sizeof(e));
	ok(trace_check_kernel("CONFIG_FTRACE=y\n", "6.1.1", true, false, &e) < 0 &&
	       e.code == EXIT_USAGE,
	   "no CONFIG_EVENT_TRACING: exit 2");
	has_str(e.msg, "CONFIG_EVENT_TRACING", "  naming the option");
	memset(&e, 0, sizeof(e));
	ok(trace_check_kernel("CONFIG_EVENT_TRACING=y\n", "6.1.1", true, true, &e) < 0 &&
	       e.code == EXIT_USAGE,
	   "--kprobe-event on UML: exit 2");
	has_str(e.msg, "HAVE_KPROBES", "  saying why");
	is_int(trace_check_kernel("CONFIG_EVENT_TRACING=y\nCONFIG_KPROBE_EVENTS=y\n", "9.9", true,
				  true, &e),
	       0, "a kernel with kprobe events takes --kprobe-event");
}

static void test_cmdline(void)
{
	struct stage st = { .dir = "/tmp/stage-x" };
	struct guest_spec g = { .stage = &st,
				.mode = TT_INF_CPU,
				.test = "timers/t0001-clocks.sh",
				.trace_event = "timer:hrtimer_start" };
	struct uerr e;
	char **v = guest_cmdline(&g, &e);
	_cleanup_free_ char *line = v ? strv_join(v) : NULL;

	has_str(line, " trace_clock=mono ", "tracing: timestamps from the monotonic clock");
	has_str(line, " trace_event=timer:hrtimer_start ", "tracing: trace_event=");
	has_str(line, " umlrun.trace=1 ", "tracing: init saves the trace");
	strv_free(v);
	g.trace_event = NULL;
	v = guest_cmdline(&g, &e);
	free(line);
	line = v ? strv_join(v) : NULL;
	ok(line && !strstr(line, "trace"), "no tracing: nothing on the line");
	strv_free(v);
}

static void test_gdb(void)
{
	char *linux_argv[] = { "/s/linux", "mem=256M", "umlrun.harness=\"-x -i\"", NULL };
	char **argv = xcalloc(4, sizeof(char *));
	char **v;
	_cleanup_free_ char *line = NULL;

	for (int i = 0; i < 3; i++)
		argv[i] = xstrdup(linux_argv[i]);
	v = gdb_argv("/usr/bin/gdb", "/tmp/x.gdb", true, 65534, 65534, argv);
	line = strv_join(v);
	is_str(v[0], "/usr/bin/gdb", "gdb: argv[0]");
	has_str(line, "-batch", "gdb: batch mode with a script");
	has_str(line, "'handle SIGSEGV nostop noprint pass'", "gdb: UML's page faults pass");
	has_str(line, "'set args mem=256M '\\''umlrun.harness=\"-x -i\"'\\'' </dev/null >&6 2>&6'",
		"gdb: linux's arguments, quoted, console on fd 6");
	has_str(line, "'set exec-wrapper setpriv --reuid=65534 --regid=65534 --clear-groups'",
		"gdb: linux runs as the guest's user");
	has_str(line, "'tbreak kernel_init' -ex run -x /tmp/x.gdb /s/linux",
		"gdb: stops before init, then the script, linux last");
	strv_free(v);
}

static void test_reports(void)
{
	static const char *const lines[] = {
		"[   12.3] BUG: KASAN: slab-out-of-bounds in foo+0x12/0x40",
		"WARNING: possible circular locking dependency detected",
		"BUG: sleeping function called from invalid context at mm/slab.h:1",
		"Failed to enable trace event: timer:nosuch",
	};
	struct guest_outcome o = { .end = GUEST_REPORTED };
	struct ktap k = { 0 };
	char *reason = NULL;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		ok(kernel_report_mark(lines[i], strlen(lines[i])) != NULL, "a report: %s",
		   lines[i] + (i ? 0 : 10));
	is_str(kernel_report_mark(lines[0], strlen(lines[0])), lines[0] + 10,
	       "the report starts at its first word");
	ok(!kernel_report_mark("WARNING: CPU: 0 PID: 1 at x.c", 29), "a plain WARN is not one");
	snprintf(o.kernel_report, sizeof(o.kernel_report), "%s", lines[1]);
	is_int(verdict_of(&o, &k, &reason), V_FAIL, "a kernel report fails a test that exited 0");
	is_str(reason,
	       "ERROR kernel report: WARNING: possible circular locking dependency detected",
	       "  with the report's first line as the reason");
	free(reason);
}

/* A profile is a kernel of its own: its fragment is in the key, apart from --config's. */
static void test_profile_key(void)
{
	char tmpl[] = "/tmp/umlrun-debug-test.XXXXXX";
	char *dir = mkdtemp(tmpl);
	_cleanup_free_ char *cfg = xasprintf("%s/uml-config", dir);
	_cleanup_free_ char *prof = xasprintf("%s/uml-config/profiles/kasan.config", dir);
	_cleanup_free_ char *tarball = xasprintf("%s/linux.tar.xz", dir);
	_cleanup_free_ char *base = xasprintf("%s/uml-config/base.config", dir);
	char *user[] = { prof };
	struct kernel_opts o = { .tarball = tarball, .config_dir = cfg };
	char k0[65], k1[65], k2[65];
	struct uerr e;

	mkdir_p(xasprintf("%s/profiles", cfg), 0755);
	write_file_atomic(base, "CONFIG_HOSTFS=y\n", 16);
	write_file_atomic(prof, "CONFIG_KASAN=y\n", 15);
	write_file_atomic(tarball, "x", 1);
	ok(kernel_key(&o, k0, &e) == 0, "the default kernel's key");
	o.profile = prof;
	ok(kernel_key(&o, k1, &e) == 0 && strcmp(k0, k1), "--profile: another key");
	o.profile = NULL;
	o.fragments = user;
	o.nfragments = 1;
	ok(kernel_key(&o, k2, &e) == 0 && strcmp(k1, k2) && strcmp(k0, k2),
	   "the same fragment as --config: a key of its own (profile:, user:)");
	rm_rf(dir);
}

#define LIB "$qXfer:libraries-svr4:read::0,fff#00"

/* target: what the target sends after gdb sent gdb (or NULL); how much reaches gdb. */
static size_t relay_passes(const char *gdb, const char *target)
{
	struct rsp_relay r = { 0 };
	size_t safe;

	if (gdb)
		gdbserver_scan_gdb(&r, gdb, strlen(gdb));
	gdbserver_scan_target(&r, target, strlen(target), &safe);
	return safe;
}

/*
 * What the relay lets reach gdb of what the target sends after gdb sent its
 * packet (NULL: none): want bytes, or -1 for all of them.
 */
static const char relay_ok_stop[] = "+$T0506:0*,;07:b0e6ffffff7f0000;thread:p2a.2a;core:0;#3c";
static const char relay_notif_then_answer[] = "+%Stop:T05thread:p1.1;#00$F5#00";
static const char relay_vdso[] =
    "$l<library-list-svr4 version=\"1.0\"><library name=\"linux-vdso.so.1\" "
    "lm=\"0x7f\" l_addr=\"0x0\" l_ld=\"0x7ffe\"/><library "
    "name=\"/opt/app/bin/../lib/libx.so\" lm=\"0x1\"/></library-list-svr4>#00";
static const char relay_doctype[] =
    "$m<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target><architecture>i386:x86-64</architecture></target>#00";
static const char relay_entity[] = "$l<!DOCTYPE x [<!ENTITY d \".\">]><library-list/>#00";

static const struct {
	const char *gdb, *target;
	long want;
	const char *name;
} relay_cases[] = {
	{ "$c#63", relay_ok_stop, -1, "relay: a stop reply passes" },
	{ "$c#63", "+$Fopen,100000/12,601,1a4#00", 2, "relay: a File-I/O request is cut at its F" },
	{ "$c#63", "%Stop:Fwrite,1,2,3#00", 6,
	  "relay: a File-I/O request as a notification is cut too" },
	{ "$vFile:open:2f6574632f706173737764,0,0#00", "$F5#00", 6,
	  "relay: the answer to gdb's vFile: passes" },
	{ "$vFile:pread:5,100,0#00", "$F3;a%b#00", 10,
	  "relay: a vFile: answer's data may hold '%'" },
	{ "$vFile:close:5#00", "$Fclose,5#00", 3,
	  "relay: a request in the place of a vFile: answer is cut at its name" },
	{ "$vFile:open:2f,0,0#00", relay_notif_then_answer, -1,
	  "relay: a notification before the vFile: answer" },
	{ "$vFile:open:2f,0,0#00", "$F-1,2#00$Fisatty,1#00", 10,
	  "relay: one vFile: answer only, the next F packet is cut" },
	{ NULL, "$O48656c6c6f#00$W00#b7", 22, "relay: console output and an exit pass" },
	{ "$c#63", "$T05exec:2f7573722f62696e2f78;#00", 33,
	  "relay: a new program's absolute path passes" },
	{ "$c#63", "$T05exec:2f2e2e2f746d70;#00", 16,
	  "relay: a new program's path that climbs above / is cut" },
	{ "$c#63", "$T05exec:2e2e2f78;#00", 10, "relay: a new program's relative path is cut" },
	{ LIB,
	  "$l<library name=\"/.*\x1e"
	  "/etc\"/>#00",
	  21, "relay: a /.. made by a repeat count is cut" },
	{ LIB, "$l<library-list-svr4><library name=\"/lib/libc.so.6\"/>#00", 56,
	  "relay: a library list of absolute names passes" },
	{ LIB, "$l<library name=\"/x/../../etc/passwd\"/>#00", 25,
	  "relay: a library name that climbs above / is cut" },
	{ LIB,
	  "$l<library name=\"/}\x0e"
	  "./etc\"/>#00",
	  21, "relay: a /.. behind an escape is cut" },
	{ LIB, "$l<library name=\"x.so\"/>#00", 21, "relay: a relative library name is cut" },
	{ "$qXfer:exec-file:read:2a:0,fff#00", "$letc/passwd#00", 2,
	  "relay: a relative executable is cut" },
	{ LIB, relay_vdso, -1, "relay: the vDSO's name and a /.. that stays below / pass" },
	{ LIB,
	  "$l<library name=\"/x/&}\x03"
	  "46;/etc\"/>#00",
	  22, "relay: an XML character reference in the library list is cut" },
	{ LIB, "$l<library name = 'etc/passwd'/>#00", 29,
	  "relay: a relative name in another spelling of the attribute is cut" },
	{ "$qXfer:exec-file:read:2a:0,fff#00", "$E01#00", 7,
	  "relay: an error answer to qXfer:exec-file passes" },
	{ "$c#63", "$T05$%Stop:Fopen,1#00", 11,
	  "relay: a '$' inside a packet ends it, and the notification after is read" },
	{ "$vFile:pread:5,10,0#00", "$F4;exec:2e2e#00", 16,
	  "relay: exec: inside a vFile: answer is data, not a new program" },
	{ LIB, "$l<library\rname=\"/../x\"/>#00", 20,
	  "relay: a carriage return before name= is a blank as XML reads it" },
	{ LIB, "$l<library x=\"0 name='/a/b\" name=\"/../x\" y='\"'/>#00", 37,
	  "relay: a name= inside another attribute's value is not the name" },
	{ "$c#63", "$T05library:;#00$l<library name=\"/../x\"/>#00", 36,
	  "relay: a library list sent before gdb asks is read all the same" },
	{ "$c#63", "$T05exec:2f2e2e00;#00", 16, "relay: a NUL in a path is cut" },
	{ "$qXfer:features:read:target.xml:0,fff#00",
	  "$l<target><feature name=\"org.gnu.gdb.i386.core\"><reg name=\"rax\"/>"
	  "</feature></target>#00",
	  87, "relay: a target description's relative names are no libraries" },
	{ "$qXfer:features:read:target.xml:0,fff#00", relay_doctype, -1,
	  "relay: a target description's DOCTYPE passes" },
	{ LIB, relay_entity, 18, "relay: an entity declared is cut" },
};

static void test_relay(void)
{
	for (size_t i = 0; i < sizeof(relay_cases) / sizeof(relay_cases[0]); i++) {
		long want = relay_cases[i].want < 0 ? (long)strlen(relay_cases[i].target)
						    : relay_cases[i].want;

		is_int(relay_passes(relay_cases[i].gdb, relay_cases[i].target), want,
		       relay_cases[i].name);
	}
}

int main(void)
{
	plan(93);
	test_profile_key();
	test_options();
	test_params();
	test_check_kernel();
	test_cmdline();
	test_gdb();
	test_reports();
	test_relay();
	return done_testing();
}
