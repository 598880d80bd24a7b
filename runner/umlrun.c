// SPDX-License-Identifier: MIT
/*
 * umlrun.c - the command layer: parse, dispatch, print, exit.
 *
 * Every command is a short list of phases (find the project, make sure the
 * kernel and root folder are built, boot, supervise, report); the work is
 * in the modules. This is the only file that prints errors or exits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "kernel_cache.h"
#include "ktap.h"
#include "options.h"
#include "report.h"
#include "rootfs.h"
#include "starttime.h"
#include "suite.h"
#include "supervise.h"

#ifndef UMLRUN_DATADIR
#define UMLRUN_DATADIR "/usr/local/share/umlrun"
#endif

/* 2024-01-01T00:00:00Z: a fixed default, so runs repeat exactly. */
#define DEFAULT_START	1704067200LL
#define DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"

/* Everything a command found or built, released in one place. */
struct session {
	const struct opts *o;
	char *project;	/* holds uml-config/, rootfs/, testsuites/ */
	char *guestbin; /* the static guest programs built by make */
	struct kernel kernel;
	char *rootfs;
	struct stage stage;
	bool has_start;
	int64_t start_secs;
	uint64_t start_kernel;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void find_project(struct session *s)
{
	const char *env = getenv("UMLRUN_HOME");
	char exe[4096];
	ssize_t n;

	if (env && *env) {
		s->project = xstrdup(env);
	} else if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0) {
		_cleanup_free_ char *cand = NULL;

		exe[n] = '\0';
		/* build/umlrun in a checkout: the project is build/.. */
		cand = xasprintf("%s/../uml-config", dirname(exe));
		s->project = is_dir(cand) ? xasprintf("%s/..", exe) : xstrdup(UMLRUN_DATADIR);
	} else {
		s->project = xstrdup(UMLRUN_DATADIR);
	}
	{
		char *real = realpath(s->project, NULL);

		if (!real)
			die(EXIT_INFRA, "cannot find umlrun's files in %s; set UMLRUN_HOME",
			    s->project);
		free(s->project);
		s->project = real;
	}
	s->guestbin = xasprintf("%s/build/guest", s->project);
}

static void prepare_kernel(struct session *s)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *config_dir = xasprintf("%s/uml-config", s->project);
	const char *tarball = getenv("UMLRUN_KERNEL_TARBALL");
	struct kernel_opts ko = {
		.src = o->kernel_src,
		.tarball = tarball && *tarball ? tarball : DEFAULT_TARBALL,
		.fragments = o->configs,
		.nfragments = o->nconfigs,
		.config_dir = config_dir,
		.jobs = o->make_jobs ? o->make_jobs : (int)sysconf(_SC_NPROCESSORS_ONLN),
		.progress = isatty(2),
	};
	struct uerr e;

	if (kernel_ensure(&ko, &s->kernel, &e) < 0)
		uerr_die(&e);
}

static void prepare_rootfs(struct session *s)
{
	struct uerr e;

	if (rootfs_ensure(s->project, s->guestbin, &s->rootfs, &e) < 0)
		uerr_die(&e);
}

static void resolve_start(struct session *s)
{
	const struct opts *o = s->o;
	struct uerr e;

	if (o->mode == TT_OFF) {
		if (o->start)
			die(EXIT_USAGE,
			    "--start needs time travel: the kernel sets the guest clock "
			    "only with --time-travel=basic or inf-cpu");
		return;
	}
	s->has_start = true;
	s->start_secs = DEFAULT_START;
	if (o->start && start_parse(o->start, &s->start_secs, &e) < 0)
		uerr_die(&e);
	if (start_to_kernel(s->start_secs, s->kernel.start_unit, &s->start_kernel, &e) < 0)
		uerr_die(&e);
}

/* The suites to run: --suite-dir, or the project's testsuites/. */
static char *suites_dir(const struct session *s)
{
	char *dir;

	if (!s->o->suite_dir)
		return xasprintf("%s/testsuites", s->project);
	dir = realpath(s->o->suite_dir, NULL);
	if (!dir || !is_dir(dir))
		die(EXIT_USAGE, "--suite-dir=%s: no such folder", s->o->suite_dir);
	return dir;
}

static void prepare_stage(struct session *s)
{
	_cleanup_free_ char *suites = suites_dir(s);
	_cleanup_free_ char *lib = xasprintf("%s/testsuites/lib", s->project);
	struct uerr e;

	if (stage_create(&s->stage, s->kernel.binary, s->rootfs, suites, lib, &e) < 0)
		uerr_die(&e);
}

static void session_end(struct session *s)
{
	stage_destroy(&s->stage);
	kernel_release(&s->kernel);
	free(s->rootfs);
	free(s->project);
	free(s->guestbin);
}

static struct guest_spec guest_for(const struct session *s, int index)
{
	return (struct guest_spec){
		.stage = &s->stage,
		.index = index,
		.mode = s->o->mode,
		.has_start = s->has_start,
		.start_kernel = s->start_kernel,
		.start_secs = s->start_secs,
		.mem = s->o->mem,
	};
}

/* ---- run ---------------------------------------------------------- */

/* What a test's guest streams, and where it goes as it arrives. */
struct test_io {
	struct ktap *ktap;
	FILE *ktap_log, *run_ktap;
	int console_fd;
	bool verbose;
	struct strbuf partial; /* an unfinished result line */
	struct strbuf out_all; /* guest-visible output, for --check-determinism */
	struct strbuf err_all;
};

static bool ktap_like(const char *l)
{
	return !strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7) ||
	       !strncmp(l, "KTAP version", 12) || !strncmp(l, "TAP version", 11) ||
	       !strncmp(l, "1..", 3) || l[0] == '#' || l[0] == ' ' || !l[0];
}

static void result_line(struct test_io *t, const char *l)
{
	/* Only KTAP goes on the result channel; anything else is a diagnostic. */
	const char *pre = ktap_like(l) ? "" : "# ";

	fprintf(t->ktap_log, "%s\n", l);
	ktap_feed(t->ktap, l);
	printf("    %s%s\n", pre, l);
	fprintf(t->run_ktap, "    %s%s\n", pre, l);
	fflush(stdout);
}

static void on_out(void *ctx, const char *data, size_t len)
{
	struct test_io *t = ctx;

	sb_add(&t->out_all, data, len);
	for (size_t i = 0; i < len; i++) {
		if (data[i] == '\r')
			continue;
		if (data[i] != '\n') {
			sb_add(&t->partial, data + i, 1);
			continue;
		}
		result_line(t, t->partial.buf ? t->partial.buf : "");
		t->partial.len = 0;
		if (t->partial.buf)
			t->partial.buf[0] = '\0';
	}
}

static void to_console(struct test_io *t, const char *data, size_t len)
{
	if (write(t->console_fd, data, len) < 0)
		return;
	if (t->verbose && write(2, data, len) < 0)
		return;
}

static void on_err(void *ctx, const char *data, size_t len)
{
	struct test_io *t = ctx;

	sb_add(&t->err_all, data, len);
	to_console(t, data, len);
}

static void on_console(void *ctx, const char *data, size_t len)
{
	to_console(ctx, data, len);
}

/* Moves what the guest wrote under /results into the test's folder. */
static void collect_artifacts(const struct session *s, int index, const char *test_dir)
{
	_cleanup_free_ char *from = xasprintf("%s/g%d/results", s->stage.dir, index);
	_cleanup_free_ char *to = xasprintf("%s/artifacts", test_dir);

	if (rename(from, to) < 0) {
		char *argv[] = { "cp", "-a", from, to, NULL };

		if (run_argv(argv, -1) != 0)
			warn("cannot copy the artifacts of %s", test_dir);
	}
}

/* First line where two runs' outputs differ, as a diagnostic. */
static char *first_difference(const char *a, const char *b, const char *what)
{
	int line = 1;
	const char *pa = a, *pb = b;

	while (*pa && *pb) {
		const char *ea = strchrnul(pa, '\n'), *eb = strchrnul(pb, '\n');

		if (ea - pa != eb - pb || memcmp(pa, pb, (size_t)(ea - pa)))
			return xasprintf("%s line %d: '%.*s' then '%.*s'", what, line,
					 (int)(ea - pa), pa, (int)(eb - pb), pb);
		pa = *ea ? ea + 1 : ea;
		pb = *eb ? eb + 1 : eb;
		line++;
	}
	if (*pa || *pb)
		return xasprintf("%s line %d: one run's output ends here, the other's goes on",
				 what, line);
	return NULL;
}

struct run_state {
	struct session *s;
	char *run_dir;
	FILE *run_ktap;
	struct record *rec;
	size_t nrec;
	int host_signal;
	char *first_out, *first_err; /* attempt 1's output, per test */
};

static void run_one(struct run_state *rs, const struct test *t, int attempt, int number)
{
	struct session *s = rs->s;
	const struct opts *o = s->o;
	struct record *r;
	struct guest_spec g = guest_for(s, 0);
	struct test_io io = { 0 };
	struct guest_io gio = { on_out, on_err, on_console, &io };
	_cleanup_free_ char *base =
	    xasprintf("%s/%.*s", t->suite, (int)(strlen(t->file) - 3), t->file);
	_cleanup_free_ char *abs = NULL;
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char *cmdline = NULL;
	char **argv;
	struct uerr e;

	rs->rec = xrealloc(rs->rec, (rs->nrec + 1) * sizeof(*rs->rec));
	r = &rs->rec[rs->nrec++];
	memset(r, 0, sizeof(*r));
	r->test = t;
	r->attempt = attempt;
	r->dir = o->repeat > 1 ? xasprintf("%s.%d", base, attempt) : xstrdup(base);
	ktap_init(&r->ktap);
	abs = xasprintf("%s/%s", rs->run_dir, r->dir);
	if (mkdir_p(abs, 0755) < 0 || stage_guest_dir(&s->stage, 0, &e) < 0)
		die_sys(EXIT_INFRA, "cannot create %s", abs);

	g.test = t->id;
	g.sim_timeout = o->timeout ? o->timeout : t->timeout;
	g.mem = o->mem ? o->mem : t->mem;
	g.extra = t->cmdline;
	argv = guest_cmdline(&g, &e);
	if (!argv)
		uerr_die(&e);
	cmdline = strv_join(argv);
	strv_free(argv);
	path = xasprintf("%s/cmdline.txt", abs);
	{
		_cleanup_free_ char *text = xasprintf("%s\n", cmdline);

		write_file_atomic(path, text, strlen(text));
	}
	free(path);
	path = xasprintf("%s/ktap.log", abs);
	io.ktap = &r->ktap;
	io.ktap_log = fopen(path, "we");
	free(path);
	path = xasprintf("%s/console.log", abs);
	io.console_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	io.run_ktap = rs->run_ktap;
	io.verbose = o->verbose;
	if (!io.ktap_log || io.console_fd < 0)
		die_sys(EXIT_INFRA, "cannot write the logs of %s", abs);
	dprintf(io.console_fd, "# %s\n", cmdline);
	printf("# %s%s\n", t->id, attempt > 1 ? xasprintf(" (run %d)", attempt) : "");
	fflush(stdout);

	if (guest_run(&g, &gio, o->wall_timeout ? o->wall_timeout : t->wall_timeout, &r->outcome,
		      &e) < 0)
		uerr_die(&e);
	if (io.partial.len)
		result_line(&io, io.partial.buf);
	fclose(io.ktap_log);
	close(io.console_fd);
	collect_artifacts(s, 0, abs);

	r->verdict = verdict_of(&r->outcome, &r->ktap, &r->reason);
	if (r->outcome.end == GUEST_INTERRUPTED)
		rs->host_signal = r->outcome.host_signal;
	if (o->check_determinism && r->verdict != V_INTERRUPTED) {
		if (attempt == 1) {
			free(rs->first_out);
			free(rs->first_err);
			rs->first_out = xstrdup(io.out_all.buf ? io.out_all.buf : "");
			rs->first_err = xstrdup(io.err_all.buf ? io.err_all.buf : "");
		} else {
			char *d = first_difference(
			    rs->first_out, io.out_all.buf ? io.out_all.buf : "", "result output");

			if (!d)
				d = first_difference(
				    rs->first_err, io.err_all.buf ? io.err_all.buf : "", "stderr");
			if (d) {
				printf("    # not deterministic: run 1 and run %d differ at %s\n",
				       attempt, d);
				free(r->reason);
				r->reason =
				    xasprintf("ERROR not deterministic: runs 1 and %d differ at %s",
					      attempt, d);
				if (r->verdict == V_PASS || r->verdict == V_SKIP)
					r->verdict = V_FAIL;
				free(d);
			}
		}
	}
	sb_release(&io.partial);
	sb_release(&io.out_all);
	sb_release(&io.err_all);

	{
		_cleanup_free_ char *line =
		    xasprintf("%s %d %s%s%s%s",
			      r->verdict == V_PASS || r->verdict == V_SKIP ? "ok" : "not ok",
			      number, t->id, attempt > 1 || o->repeat > 1 ? "" : "",
			      r->reason ? " # " : "", r->reason ? r->reason : "");

		printf("%s\n# %s: %s, %.3f simulated s, %.3f wall s\n", line, t->id,
		       verdict_name(r->verdict), r->outcome.sim_seconds, r->outcome.wall_seconds);
		fprintf(rs->run_ktap, "%s\n", line);
		fflush(stdout);
		fflush(rs->run_ktap);
	}
}

/* A signal that came between guests is pending: take it without waiting. */
static int pending_signal(void)
{
	sigset_t set;
	struct timespec zero = { 0, 0 };
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sig = sigtimedwait(&set, NULL, &zero);
	return sig > 0 ? sig : 0;
}

static int finish_run(struct run_state *rs, double t0, const char *cmdline_example)
{
	struct session *s = rs->s;
	_cleanup_free_ char *json = xasprintf("%s/results.json", rs->run_dir);
	_cleanup_free_ char *junit = xasprintf("%s/junit.xml", rs->run_dir);
	struct run_info ri = {
		.mode = tt_mode_name(s->o->mode),
		.has_start = s->has_start,
		.start = (long long)s->start_secs,
		.kernel = s->kernel.binary,
		.kernel_key = s->kernel.key,
		.cmdline_example = cmdline_example,
		.wall_seconds = now() - t0,
	};
	struct uerr e;
	int pass = 0;

	ri.exit_code =
	    rs->host_signal ? EXIT_SIGNAL_BASE + rs->host_signal : exit_code_of(rs->rec, rs->nrec);
	if (report_write_json(json, &ri, rs->rec, rs->nrec, &e) < 0 ||
	    report_write_junit(junit, &ri, rs->rec, rs->nrec, &e) < 0)
		warn("%s", e.msg);
	for (size_t i = 0; i < rs->nrec; i++)
		pass += rs->rec[i].verdict == V_PASS;
	printf("# %d/%zu test files passed in %.1f s wall; results in %s\n", pass, rs->nrec,
	       ri.wall_seconds, rs->run_dir);
	return ri.exit_code;
}

static int cmd_run(const struct opts *o)
{
	struct session s = { .o = o };
	struct run_state rs = { .s = &s };
	struct test_list tests;
	_cleanup_free_ char *suites = NULL;
	_cleanup_free_ char *ktap_path = NULL;
	_cleanup_free_ char *example = NULL;
	struct uerr e;
	double t0 = now();
	int number = 0, code;

	find_project(&s);
	suites = suites_dir(&s);
	/* Bad input first: nothing is built or written for a typo. */
	if (suites_find(suites, o->args, o->nargs, &tests, &e) < 0)
		uerr_die(&e);
	if (o->start && o->mode != TT_OFF) {
		int64_t ignored;

		if (start_parse(o->start, &ignored, &e) < 0)
			uerr_die(&e);
	}
	prepare_kernel(&s);
	prepare_rootfs(&s);
	resolve_start(&s);
	if (run_dir_create(o->results_dir ? o->results_dir : "results", &rs.run_dir, &e) < 0)
		uerr_die(&e);
	supervise_block_signals();
	prepare_stage(&s);
	ktap_path = xasprintf("%s/ktap.txt", rs.run_dir);
	rs.run_ktap = fopen(ktap_path, "we");
	if (!rs.run_ktap)
		die_sys(EXIT_INFRA, "cannot write %s", ktap_path);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%zu\n", tests.n * (size_t)o->repeat);
	fprintf(rs.run_ktap, "KTAP version 1\n1..%zu\n", tests.n * (size_t)o->repeat);
	{
		struct guest_spec g = guest_for(&s, 0);
		char **argv = guest_cmdline(&g, &e);

		example = argv ? strv_join(argv) : xstrdup("");
		strv_free(argv);
		printf("# kernel: %s\n# command line (per test, plus umlrun.test=...): %s\n",
		       s.kernel.binary, example);
	}
	for (size_t i = 0; i < tests.n && !rs.host_signal; i++) {
		for (int a = 1; a <= o->repeat && !rs.host_signal; a++) {
			run_one(&rs, &tests.v[i], a, ++number);
			if (!rs.host_signal)
				rs.host_signal = pending_signal();
		}
	}
	if (rs.host_signal)
		printf("# interrupted by %s: %zu of %zu test files ran\n",
		       sigabbrev_np(rs.host_signal), rs.nrec, tests.n * (size_t)o->repeat);
	code = finish_run(&rs, t0, example);
	fclose(rs.run_ktap);
	for (size_t i = 0; i < rs.nrec; i++) {
		ktap_free(&rs.rec[i].ktap);
		free(rs.rec[i].dir);
		free(rs.rec[i].reason);
	}
	free(rs.rec);
	free(rs.first_out);
	free(rs.first_err);
	free(rs.run_dir);
	tests_free(&tests);
	session_end(&s);
	return code;
}

/* ---- exec and shell ----------------------------------------------- */

static void pass_out(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	if (write(1, data, len) < 0)
		return;
}

static void pass_err(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	if (write(2, data, len) < 0)
		return;
}

static int boot_one(const struct opts *o, char *const *argv, bool shell)
{
	struct session s = { .o = o };
	struct guest_spec g;
	struct guest_outcome out;
	struct guest_io io = { shell ? NULL : pass_out, shell ? NULL : pass_err, NULL, NULL };
	struct uerr e;
	int code;

	find_project(&s);
	if (o->start && o->mode != TT_OFF) {
		int64_t ignored;

		if (start_parse(o->start, &ignored, &e) < 0)
			uerr_die(&e);
	}
	prepare_kernel(&s);
	prepare_rootfs(&s);
	resolve_start(&s);
	supervise_block_signals();
	prepare_stage(&s);
	if (stage_guest_dir(&s.stage, 0, &e) < 0)
		uerr_die(&e);
	g = guest_for(&s, 0);
	g.argv = argv;
	g.shell = shell;
	g.sim_timeout = shell ? 0 : o->timeout ? o->timeout : 600;
	if (guest_run(&g, &io, shell ? 0 : o->wall_timeout ? o->wall_timeout : 120, &out, &e) < 0) {
		session_end(&s);
		uerr_die(&e);
	}
	switch (out.end) {
	case GUEST_REPORTED:
		code = out.job_signal ? EXIT_SIGNAL_BASE + out.job_signal : out.job_exit;
		break;
	case GUEST_SIM_TIMEOUT:
	case GUEST_WALL_TIMEOUT:
		note("timeout: %s", out.detail);
		code = EXIT_TIMEOUT;
		break;
	case GUEST_INTERRUPTED:
		code = EXIT_SIGNAL_BASE + out.host_signal;
		break;
	default:
		note("the guest failed: %s", out.detail);
		code = EXIT_INFRA;
	}
	session_end(&s);
	return code;
}

static int cmd_exec(const struct opts *o)
{
	return boot_one(o, o->args, false);
}

static int cmd_shell(const struct opts *o)
{
	if (!isatty(0))
		die(EXIT_USAGE,
		    "shell: stdin is not a terminal; use 'umlrun exec -- CMD' to run a command");
	return boot_one(o, NULL, true);
}

/* ---- build, list, help --------------------------------------------- */

static int cmd_build(const struct opts *o)
{
	struct session s = { .o = o };

	find_project(&s);
	prepare_kernel(&s);
	prepare_rootfs(&s);
	printf("kernel: %s (%s; time-travel-start= in %s)\nrootfs: %s\n", s.kernel.binary,
	       s.kernel.built ? "built" : "cached", start_unit_name(s.kernel.start_unit), s.rootfs);
	session_end(&s);
	return EXIT_PASS;
}

static int cmd_list(const struct opts *o)
{
	struct session s = { .o = o };
	struct test_list tests;
	_cleanup_free_ char *suites = NULL;
	struct uerr e;

	find_project(&s);
	suites = suites_dir(&s);
	if (suites_find(suites, o->args, o->nargs, &tests, &e) < 0)
		uerr_die(&e);
	for (size_t i = 0; i < tests.n; i++)
		printf("%s\n", tests.v[i].id);
	tests_free(&tests);
	session_end(&s);
	return EXIT_PASS;
}

static int cmd_help(const struct opts *o)
{
	enum command c = o->nargs ? command_lookup(o->args[0]) : CMD_NONE;

	if (o->nargs && c == CMD_NONE)
		die(EXIT_USAGE, "unknown command '%s'; see 'umlrun --help'", o->args[0]);
	fputs(command_usage(c), stdout);
	return EXIT_PASS;
}

static const struct {
	enum command cmd;
	int (*fn)(const struct opts *o);
} dispatch[] = {
	{ CMD_BUILD, cmd_build }, { CMD_RUN, cmd_run },	  { CMD_EXEC, cmd_exec },
	{ CMD_SHELL, cmd_shell }, { CMD_LIST, cmd_list }, { CMD_HELP, cmd_help },
};

int main(int argc, char **argv)
{
	struct opts o;
	struct uerr e;

	if (opts_parse(argc, argv, &o, &e) < 0)
		uerr_die(&e);
	if (o.help) {
		fputs(command_usage(o.cmd), stdout);
		return EXIT_PASS;
	}
	for (size_t i = 0; i < sizeof(dispatch) / sizeof(dispatch[0]); i++)
		if (dispatch[i].cmd == o.cmd)
			return dispatch[i].fn(&o);
	die(EXIT_USAGE, "unknown command; see 'umlrun --help'");
}
