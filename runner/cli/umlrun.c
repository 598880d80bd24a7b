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
#include <fnmatch.h>
#include <inttypes.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "session.h"
#include "selection.h"
#include "finish.h"
#include "cmd_run.h"
#include "commands.h"
#include "doctor.h"
#include "gdb.h"
#include "gdbserver.h"
#include "html.h"
#include "kernel_cache.h"
#include "kselftest.h"
#include "hostap_build.h"
#include "hwsim.h"
#include "hwsim_pyc.h"
#include "kunit.h"
#include "kunit_json.h"
#include "ktap.h"
#include "options.h"
#include "overlay_cache.h"
#include "plain.h"
#include "profile.h"
#include "prune.h"
#include "report.h"
#include "results_read.h"
#include "merge.h"
#include "shard.h"
#include "rootfs.h"
#include "starttime.h"
#include "suite.h"
#include "sched.h"
#include "supervise.h"
#include "trace.h"

/* ---- exec and shell ----------------------------------------------- */

/* exec streams the guest's output through the queues (util.h): never blocked by a reader. */
static void pass_out(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	outq_add(&outq_stdout, data, len);
}

static void pass_err(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	outq_add(&outq_stderr, data, len);
}

/* The most of a guest's trace.txt exec keeps (the guest's results may hold 2 GiB). */
#define TRACE_KEEP_MAX (512 << 20)

/*
 * exec --trace-event: the guest saved its trace buffer in its results
 * folder, which exec otherwise drops; it becomes trace.txt here.
 */
static void keep_exec_trace(const struct session *s)
{
	_cleanup_free_ char *dir = xasprintf("%s/g0/results", s->stage.dir);
	_cleanup_close_ int dfd = -1;
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *text = NULL;
	struct stat st;
	size_t len = 0;
	int r;

	if (!s->trace_event && !s->kprobe_event)
		return;
	/*
	 * The guest wrote it: a link (to a host file), a fifo (open would
	 * block) or a huge file is not a trace.
	 */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	fd =
	    dfd < 0 ? -1 : openat(dfd, "trace.txt", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		warn("--trace-event: the guest saved no trace (none, or not a plain file)");
		return;
	}
	if (st.st_size > TRACE_KEEP_MAX) {
		warn("--trace-event: the guest's trace.txt is over %d MiB; not kept",
		     TRACE_KEEP_MAX >> 20);
		return;
	}
	text = xmalloc((size_t)st.st_size + 1);
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, text + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if ((r = write_file_atomic("trace.txt", text, len)) < 0) {
		errno = -r;
		warn_sys("--trace-event: cannot write trace.txt");
		return;
	}
	note("trace: trace.txt (%zu bytes)", len);
	{
		unsigned long long kept, written;

		if (trace_overflowed("trace.txt", &kept, &written))
			warn("--trace-event: the buffer kept the newest %llu of %llu events; a "
			     "larger one (cmdline=trace_buf_size=16M in a suite's settings, for "
			     "umlrun run) keeps more: docs/debugging.md",
			     kept, written);
	}
}

static int boot_one(const struct opts *o, char *const *argv, bool shell)
{
	struct session s = { .o = o };
	struct gdbserver_line line = { .master = -1, .host = -1 };
	char **gdb_guest_argv = NULL;
	pid_t gdb_pid = -1;
	struct guest_spec g;
	struct guest_outcome out;
	struct guest_io io = { shell ? NULL : pass_out, shell ? NULL : pass_err, NULL, NULL };
	struct uerr e;
	int code;

	find_project(&s);
	s.mode = o->mode;
	check_inputs(&s);
	if (o->gdb_guest && !o->mode_given)
		note("--gdb-guest: time travel off (the guest idles while gdb waits); "
		     "--time-travel=MODE to choose");
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
	g.sim_timeout = shell ? 0 : o->timeout ? o->timeout : TEST_TIMEOUT_DEFAULT;
	if (o->gdb_guest) {
		/* A person (or gdb's script) decides how long the program takes. */
		if (gdbserver_line_open(&line, &e) < 0) {
			session_end(&s);
			uerr_die(&e);
		}
		g.argv = gdb_guest_argv = gdbserver_guest_argv(argv);
		g.gdbserver_master = line.master;
		g.sim_timeout = 0;
		{
			_cleanup_free_ char *sysroot = xasprintf("%s/root", s.stage.dir);

			gdb_pid = gdbserver_gdb_start(&line, s.gdb_guest, s.gdb_guest_script,
						      sysroot, s.gdb_guest_sources);
		}
		/* gdb's end of the line is gdb's alone (gdbserver.c says why). */
		close(line.host);
		line.host = -1;
	}
	if (guest_run(&g, &io,
		      shell || o->gdb || o->gdb_guest
			  ? 0
			  : sched_wall_limit(o->mode, o->wall_timeout, TEST_WALL_TIMEOUT_DEFAULT,
					     g.sim_timeout),
		      &out, &e) < 0) {
		if (gdb_pid > 0)
			kill(gdb_pid, SIGTERM);
		session_end(&s);
		die_doctor(&e);
	}
	if (gdb_pid > 0) {
		/* The line closes with the guest: gdb sees the connection end. */
		gdbserver_line_close(&line);
		gdbserver_gdb_wait(gdb_pid, !s.gdb_guest_script);
	}
	gdbserver_line_close(&line);
	strv_free(gdb_guest_argv);
	/* The guest's output the reader has not taken: waited for, but not past a signal. */
	{
		int sig = outq_drain(&outq_stdout, supervise_signalfd());

		if (!sig)
			sig = outq_drain(&outq_stderr, supervise_signalfd());
		if (sig) {
			session_end(&s);
			return EXIT_SIGNAL_BASE + sig;
		}
		/* exec keeps no other copy: output lost is an error, not a pass. */
		if (outq_stdout.lost && outq_stdout.err != EPIPE) {
			warn("the command's output could not be written to stdout: %s",
			     strerror(outq_stdout.err));
			session_end(&s);
			return EXIT_INFRA;
		}
		if (outq_stdout.dropped || outq_stderr.dropped) {
			warn(
			    "%zu bytes of the guest's output were lost: its reader did not keep up",
			    outq_stdout.dropped + outq_stderr.dropped);
			session_end(&s);
			return EXIT_INFRA;
		}
	}
	keep_exec_trace(&s);
	switch (out.end) {
	case GUEST_REPORTED:
		code = out.job_signal ? EXIT_SIGNAL_BASE + out.job_signal : out.job_exit;
		/* A KASAN or lockdep report fails a command that exited 0. */
		if (out.kernel_report[0]) {
			note("kernel report: %s", out.kernel_report);
			if (!strncmp(out.kernel_report, "Failed to enable trace event", 28))
				code = EXIT_USAGE;
			else if (!code)
				code = EXIT_TESTFAIL;
		}
		break;
	case GUEST_SIM_TIMEOUT:
	case GUEST_WALL_TIMEOUT:
		note("timeout: %s: %s", out.detail, timeout_hint(&out, false));
		code = EXIT_TIMEOUT;
		break;
	case GUEST_INTERRUPTED:
		code = EXIT_SIGNAL_BASE + out.host_signal;
		break;
	default:
		note("the guest failed: %s%s", out.detail,
		     out.end != GUEST_INIT_ERROR && !out.began ? DOCTOR_HINT : "");
		code = EXIT_INFRA;
	}
	session_end(&s);
	return code;
}

int cmd_exec(const struct opts *o)
{
	struct opts dbg = *o;

	/*
	 * Under --gdb-guest the guest idles whenever gdbserver waits for gdb,
	 * and under time travel idle time is skipped: the clock would race
	 * ahead while a person thinks. Real time unless asked otherwise.
	 */
	if (o->gdb_guest && !o->mode_given)
		dbg.mode = TT_OFF; /* boot_one says so */
	return boot_one(&dbg, o->args, false);
}

int cmd_shell(const struct opts *o)
{
	struct opts shell = *o;

	if (!isatty(0))
		die(EXIT_USAGE,
		    "shell: stdin is not a terminal; use 'umlrun exec -- CMD' to run a command");
	/*
	 * A guest waiting for keystrokes is idle, and under time travel idle
	 * time is skipped: the clock races ahead and the CPU spins. So the
	 * shell runs in real time unless asked otherwise.
	 */
	if (!o->mode_given) {
		shell.mode = TT_OFF;
		note("shell: time travel off (an idle guest would race its clock); "
		     "--time-travel=MODE to choose");
	}
	return boot_one(&shell, NULL, true);
}

/* ---- merge -------------------------------------------------------- */

int cmd_merge(const struct opts *o)
{
	struct uerr e;

	struct loaded_run merged;
	int code;

	/* A signal stops the merge between two test folders, its half-made folder gone. */
	supervise_block_signals();
	if (merge_runs(o->args, (size_t)o->nargs, o->output, &e) < 0 ||
	    results_load(o->output, &merged, &e) < 0)
		uerr_die(&e);
	printf("# merged %d shard runs into %s: %zu test files\n", o->nargs, o->output, merged.n);
	/* The merged run's verdict, so a CI merge job fails when a shard did. */
	code = merged.info.exit_code;
	results_free(&merged);
	return code;
}

/* ---- build, list, help --------------------------------------------- */

int cmd_build(const struct opts *o)
{
	struct session s = { .o = o };

	find_project(&s);
	prepare_kernel(&s);
	prepare_rootfs(&s);
	printf("kernel: %s (%s %s; time-travel-start= in %s%s)\nrootfs: %s\n", s.kernel.binary,
	       s.kernel.release, s.kernel.built ? "built" : "cached",
	       start_unit_name(s.kernel.start_unit),
	       s.kernel.has_seccomp ? "; seccomp userspace" : "", s.rootfs);
	session_end(&s);
	return EXIT_PASS;
}

/* prune: keep what build would use now, remove the rest. */
int cmd_prune(const struct opts *o)
{
	struct session s = { .o = o };
	_cleanup_free_ char *config_dir = NULL;
	_cleanup_free_ char *cache = cache_root();
	_cleanup_free_ char *kdir = NULL;
	_cleanup_free_ char *rdir = NULL;
	struct kernel_opts ko;
	const char *keep[2];
	struct prune_opts po;
	struct uerr e;

	find_project(&s);
	config_dir = xasprintf("%s/uml-config", s.project);
	ko = kernel_opts_of(&s, config_dir);
	ko.fetch_script = NULL; /* prune never downloads a kernel source */
	if (kernel_locate(&ko, &kdir, &e) < 0 ||
	    rootfs_locate(s.project, s.guestbin, NULL, &rdir, &e) < 0)
		uerr_die(&e);
	keep[0] = kdir;
	keep[1] = rdir;
	po = (struct prune_opts){ cache, keep, 2, time(NULL), o->dry_run };
	if (cache_prune(&po, stdout, &e) < 0)
		uerr_die(&e);
	session_end(&s);
	return EXIT_PASS;
}

/* doctor: the host checks (doctor.h), one line each; exit 3 if one failed. */
int cmd_doctor(const struct opts *o)
{
	struct session s = { .o = o };
	const char *packages = getenv("UMLRUN_PACKAGES");
	_cleanup_free_ char *own_packages = NULL;
	_cleanup_free_ char *config_dir = NULL;
	_cleanup_free_ char *cache = cache_path();
	_cleanup_free_ char *cache_error = cache_problem(cache);
	_cleanup_free_ char *sources = NULL;
	_cleanup_free_ char *kdir = NULL;
	struct passwd *pw = getpwnam("nobody");
	struct group *gr = getgrnam("nogroup");
	struct doctor_input in;
	struct doctor_report r;
	struct kernel_opts ko;
	struct uerr e = { 0 };
	char unfetched[256] = "";
	int code;

	find_project(&s);
	own_packages = xasprintf("%s/debian-packages", s.project);
	sources = xasprintf("%s/runner", s.project);
	config_dir = xasprintf("%s/uml-config", s.project);
	ko = kernel_opts_of(&s, config_dir);
	/* Checking must not download a kernel source (160 MB). */
	ko.fetch_script = NULL;
	if (!o->kernel_src && ko.version && !path_exists(ko.tarball))
		snprintf(unfetched, sizeof(unfetched),
			 "not built, and its source not here yet: the first build fetches "
			 "linux-source-%s from Debian (about 160 MB), or 'umlrun build%s%s' now",
			 ko.version->name, o->kernel ? " --kernel=" : "",
			 o->kernel ? o->kernel : "");
	in = (struct doctor_input){
		.packages_file = packages && *packages ? packages : own_packages,
		.tmpdir = getenv("TMPDIR"),
		.cache_dir = cache,
		.cache_error = cache_error,
		.kernel_name = o->kernel_src ? o->kernel_src
			       : o->kernel   ? o->kernel
					     : KERNEL_DEFAULT,
		.kernel_dir =
		    !*unfetched && !cache_error && kernel_locate(&ko, &kdir, &e) == 0 ? kdir : NULL,
		.kernel_error = *unfetched ? unfetched : e.msg,
		/* Installed, umlrun is built already: its build packages do not count. */
		.checkout = is_dir(sources),
		/* As root the guest runs as nobody (boot.c). */
		.as_root = geteuid() == 0 && pw && gr,
		.guest_uid = pw ? pw->pw_uid : 0,
		.guest_gid = gr ? gr->gr_gid : 0,
	};
	doctor_run(&in, &r);
	for (size_t i = 0; i < r.n; i++)
		printf("%s %s%s%s\n", doctor_level_name(r.v[i].level), r.v[i].what,
		       r.v[i].detail ? ": " : "", r.v[i].detail ? r.v[i].detail : "");
	code = doctor_exit_code(&r);
	doctor_report_free(&r);
	session_end(&s);
	return code;
}

int cmd_help(const struct opts *o)
{
	enum command c = o->nargs ? command_lookup(o->args[0]) : CMD_NONE;

	if (o->nargs && c == CMD_NONE)
		die(EXIT_USAGE, "unknown command '%s'; see 'umlrun --help'", o->args[0]);
	fputs(command_usage(c), stdout);
	return EXIT_PASS;
}

/* The handler of every command, from the one list (options.h). */
#define DISPATCH(id, name) [CMD_##id] = cmd_##name,
static int (*const dispatch[CMD_COUNT])(const struct opts *o) = { UMLRUN_COMMANDS(DISPATCH) };
#undef DISPATCH
/*
 * What went to stdout through stdio (doctor's checks, prune's list, the
 * help) must have reached it: a command that passed but could not say so
 * (>/dev/full, >&-) exits 3. A failing one keeps its own status.
 */
static int stdout_written(int code)
{
	errno = 0;
	if (code == EXIT_PASS && (fflush(stdout) != 0 || ferror(stdout))) {
		/* Its reader gone (| head): what the shell says of a writer SIGPIPE ends. */
		if (errno == EPIPE)
			return EXIT_SIGNAL_BASE + SIGPIPE;
		note("cannot write to stdout: %s", strerror(errno ? errno : EIO));
		return EXIT_INFRA;
	}
	return code;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct uerr e;

	std_fds_fill();
	stderr_queue_init();
	/*
	 * What umlrun makes (the cache, the stage) must be readable by the
	 * guest's user (nobody, when umlrun is root): a umask of 077 made
	 * every guest fail, and a root folder assembled under it stayed so.
	 * The umask's write bits stay.
	 */
	{
		mode_t mask = umask(0);

		umask(mask & 022);
	}
	if (opts_parse(argc, argv, &o, &e) < 0)
		uerr_die(&e);
	if (o.help) {
		fputs(command_usage(o.cmd), stdout);
		return stdout_written(EXIT_PASS);
	}
	if (o.cmd > CMD_NONE && o.cmd < CMD_COUNT)
		return stdout_written(dispatch[o.cmd](&o));
	die(EXIT_USAGE, "unknown command; see 'umlrun --help'");
}
