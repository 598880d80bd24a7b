// SPDX-License-Identifier: MIT
/* test_util.c - helper programs and the signals that end umlrun while one runs. */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The pid a helper's shell wrote (its group's id), once it is there, or -1. */
static pid_t wait_pid_file(const char *path)
{
	for (int i = 0; i < 500; i++) {
		_cleanup_free_ char *text = NULL;

		if (read_file(path, &text, NULL) == 0 && strchr(text, '\n'))
			return (pid_t)atol(text);
		pause_ms(10);
	}
	return -1;
}

/* Reaps whatever this subreaper inherited, for up to 2 s, until the group is gone. */
static bool group_gone(pid_t pgid)
{
	for (int i = 0; i < 200; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (kill(-pgid, 0) < 0 && errno == ESRCH)
			return true;
		pause_ms(10);
	}
	return false;
}

/*
 * A helper (a shell and the sleep it waits for, as make and its compilers)
 * writing into a scratch folder; umlrun gets sig. The helper's whole group
 * ends, the scratch folder goes and umlrun dies of the signal.
 */
static void test_signal_during_helper(int sig, const char *name)
{
	char base[] = "/tmp/umlrun-test-util.XXXXXX";
	_cleanup_free_ char *scratch = NULL;
	_cleanup_free_ char *pid_file = NULL;
	_cleanup_free_ char *script = NULL;
	pid_t child, helper;
	int st = 0;

	if (!mkdtemp(base)) {
		diag("mkdtemp: %s", strerror(errno));
		return;
	}
	scratch = xasprintf("%s/scratch", base);
	pid_file = xasprintf("%s/pid", base);
	script =
	    xasprintf("echo $$ >%s.tmp && mv %s.tmp %s; touch %s/partial; sleep 30; :", pid_file,
		      pid_file, pid_file, scratch);
	mkdir(scratch, 0755);
	child = fork();
	if (child == 0) {
		char *argv[] = { "sh", "-c", script, NULL };

		/* As a run's kselftest build: the folder it writes goes if a signal ends it. */
		scratch_push(scratch);
		run_argv(argv, -1);
		scratch_pop(scratch);
		_exit(0);
	}
	helper = wait_pid_file(pid_file);
	ok(helper > 0, "%s: the helper started", name);
	kill(child, sig);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	ok(WIFSIGNALED(st) && WTERMSIG(st) == sig, "%s: umlrun dies of the signal (status %#x)",
	   name, st);
	ok(helper > 0 && group_gone(helper), "%s: the helper and what it started are gone", name);
	ok(!path_exists(scratch), "%s: its scratch folder is removed", name);
	rm_rf(base);
}

/* A helper that ends on its own: its status, and nothing removed. */
static void test_helper_status(void)
{
	char base[] = "/tmp/umlrun-test-util.XXXXXX";
	char *argv[] = { "sh", "-c", "exit 7", NULL };
	int st;

	if (!mkdtemp(base)) {
		diag("mkdtemp: %s", strerror(errno));
		return;
	}
	scratch_push(base);
	st = run_argv(argv, -1);
	scratch_pop(base);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 7, "run_argv returns the helper's status");
	ok(is_dir(base), "a helper that ends on its own removes no scratch folder");
	{
		bool all_default = true;

		for (size_t i = 0; i < N_ENDING_SIGNALS; i++) {
			struct sigaction sa;

			if (sigaction(ending_signals[i], NULL, &sa) < 0 || sa.sa_handler != SIG_DFL)
				all_default = false;
		}
		ok(all_default, "the ending signals are umlrun's own again after a helper");
	}
	rm_rf(base);
}

/* The host as /proc/cpuinfo and sysconf name it: "MODEL, N CPUs". */
static void test_host_cpu(void)
{
	_cleanup_free_ char *d = host_cpu_describe();
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	_cleanup_free_ char *tail = xasprintf(", %ld CPU%s", n, n == 1 ? "" : "s");
	size_t len = strlen(d), tlen = strlen(tail);

	ok(len > tlen && !strcmp(d + len - tlen, tail) && d[0] != ' ',
	   "host_cpu_describe gives the model and the CPUs online: %s", d);
}

/*
 * A cache not there yet is made in a folder that is (XDG_CACHE_HOME, or
 * HOME whose .cache may be new), never along a path that is not:
 * HOME=/nonexistent made that folder and built a kernel there.
 */
static void test_cache_parent(void)
{
	char tmpl[] = "/tmp/umlrun-cache.XXXXXX";
	_cleanup_free_ char *fresh_home = NULL, *xdg = NULL, *no_home = NULL, *no_xdg = NULL;
	_cleanup_free_ char *p1 = NULL, *p2 = NULL, *p3 = NULL, *p4 = NULL;
	_cleanup_free_ char *want3 = NULL, *want4 = NULL;

	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return;
	}
	fresh_home = xasprintf("%s/.cache/umlrun", tmpl);
	xdg = xasprintf("%s/umlrun", tmpl);
	no_home = xasprintf("%s/nonexistent/.cache/umlrun", tmpl);
	no_xdg = xasprintf("%s/no-xdg/umlrun", tmpl);
	p1 = cache_problem(fresh_home);
	p2 = cache_problem(xdg);
	p3 = cache_problem(no_home);
	p4 = cache_problem(no_xdg);
	want3 =
	    xasprintf("the cache %s cannot be made: %s/nonexistent does not exist", no_home, tmpl);
	want4 = xasprintf("the cache %s cannot be made: %s/no-xdg does not exist", no_xdg, tmpl);
	ok(!p1, "a home without .cache yet: the cache is made there");
	ok(!p2, "an XDG_CACHE_HOME that exists: the cache is made there");
	ok(p3 && strstr(p3, want3) && !strchr(p3, '\n'),
	   "HOME=/nonexistent: refused, naming the missing home");
	if (p3 && !strstr(p3, want3))
		diag("  got: %s", p3);
	ok(p4 && strstr(p4, want4), "an XDG_CACHE_HOME that does not exist: refused, naming it");
	ok(!path_exists(fresh_home) && !path_exists(no_home), "nothing made by asking");
	{
		_cleanup_free_ char *slash_home = cache_problem("/.cache/umlrun");
		_cleanup_free_ char *slash_xdg =
		    path_exists("/umlrun") ? NULL : cache_problem("/umlrun");

		ok(!slash_home || !strstr(slash_home, "does not exist"),
		   "HOME=/: its .cache may be new");
		ok(!slash_xdg, "XDG_CACHE_HOME=/: the cache may be new");
	}
	rmdir(tmpl);
}

int main(void)
{
	plan(4 + 4 * 3 + 7);
	test_host_cpu();
	test_cache_parent();
	/* Orphans of a killed helper come here, to be reaped and counted gone. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	test_helper_status();
	test_signal_during_helper(SIGTERM, "SIGTERM");
	test_signal_during_helper(SIGINT, "SIGINT");
	test_signal_during_helper(SIGHUP, "SIGHUP");
	return done_testing();
}
