// SPDX-License-Identifier: MIT
/*
 * cmd_exec.c - umlrun exec and umlrun shell: one guest, a command's
 * output streamed through or an interactive shell, its exit status
 * umlrun's; --gdb-guest's gdbserver and gdb, --trace-event's trace.txt.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "gdbserver.h"
#include "sched.h"
#include "session.h"
#include "supervise.h"
#include "trace.h"

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
