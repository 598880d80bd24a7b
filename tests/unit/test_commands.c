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
#include "hwsim.h"
#include "selection.h"
#include "tap.h"

static char *scratch; /* the project, the suites, the results, the cache */

/*
 * kselftest, once its targets are built: find_tests over the suites it
 * generated (here the scratch's suite s), as its run_session calls it
 * (cmd_kselftest: suite_dir and args replaced). Its exit code.
 */
static int kselftest_selected(const struct opts *o)
{
	static char *suites[] = { "s", NULL };
	struct opts run = *o;
	struct session s = { .o = &run };
	_cleanup_free_ char *dir = xasprintf("%s/suites", scratch);
	struct test_list tests;

	run.suite_dir = dir;
	run.args = suites;
	run.nargs = 1;
	find_project(&s);
	find_tests(&s, &tests);
	tests_free(&tests);
	return 0;
}

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
		switch (o.cmd) {
		case CMD_RUN:
			exit(cmd_run(&o));
		case CMD_COMPARE:
			exit(cmd_compare(&o));
		case CMD_HWSIM:
			exit(cmd_hwsim(&o));
		case CMD_KSELFTEST:
			exit(kselftest_selected(&o));
		default:
			_exit(126);
		}
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

/* The names in folder path (relative to scratch), sorted, each followed by a blank. */
static char *listing(const char *path)
{
	_cleanup_free_ char *cmd =
	    xasprintf("cd '%s/%s' && ls -A | sort | tr '\\n' ' '", scratch, path);
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
	_cleanup_free_ char *tmp = NULL;

	if (!mkdtemp(tmpl))
		die_sys(EXIT_INFRA, "cannot make a scratch folder");
	scratch = xstrdup(tmpl);
	suite = xasprintf("%s/suites/s", scratch);
	test = xasprintf("%s/t0001-a.sh", suite);
	run = xasprintf("%s/results/r1", scratch);
	json = xasprintf("%s/results.json", run);
	latest = xasprintf("%s/results/latest", scratch);
	cache = xasprintf("%s/cache", scratch);
	tmp = xasprintf("%s/tmp", scratch);
	if (mkdir_p(suite, 0755) < 0 || write_file_atomic(test, "#!/bin/sh\n", 10) < 0 ||
	    chmod(test, 0755) < 0 || mkdir_p(run, 0755) < 0 ||
	    write_file_atomic(json, results_json, strlen(results_json)) < 0 ||
	    symlink("r1", latest) < 0 || mkdir(cache, 0755) < 0 || mkdir(tmp, 0755) < 0)
		die_sys(EXIT_INFRA, "cannot make the scratch project in %s", scratch);
	/* The project (find_project), the cache (durations) and TMPDIR are the scratch's. */
	setenv("UMLRUN_HOME", scratch, 1);
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("TMPDIR", tmp, 1);
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
	_cleanup_free_ char *latest_path = xasprintf("%s/results/latest", scratch);
	char latest[64] = "";

	is_int(code, 0, "compare --rerun-failed, nothing failed: exit 0");
	is_str(err, "umlrun: --rerun-failed: the last run failed nothing; nothing to rerun\n",
	       "compare --rerun-failed, nothing failed: run's note, nothing else");
	is_str(out, "", "compare --rerun-failed, nothing failed: no table");
	if (readlink(latest_path, latest, sizeof(latest) - 1) < 0)
		latest[0] = '\0';
	ok(!strcmp(left, "latest r1 ") && !strcmp(latest, "r1"),
	   "compare --rerun-failed, nothing failed: no run folder, latest the last run");
}

/*
 * A hostap tree as hostap_tree_check wants it, its cases a0..a119,
 * b0..b69 and c0..c2: with -j1, five batches of the 193
 * (hwsim_batch_size: 56 at most), t0001-a-1.sh (a0..a39), t0002-a-2.sh
 * (a40..a79), t0003-a-3.sh, t0004-b-1.sh (b0..b34) and t0005-b-2.sh
 * (b35..b69, c0..c2).
 */
static void make_tree(void)
{
	static const char *const marks[] = { "tests/hwsim/run-tests.py", "hostapd/Makefile",
					     "wpa_supplicant/Makefile",
					     "tests/hwsim/example-hostapd.config",
					     "tests/hwsim/example-wpa_supplicant.config" };
	static const struct {
		const char *module;
		int n;
	} modules[] = { { "a", 120 }, { "b", 70 }, { "c", 3 } };
	_cleanup_free_ char *hwsim = xasprintf("%s/hostap/tests/hwsim", scratch);
	_cleanup_free_ char *hostapd = xasprintf("%s/hostap/hostapd", scratch);
	_cleanup_free_ char *wpas = xasprintf("%s/hostap/wpa_supplicant", scratch);

	if (mkdir_p(hwsim, 0755) < 0 || mkdir_p(hostapd, 0755) < 0 || mkdir_p(wpas, 0755) < 0)
		die_sys(EXIT_INFRA, "cannot make the hostap tree in %s", scratch);
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		_cleanup_free_ char *path = xasprintf("%s/hostap/%s", scratch, marks[i]);

		if (write_file_atomic(path, "", 0) < 0)
			die_sys(EXIT_INFRA, "cannot write %s", path);
	}
	for (size_t m = 0; m < sizeof(modules) / sizeof(modules[0]); m++) {
		_cleanup_free_ char *path = xasprintf("%s/test_%s.py", hwsim, modules[m].module);
		struct strbuf sb = { 0 };

		for (int i = 0; i < modules[m].n; i++)
			sb_printf(&sb, "def test_%s%d(dev, apdev):\n    pass\n", modules[m].module,
				  i);
		if (write_file_atomic(path, sb.buf, sb.len) < 0)
			die_sys(EXIT_INFRA, "cannot write %s", path);
		sb_release(&sb);
	}
}

/* "MODULE CASE" lines of cases from..to of module m. */
static void cases(struct strbuf *sb, const char *m, int from, int to)
{
	for (int i = from; i <= to; i++)
		sb_printf(sb, "%s %s%d\n", m, m, i);
}

/* hwsim --list -j1 with opt (NULL: none); its stdout, *code its exit. */
static char *hwsim_list(const char *opt, int *code)
{
	_cleanup_free_ char *hostap = xasprintf("--hostap=%s/hostap", scratch);
	_cleanup_free_ char *results = xasprintf("--results=%s/hwsim-results", scratch);
	char *argv[] = { "umlrun", "hwsim", hostap, results, "--list", "-j1", (char *)opt, NULL };

	*code = run_cmd(argv);
	return scratch_text("out");
}

/*
 * What 'run' would run of the suite hwsim writes for those cases, with
 * opt: run --list's ids over that suite, each batch as its cases.
 */
static char *run_would_run(const char *opt)
{
	_cleanup_free_ char *tree = xasprintf("%s/hostap", scratch);
	_cleanup_free_ char *suites = xasprintf("%s/hwsim-suites", scratch);
	_cleanup_free_ char *suite_dir = xasprintf("--suite-dir=%s", suites);
	_cleanup_free_ char *results = xasprintf("--results=%s/hwsim-results", scratch);
	_cleanup_free_ size_t *starts = NULL;
	_cleanup_free_ char *ids = NULL;
	char *argv[] = { "umlrun", "run", suite_dir, results, "--list", (char *)opt, NULL };
	struct hwsim_list all, sel;
	struct hwsim_layout layout = { .radios = HWSIM_RADIOS_DEFAULT,
				       .timeout = HWSIM_TIMEOUT,
				       .wall_timeout = HWSIM_CASE_WALL_TIMEOUT + HWSIM_SETUP_WALL,
				       .mem = HWSIM_MEM };
	struct strbuf sb = { 0 };
	struct uerr e;
	size_t nb;

	rm_rf(suites);
	if (hwsim_list_read(tree, &all, &e) < 0 ||
	    hwsim_select(&all, NULL, 0, NULL, 0, &sel, &e) < 0)
		die(EXIT_INFRA, "cannot read the hwsim tree: %s", e.msg);
	layout.batch = hwsim_batch_size(sel.n, 1);
	if (mkdir(suites, 0755) < 0 || hwsim_suite_write(suites, &sel, &layout, &e) < 0)
		die(EXIT_INFRA, "cannot write the hwsim suite in %s", suites);
	if (run_cmd(argv) != 0) {
		_cleanup_free_ char *err = scratch_text("err");

		diag("run --list %s failed: %s", opt ? opt : "", err);
	}
	ids = scratch_text("out");
	hwsim_batches(&sel, layout.batch, &starts, &nb);
	for (char *id = strtok(ids, "\n"); id; id = strtok(NULL, "\n"))
		for (size_t b = 0; b < nb; b++) {
			_cleanup_free_ char *file = hwsim_batch_file(&sel, starts, nb, b);
			_cleanup_free_ char *want = xasprintf(HWSIM_SUITE "/%s", file);

			if (strcmp(id, want))
				continue;
			for (size_t i = starts[b]; i < (b + 1 < nb ? starts[b + 1] : sel.n); i++)
				sb_printf(&sb, "%s %s\n", sel.v[i].module, sel.v[i].name);
		}
	hwsim_list_free(&all);
	hwsim_list_free(&sel);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/*
 * hwsim --list prints what a run with the same options runs, in its
 * order: the batches --filter, --exclude and --shard keep, as --shuffle
 * orders them, no folder of its own left behind.
 */
static void test_hwsim_list(void)
{
	static const char *const opts[] = { "--shard=1/2", "--shard=2/2", "--shuffle=7" };
	_cleanup_free_ char *hwsim_all = NULL;
	struct strbuf want = { 0 };
	int code;
	char *got;

	make_tree();
	hwsim_all = run_would_run(NULL);
	got = hwsim_list(NULL, &code);
	is_str(got, hwsim_all, "hwsim --list: every case, in the batches' order");
	free(got);
	cases(&want, "a", 40, 79);
	cases(&want, "b", 35, 69);
	cases(&want, "c", 0, 2);
	{
		_cleanup_free_ char *hostap = xasprintf("--hostap=%s/hostap", scratch);
		char *argv[] = { "umlrun",
				 "hwsim",
				 hostap,
				 "--list",
				 "-j1",
				 "--filter=*/t0002-*",
				 "--filter=hwsim/*-b-2.sh",
				 NULL };

		code = run_cmd(argv);
		got = scratch_text("out");
	}
	is_str(got, want.buf, "hwsim --list --filter: the cases of the batches it keeps");
	is_int(code, 0, "hwsim --list --filter: exit 0");
	free(got);
	sb_release(&want);
	got = hwsim_list("--exclude=hwsim/t000[1-4]-*", &code);
	cases(&want, "b", 35, 69);
	cases(&want, "c", 0, 2);
	is_str(got, want.buf, "hwsim --list --exclude: not the cases of the batches it leaves");
	free(got);
	sb_release(&want);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		_cleanup_free_ char *run = run_would_run(opts[i]);
		_cleanup_free_ char *name =
		    xasprintf("hwsim --list %s: what run would run, in its order", opts[i]);

		got = hwsim_list(opts[i], &code);
		/* Each shard has a batch, and the shuffle is no longer the files' order. */
		if (!*run || !strcmp(run, hwsim_all))
			diag("%s: run's list is %s: a weak check", opts[i], *run ? "all" : "empty");
		is_str(got, run, name);
		free(got);
	}
	{
		_cleanup_free_ char *err = scratch_text("err");
		_cleanup_free_ char *left = listing("tmp");

		is_str(err, "# shuffle seed: 7 (replay with --shuffle=7)\n",
		       "hwsim --list --shuffle: its seed on stderr, as run --list");
		is_str(left, "", "hwsim --list: no generated suite left in TMPDIR");
	}
}

/*
 * hwsim --rerun-failed --shard=K/N after shard K/N's run failed a3 and
 * c1: both, in one batch, whichever shard that batch would hash to
 * (checked for K 1 and 2: without the fix one of the two lists none).
 */
static void test_hwsim_rerun_shard(void)
{
	static const char json[] =
	    "{\"format\": \"umlrun-results-1\", \"mode\": \"inf-cpu\", \"shard\": \"%d/2\", "
	    "\"tests\": [{\"id\": \"hwsim/t0001-a-1.sh\", \"attempt\": 1, \"result\": "
	    "\"fail\", \"end\": \"reported\", \"exit\": 1, \"sim_seconds\": 1, "
	    "\"wall_seconds\": 0.5, \"dir\": \"hwsim/t0001-a-1\", \"subtests\": [{\"n\": 1, "
	    "\"name\": \"a3\", \"result\": \"fail\"}, {\"n\": 2, \"name\": \"c1\", "
	    "\"result\": \"fail\"}]}]}\n";

	for (int k = 1; k <= 2; k++) {
		_cleanup_free_ char *dir = xasprintf("%s/rerun%d/r1", scratch, k);
		_cleanup_free_ char *path = xasprintf("%s/results.json", dir);
		_cleanup_free_ char *text = xasprintf(json, k);
		_cleanup_free_ char *latest = xasprintf("%s/rerun%d/latest", scratch, k);
		_cleanup_free_ char *hostap = xasprintf("--hostap=%s/hostap", scratch);
		_cleanup_free_ char *results = xasprintf("--results=%s/rerun%d", scratch, k);
		_cleanup_free_ char *shard = xasprintf("--shard=%d/2", k);
		_cleanup_free_ char *name = xasprintf(
		    "hwsim --rerun-failed %s: the shard's failed cases, not split again", shard);
		char *argv[] = { "umlrun", "hwsim",	     hostap,   results,
				 shard,	   "--rerun-failed", "--list", NULL };
		_cleanup_free_ char *out = NULL;

		if (mkdir_p(dir, 0755) < 0 || write_file_atomic(path, text, strlen(text)) < 0 ||
		    symlink("r1", latest) < 0)
			die_sys(EXIT_INFRA, "cannot write %s", path);
		run_cmd(argv);
		out = scratch_text("out");
		is_str(out, "a a3\nc c1\n", name);
	}
}

/*
 * A --filter that matches no test file id: the hint names the listing of
 * the command's own ids, not 'umlrun list' (which lists the project's
 * suites, not kselftest's or hwsim's generated ones).
 */
static void test_filter_hint(void)
{
	_cleanup_free_ char *hostap = xasprintf("--hostap=%s/hostap", scratch);
	_cleanup_free_ char *suites = xasprintf("--suite-dir=%s/suites", scratch);
	_cleanup_free_ char *want_run = xasprintf("; 'umlrun list %s' shows them\n", suites);
	char *hwsim[] = { "umlrun", "hwsim", hostap, "--list", "-j1", "--filter=hwsim/*-z*", NULL };
	char *kselftest[] = { "umlrun", "kselftest", "--filter=*/t*-leap*", NULL };
	char *run[] = { "umlrun", "run", suites, "--list", "--filter=*/t*-leap*", NULL };
	char *err;

	is_int(run_cmd(hwsim), 2, "hwsim --filter matching no batch: exit 2");
	err = scratch_text("err");
	ok(strstr(err, "'umlrun hwsim --list'") && strstr(err, "hwsim/tNNNN-MODULE") &&
	       !strstr(err, "umlrun list"),
	   "hwsim --filter matching no batch: the ids are its batches', its --list names them");
	if (!strstr(err, "'umlrun hwsim --list'"))
		diag("  got: %s", err);
	free(err);
	is_int(run_cmd(kselftest), 2, "kselftest --filter matching no program: exit 2");
	err = scratch_text("err");
	ok(strstr(err, "'umlrun kselftest --list' with the same TARGETs") &&
	       !strstr(err, "umlrun list"),
	   "kselftest --filter matching no program: its --list names them");
	if (!strstr(err, "'umlrun kselftest --list'"))
		diag("  got: %s", err);
	free(err);
	is_int(run_cmd(run), 2, "run --suite-dir --filter matching nothing: exit 2");
	err = scratch_text("err");
	has_str(err, want_run, "run --suite-dir --filter matching nothing: list of that folder");
	free(err);
}

int main(void)
{
	plan(15 + 6);
	make_scratch();
	test_compare_nothing_failed();
	test_hwsim_list();
	test_hwsim_rerun_shard();
	test_filter_hint();
	rm_rf(scratch);
	free(scratch);
	return done_testing();
}
