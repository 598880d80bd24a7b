// SPDX-License-Identifier: MIT
/*
 * test_commands.c - command handlers run in a child, as main runs them,
 * on a scratch project, results folder and cache, up to where they would
 * build a kernel or boot a guest: what they print and leave, and their
 * exit code. A check whose command is to stop before that point gives it
 * an --overlay that does not exist as a guard: had it gone on,
 * check_inputs would exit 2 there, before anything is built.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "tap.h"

static char *scratch; /* the project, the suites, the results, the cache */

/*
 * argv (NULL-terminated) as main runs it, in a child: its stdout and
 * stderr into scratch/out and scratch/err; the exit code, or -1.
 */
static int run_cmd(char **argv)
{
	_cleanup_free_ char *out = xasprintf("%s/out", scratch);
	_cleanup_free_ char *err = xasprintf("%s/err", scratch);
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int argc = 0;
		struct opts o;
		struct uerr e;

		if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(125);
		while (argv[argc])
			argc++;
		if (opts_parse(argc, argv, &o, &e) < 0)
			uerr_die(&e);
		if (o.cmd == CMD_COMPARE)
			exit(cmd_compare(&o));
		_exit(126);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* The text of scratch/NAME ("" when it cannot be read). */
static char *scratch_text(const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", scratch, name);
	char *text = NULL;

	if (read_file(path, &text, NULL) < 0)
		return xstrdup("");
	return text;
}

/* What path (relative to scratch) is: a link's target, a folder's names, sorted. */
static char *listing(const char *path)
{
	_cleanup_free_ char *cmd = xasprintf("cd '%s/%s' && ls -A | sort | tr '\\n' ' ' && "
					     "readlink latest",
					     scratch, path);
	FILE *p = popen(cmd, "r");
	char buf[256] = "";

	if (p) {
		if (!fgets(buf, sizeof(buf), p))
			buf[0] = '\0';
		pclose(p);
	}
	return xstrdup(buf);
}

/* The scratch project: suite s with one test file, a last run (r1) that passed it. */
static void make_scratch(void)
{
	static const char results_json[] =
	    "{\"format\": \"umlrun-results-1\", \"mode\": \"inf-cpu\", \"tests\": [{\"id\": "
	    "\"s/t0001-a.sh\", \"attempt\": 1, \"result\": \"pass\", \"end\": \"reported\", "
	    "\"exit\": 0, \"sim_seconds\": 1, \"wall_seconds\": 0.5, \"dir\": \"s/t0001-a\", "
	    "\"subtests\": []}]}\n";
	char tmpl[] = "/tmp/test_commands.XXXXXX";
	_cleanup_free_ char *suite = NULL;
	_cleanup_free_ char *test = NULL;
	_cleanup_free_ char *run = NULL;
	_cleanup_free_ char *json = NULL;
	_cleanup_free_ char *latest = NULL;
	_cleanup_free_ char *cache = NULL;

	if (!mkdtemp(tmpl))
		die_sys(EXIT_INFRA, "cannot make a scratch folder");
	scratch = xstrdup(tmpl);
	suite = xasprintf("%s/suites/s", scratch);
	test = xasprintf("%s/t0001-a.sh", suite);
	run = xasprintf("%s/results/r1", scratch);
	json = xasprintf("%s/results.json", run);
	latest = xasprintf("%s/results/latest", scratch);
	cache = xasprintf("%s/cache", scratch);
	if (mkdir_p(suite, 0755) < 0 || write_file_atomic(test, "#!/bin/sh\n", 10) < 0 ||
	    chmod(test, 0755) < 0 || mkdir_p(run, 0755) < 0 ||
	    write_file_atomic(json, results_json, strlen(results_json)) < 0 ||
	    symlink("r1", latest) < 0 || mkdir(cache, 0755) < 0)
		die_sys(EXIT_INFRA, "cannot make the scratch project in %s", scratch);
	/* The project (find_project) and the cache (durations) are the scratch's. */
	setenv("UMLRUN_HOME", scratch, 1);
	setenv("XDG_CACHE_HOME", cache, 1);
}

/*
 * compare --rerun-failed after a run that failed nothing: run's note,
 * exit 0, and nothing written: neither of its two runs, nor latest moved.
 */
static void test_compare_nothing_failed(void)
{
	_cleanup_free_ char *results = xasprintf("--results=%s/results", scratch);
	_cleanup_free_ char *suites = xasprintf("--suite-dir=%s/suites", scratch);
	_cleanup_free_ char *guard = xasprintf("--overlay=%s/no-such-overlay", scratch);
	char *argv[] = { "umlrun", "compare", results, suites, "--rerun-failed", guard, NULL };
	int code = run_cmd(argv);
	_cleanup_free_ char *out = scratch_text("out");
	_cleanup_free_ char *err = scratch_text("err");
	_cleanup_free_ char *left = listing("results");

	is_int(code, 0, "compare --rerun-failed, nothing failed: exit 0");
	is_str(err, "umlrun: --rerun-failed: the last run failed nothing; nothing to rerun\n",
	       "compare --rerun-failed, nothing failed: run's note, nothing else");
	is_str(out, "", "compare --rerun-failed, nothing failed: no table");
	is_str(left, "latest r1 r1\n",
	       "compare --rerun-failed, nothing failed: no run folder, latest the last run");
}

int main(void)
{
	plan(4);
	make_scratch();
	test_compare_nothing_failed();
	rm_rf(scratch);
	free(scratch);
	return done_testing();
}
