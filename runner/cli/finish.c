// SPDX-License-Identifier: MIT
/*
 * finish.c - the end of a run, one home for every command that runs tests
 * (run, kselftest, hwsim, compare, kunit): the results folder and its
 * latest link, the reports, what could not reach stdout or ktap.txt, a
 * signal that came at the end, and the exit code the run ends with
 * (docs/exit-codes.md). See finish.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "finish.h"
#include "html.h"
#include "report.h"
#include "shard.h"
#include "supervise.h"

/* A signal that came while the reports were written (finish_run, finish_stdout). */
static int late_signal;

const char *finish_results_dir(const struct opts *o)
{
	return o->results_dir ? o->results_dir : RESULTS_DIR_DEFAULT;
}

void finish_open(const struct opts *o, struct run *run)
{
	struct uerr e;

	if (run_dir_create(finish_results_dir(o), &run->dir, &e) < 0)
		uerr_die(&e);
	if (e.msg[0]) /* the run folder is there, its latest link is not */
		warn("%s", e.msg);
}

void finish_exit_code(struct run *run)
{
	run->exit_code = run->res.host_signal ? EXIT_SIGNAL_BASE + run->res.host_signal
					      : exit_code_of(run->res.rec, run->res.nrec);
}

bool finish_reader_gone(struct run *run, int err)
{
	if (err != EPIPE || run->res.host_signal)
		return false;
	run->res.host_signal = SIGPIPE;
	run->exit_code = EXIT_SIGNAL_BASE + SIGPIPE;
	return true;
}

/* The tests a run that stopped early never started: --rerun-failed runs them too. */
static void find_not_run(const struct test_list *tests, struct run *run)
{
	run->not_run = xcalloc(tests->n + 1, sizeof(char *));
	run->nnot_run = 0;
	for (size_t i = 0; i < tests->n; i++) {
		bool ran = false;

		for (size_t j = 0; !ran && j < run->res.nrec; j++)
			ran = run->res.rec[j].test == &tests->v[i];
		if (!ran)
			run->not_run[run->nnot_run++] = tests->v[i].id;
	}
}

void write_reports(struct session *s, struct run *run, const char *example)
{
	_cleanup_free_ char *json = xasprintf("%s/results.json", run->dir);
	_cleanup_free_ char *junit = xasprintf("%s/junit.xml", run->dir);
	_cleanup_free_ char *html = xasprintf("%s/report.html", run->dir);
	struct run_info ri = {
		.mode = tt_mode_name(run->mode),
		.has_start = s->has_start,
		.start = (long long)s->start_secs,
		.kernel = s->kernel.binary,
		.kernel_key = s->kernel.key,
		.cmdline_example = example,
		.overlays = s->overlays,
		.noverlays = s->o->noverlays,
		.shard = s->o->shard,
		.seed = (long long)s->seed,
		.random_seed = (long long)s->random_seed,
		.confinement = s->confinement,
		.kernel_release = s->kernel.release,
		.userspace = s->stage.seccomp ? "seccomp" : "ptrace",
		.host_cpu = s->host_cpu,
		.cpu_cost = s->cpu_cost,
		.selection = s->selection[0] ? s->selection : NULL,
		.wall_seconds = run->wall_seconds,
		.exit_code = run->exit_code,
		.not_run = run->not_run,
		.nnot_run = run->nnot_run,
	};
	struct uerr e;

	/*
	 * A run whose reports are missing has no result a CI job can trust:
	 * each failure is named and the run exits 3. The reports carry the
	 * exit code, so those written before a failure are written again.
	 */
	for (int pass = 0; pass < 2; pass++) {
		bool failed = false;

		ri.exit_code = run->exit_code;
		if (report_write_json(json, &ri, run->res.rec, run->res.nrec, &e) < 0)
			failed = true, uerr_print(&e);
		if (report_write_junit(junit, &ri, run->res.rec, run->res.nrec, &e) < 0)
			failed = true, uerr_print(&e);
		if (report_write_html(html, run->dir, &ri, run->res.rec, run->res.nrec, &e) < 0)
			failed = true, uerr_print(&e);
		if (!failed || run->exit_code == EXIT_INFRA)
			break;
		run->exit_code = EXIT_INFRA;
	}
	/* Remembered for the next run's order; time travel off is not comparable. */
	if (run->mode != TT_OFF) {
		_cleanup_free_ char *cache = durations_cache_path();

		if (durations_record(cache, run->res.rec, run->res.nrec, &e) < 0)
			warn("%s", e.msg);
	}
}

void finish_run(struct session *s, const struct test_list *tests, size_t total, bool sched_failed,
		FILE *ktap, const char *ktap_path, const char *example, struct run *run)
{
	int out_err, ktap_err;

	finish_exit_code(run);
	/* Tests that never ran did not pass. */
	if (!run->res.host_signal && (sched_failed || run->res.nrec < total))
		run->exit_code = EXIT_INFRA;
	if (run->res.nrec < total)
		find_not_run(tests, run);
	/* Said in ktap.txt too: its plan promised more result lines than it holds. */
	if (run->res.host_signal || run->res.nrec < total) {
		_cleanup_free_ char *what =
		    run->res.host_signal
			? xasprintf("interrupted by %s", sigabbrev_np(run->res.host_signal))
			: xstrdup("the run failed (see above)");

		if (run->out)
			outq_printf(&outq_stdout, "# %s: %zu of %zu test files ran\n", what,
				    run->res.nrec, total);
		fprintf(ktap, "# %s: %zu of %zu test files ran\n", what, run->res.nrec, total);
	}
	sched_write_errors(&out_err, &ktap_err);
	/* A reader gone during the last test: its SIGPIPE came too late to read. */
	if (finish_reader_gone(run, out_err))
		out_err = 0;
	/* The run folder removed or replaced under the run: ktap.txt went with it. */
	{
		struct stat open_st, path_st;

		if (!ktap_err && fstat(fileno(ktap), &open_st) == 0 &&
		    (stat(ktap_path, &path_st) < 0 || path_st.st_ino != open_st.st_ino ||
		     path_st.st_dev != open_st.st_dev))
			ktap_err = ENOENT;
	}
	errno = 0;
	if (ferror(ktap) | (fclose(ktap) != 0) || ktap_err) {
		note("cannot write %s: %s", ktap_path,
		     strerror(ktap_err ? ktap_err
			      : errno  ? errno
				       : EIO));
		run->exit_code = EXIT_INFRA;
	}
	/* The result lines did not reach their reader: not a pass. */
	if (run->out && (out_err || fflush(run->out) != 0 || ferror(run->out)) &&
	    !run->res.host_signal) {
		note("cannot write the results to stdout: %s (they are in %s)",
		     strerror(out_err ? out_err
			      : errno ? errno
				      : EIO),
		     run->dir);
		run->exit_code = EXIT_INFRA;
	}
	write_reports(s, run, example);
	/*
	 * A signal while they were written: the run ends as it says, and so
	 * do the reports, written again (finish_stdout then waits for no
	 * reader).
	 */
	{
		int sig;

		while ((sig = supervise_read_signal(supervise_signalfd())) == SIGCHLD)
			;
		if (sig > 0) {
			late_signal = sig;
			if (!run->res.host_signal)
				run->res.host_signal = sig;
			run->exit_code = EXIT_SIGNAL_BASE + sig;
			write_reports(s, run, example);
		}
	}
}

/*
 * How many of n records passed, as the exit status counts them: skipped
 * and flaky ones too, which also (" (1 skipped, 0 flaky)", or "") says.
 */
size_t passed_count(const struct record *rec, size_t n, char *also, size_t size)
{
	size_t pass = 0, skipped = 0, flaky = 0;

	for (size_t i = 0; i < n; i++) {
		pass += verdict_passed(rec[i].verdict);
		skipped += rec[i].verdict == V_SKIP;
		flaky += rec[i].verdict == V_FLAKY;
	}
	if (skipped || flaky)
		snprintf(also, size, " (%zu skipped, %zu flaky)", skipped, flaky);
	else
		also[0] = '\0';
	return pass;
}

/*
 * The end of a run's stdout: what its reader has not taken yet, waited for
 * (the reports are written by now), but not past a signal, which makes the
 * exit status 128+N as during the run.
 */
void finish_stdout(int *exit_code)
{
	int sig = late_signal;

	if (!sig)
		sig = outq_drain(&outq_stdout, supervise_signalfd());

	if (!sig)
		sig = outq_drain(&outq_stderr, supervise_signalfd()); /* -v's copy */

	/*
	 * One that came while the output drained ends umlrun by it; the
	 * reports, written before, keep the run's own status.
	 */
	while (!sig && (sig = supervise_read_signal(supervise_signalfd())) == SIGCHLD)
		sig = 0;
	if (sig) {
		*exit_code = EXIT_SIGNAL_BASE + sig;
		return;
	}
	if (outq_stdout.dropped || outq_stderr.dropped)
		warn("%zu bytes of output were not shown: the reader did not keep up (ktap.txt "
		     "and the test folders have them)",
		     outq_stdout.dropped + outq_stderr.dropped);
}
