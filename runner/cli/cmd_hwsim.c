// SPDX-License-Identifier: MIT
/*
 * cmd_hwsim.c - umlrun hwsim: hostap's own tests/hwsim suite of
 * --hostap=TREE, its programs built, its modules byte-compiled once, its
 * cases in batches as a generated suite that run_session runs
 * (docs/hwsim.md).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_run.h"
#include "commands.h"
#include "doctor.h"
#include "hostap_build.h"
#include "hwsim.h"
#include "hwsim_pyc.h"
#include "kselftest.h"
#include "selection.h"
#include "supervise.h"

/* The generated hwsim suite, removed however umlrun ends (cmd_hwsim). */
static char *live_hwsim;

/* sched_opts.follow_up of hwsim: a stuck batch's rest, its failed cases again. */
static const struct test **hwsim_more(void *ctx, const struct test *t, enum verdict v,
				      struct ktap *k)
{
	const struct session *s = ctx;
	_cleanup_free_ char *mine = xasprintf("%s/suites/%s", live_hwsim, t->suite);
	_cleanup_free_ char *staged = xasprintf("%s/suite/%s", s->stage.dir, t->suite);
	const char *const dirs[2] = { mine, staged };

	return live_hwsim ? hwsim_follow_up(dirs, t, v, k, s->case_retry) : NULL;
}

static void remove_live_hwsim(void)
{
	if (live_hwsim)
		rm_rf(live_hwsim);
}

/* The generated suite removed, once run or listed. */
static void hwsim_suite_remove(void)
{
	rm_rf(live_hwsim);
	free(live_hwsim);
	live_hwsim = NULL;
}

/* Whether the command line had option name ("--retry"), in any form. */
static bool option_given(const struct opts *o, const char *name)
{
	size_t l = strlen(name);

	for (int i = 0; i < o->nopt_words; i++)
		if (!strncmp(o->opt_words[i], name, l) &&
		    (o->opt_words[i][l] == '\0' || o->opt_words[i][l] == '='))
			return true;
	return false;
}

/*
 * --rerun-failed: the cases the last run failed (hostap's names), from
 * its hwsim batches; *n 0 when it failed none.
 */
static char **hwsim_failed_cases(const struct session *s, size_t *n)
{
	struct loaded_run last;
	char **v = NULL;

	*n = 0;
	load_last_run(s, &last);
	for (size_t i = 0; i < last.n; i++) {
		const struct record *r = &last.rec[i];

		if (strcmp(r->test->suite, HWSIM_SUITE) || verdict_passed(r->verdict))
			continue;
		for (size_t c = 0; c < r->ktap.ncases; c++)
			if (r->ktap.cases[c].result == KTAP_FAIL) {
				v = xrealloc(v, (*n + 2) * sizeof(*v));
				v[(*n)++] = xstrdup(r->ktap.cases[c].title);
				v[*n] = NULL;
			}
	}
	if (last.info.nnot_run)
		die(EXIT_USAGE,
		    "--rerun-failed: the last run stopped before some of its batches started; "
		    "run the cases anew");
	results_free(&last);
	return v;
}

/*
 * --seeds: what the replay line selects with, after its --filter=ID that
 * picks the batch: the same cases (those named, or those --rerun-failed
 * found), and the same -j, by which the batches are cut.
 */
static char **hwsim_replay_select(const struct opts *o, char *const *cases, size_t ncases)
{
	char **v = xcalloc(ncases + 2, sizeof(char *));
	size_t n = 0;

	if (!o->jobs)
		v[n++] = xasprintf("-j%d", cpus_usable());
	for (size_t i = 0; i < ncases; i++)
		v[n++] = xstrdup(cases[i]);
	return v;
}

/*
 * The generated suite, live_hwsim/suites/hwsim: the batches of sel, which
 * run's --suite-dir and one suite name, so that the run and --list choose
 * from them alike (find_tests). The folder, allocated, for run.
 */
static char *hwsim_suite_make(struct opts *run, const struct hwsim_list *sel,
			      const struct hwsim_layout *layout)
{
	static char *suites[] = { HWSIM_SUITE, NULL };
	char *dir;
	struct uerr e;

	if (kselftest_suites_make(&live_hwsim, &e) < 0)
		uerr_die(&e);
	atexit(remove_live_hwsim);
	dir = xasprintf("%s/suites", live_hwsim);
	if (mkdir(dir, 0755) < 0)
		die_sys(EXIT_INFRA, "cannot create %s", dir);
	if (hwsim_suite_write(dir, sel, layout, &e) < 0)
		uerr_die(&e);
	run->suite_dir = dir;
	run->args = suites;
	run->nargs = 1;
	return dir;
}

/*
 * --list: the cases a run with these options runs, "MODULE CASE" a line,
 * and no guest: the batches find_tests chooses from the generated suite
 * (--filter, --exclude, --shard) in its order (--shuffle, else longest
 * first), as run_session chooses them, each batch's cases in its order.
 */
static int hwsim_print_list(struct session *s, const struct hwsim_list *sel,
			    const struct hwsim_layout *layout)
{
	_cleanup_free_ size_t *starts = NULL;
	struct test_list tests;
	char **files;
	size_t nb;

	find_tests(s, &tests);
	/* Before the list: a reader that stops reading (| head) ends umlrun by SIGPIPE. */
	hwsim_suite_remove();
	/* On stderr, as print_list prints it: stdout is for scripts. */
	if (s->o->shuffle)
		print_shuffle_seed(stderr, s->seed);
	hwsim_batches(sel, layout->batch ? layout->batch : HWSIM_BATCH_MAX, &starts, &nb);
	files = xcalloc(nb + 1, sizeof(*files));
	for (size_t b = 0; b < nb; b++)
		files[b] = hwsim_batch_file(sel, starts, nb, b);
	for (size_t t = 0; t < tests.n; t++)
		for (size_t b = 0; b < nb; b++) {
			if (strcmp(files[b], tests.v[t].file))
				continue;
			for (size_t i = starts[b]; i < (b + 1 < nb ? starts[b + 1] : sel->n); i++)
				outq_printf(&outq_stdout, "%s %s\n", sel->v[i].module,
					    sel->v[i].name);
		}
	strv_free(files);
	tests_free(&tests);
	finish_stdout(&(int){ 0 });
	return EXIT_PASS;
}

/*
 * One kind of debian-packages' lines (UMLRUN_PACKAGES' list instead, as
 * doctor reads): "hwsim", hostap's -dev packages and the guest's python3;
 * "tshark" with --tshark. Missing: one line naming the command, exit 3,
 * before anything is built.
 */
static void hwsim_check_packages(const struct session *s, const char *kind, const char *what)
{
	const char *env = getenv("UMLRUN_PACKAGES");
	_cleanup_free_ char *list =
	    env && *env ? xstrdup(env) : xasprintf("%s/debian-packages", s->project);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *missing = NULL;

	if (read_file(list, &text, NULL) < 0)
		die_sys(EXIT_INFRA, "cannot read %s", list);
	/* tests/deps.sh installs every kind but "tshark" (opt-in, and large). */
	if ((missing = doctor_kind_missing(text, kind)))
		die(EXIT_INFRA,
		    "%s: Debian packages missing: %s; install them with 'apt-get install %s'%s",
		    what, missing, missing,
		    strcmp(kind, "tshark") ? " (as root: sh tests/deps.sh in a checkout)" : "");
}

/* The guests' root: rootfs/manifest, then these (rootfs.h), NULL-terminated. */
static char **hwsim_manifests(const struct session *s)
{
	char **v = xcalloc(3, sizeof(char *));

	v[0] = xasprintf("%s/rootfs/manifest.hwsim", s->project);
	if (s->o->tshark)
		v[1] = xasprintf("%s/rootfs/manifest.tshark", s->project);
	return v;
}

/* The tree's programs, built with its tests/hwsim configs (or found cached). */
static char *hwsim_build(const struct session *s, const char *tree)
{
	struct hostap_build_opts bo = {
		.tree = tree,
		.jobs = s->o->make_jobs ? s->o->make_jobs : cpus_usable(),
		.progress = isatty(2),
		.say = say_progress,
	};
	char *dir = NULL;
	struct uerr e;
	bool built;

	if (hostap_build(&bo, &dir, &built, &e) < 0)
		uerr_die(&e);
	return dir;
}

/*
 * What the guests mount beside the generated suite: the tree, and the
 * built programs as hard links into the cache (live_hwsim/build; a guest
 * may not reach the cache itself), as the stage holds the root folder.
 */
static void hwsim_stage(const struct session *s, const char *build, char ***mounts)
{
	_cleanup_free_ char *linked = xasprintf("%s/build", live_hwsim);
	char *cp_link[] = { "cp", "-al", (char *)build, linked, NULL };
	char *cp[] = { "cp", "-a", (char *)build, linked, NULL };
	const struct opts *o = s->o;

	/* Hard links cost nothing; a copy across file systems. */
	if (run_argv(cp_link, -1) != 0 && (rm_rf(linked), run_argv(cp, -1) != 0))
		die(EXIT_INFRA, "cannot copy %s to %s", build, linked);
	*mounts = xcalloc(o->nmounts + 3, sizeof(char *));
	(*mounts)[0] = xasprintf("%s:" HWSIM_GUEST_TREE, s->hwsim_tree);
	(*mounts)[1] = xasprintf("%s:" HWSIM_GUEST_BUILD, linked);
	for (size_t i = 0; i < o->nmounts; i++)
		(*mounts)[i + 2] = o->mounts[i];
}

/* hwsim_compile's job's stderr, kept (to 4 KiB) for its last line. */
static void keep_err(void *ctx, const char *data, size_t len)
{
	struct strbuf *sb = ctx;

	if (sb->len < 4096)
		sb_add(sb, data, len < 4096 - sb->len ? len : 4096 - sb->len);
}

/* The last line of text, cut to fit a message. */
static const char *last_line(struct strbuf *sb)
{
	char *end;

	if (!sb->len)
		return "no message";
	while (sb->len && sb->buf[sb->len - 1] == '\n')
		sb->buf[--sb->len] = '\0';
	end = strrchr(sb->buf, '\n');
	return end ? end + 1 : sb->buf;
}

/*
 * The tree's tests/hwsim, byte-compiled in a guest of the suite's kernel
 * and root that runs none of the tree's code, into dest (hwsim_pyc.h).
 * Once per content of the modules; a failure costs only the time it saves.
 */
static void hwsim_compile(const struct session *hs, const char *tree, const char *dest)
{
	_cleanup_free_ char *out = xasprintf("%s/pyc-out", live_hwsim);
	_cleanup_free_ char *linked = xasprintf("%s/build", live_hwsim);
	char *mounts[] = { xasprintf("%s:" HWSIM_GUEST_TREE, tree),
			   xasprintf("%s:" HWSIM_GUEST_BUILD, linked),
			   xasprintf("%s:" HWSIM_PYC_GUEST ":rw", out) };
	char *argv[] = { "sh", "-c", HWSIM_PYC_SCRIPT, NULL };
	struct opts c = *hs->o;
	struct session s = { .o = &c, .manifest_extras = hs->manifest_extras };
	struct strbuf err = { 0 };
	struct guest_io io = { NULL, keep_err, NULL, &err };
	struct guest_outcome res;
	struct guest_spec g;
	struct uerr e;

	c.cmd = CMD_EXEC;
	c.mounts = mounts;
	c.nmounts = 3;
	c.overlays = NULL;
	c.noverlays = 0;
	c.mem = HWSIM_MEM;
	if (mkdir(out, 0755) < 0)
		die_sys(EXIT_INFRA, "cannot create %s", out);
	find_project(&s);
	s.mode = c.mode;
	check_inputs(&s);
	prepare_kernel(&s);
	prepare_rootfs(&s);
	resolve_start(&s);
	prepare_stage(&s);
	if (stage_guest_dir(&s.stage, 0, &e) < 0)
		uerr_die(&e);
	/* The guest's user writes there (root's guests run as another one). */
	if (chown(out, s.stage.uid, s.stage.gid) < 0)
		die_sys(EXIT_INFRA, "cannot give %s to the guest's user", out);
	g = guest_for(&s, 0);
	g.argv = argv;
	g.sim_timeout = 600;
	if (guest_run(&g, &io, HWSIM_SETUP_WALL, &res, &e) < 0)
		note("hwsim: tests/hwsim not byte-compiled (%s): each guest compiles it", e.msg);
	else if (res.end != GUEST_REPORTED || res.job_exit || res.job_signal)
		note("hwsim: byte-compiling tests/hwsim failed in its guest (%s): each guest "
		     "compiles it",
		     last_line(&err));
	else if (hwsim_pyc_keep(out, tree, dest, &e) < 0)
		note("%s", e.msg);
	session_end(&s);
	for (size_t i = 0; i < 3; i++)
		free(mounts[i]);
	sb_release(&err);
	rm_rf(out);
}

/*
 * hwsim: hostap's own tests/hwsim suite of --hostap=TREE, its cases in
 * batches as a generated suite, run the way 'run --suite-dir' runs one
 * (docs/hwsim.md), in guests of a kernel and root folder of their own.
 */
int cmd_hwsim(const struct opts *o)
{
	struct opts run = *o;
	struct session s = { .o = &run };
	_cleanup_free_ char *tree = realpath(o->hostap, NULL);
	_cleanup_free_ char *fragment = NULL;
	_cleanup_free_ char *build = NULL;
	_cleanup_free_ char *start = NULL;
	_cleanup_free_ char *suite_dir = NULL;
	char **configs = NULL, **mounts = NULL, **failed = NULL, **replay = NULL;
	struct hwsim_list all, sel;
	size_t nfailed = 0;
	struct hwsim_layout layout = {
		.radios = HWSIM_RADIOS_DEFAULT,
		.timeout = HWSIM_TIMEOUT,
		.mem = HWSIM_MEM,
	};
	struct uerr e;
	int code;

	if (hostap_tree_check(tree ? tree : o->hostap, &e) < 0)
		uerr_die(&e);
	/* Checked before the build: the guest's mounts are HOST:GUEST. */
	if (strchr(tree, ':'))
		die(EXIT_USAGE,
		    "--hostap=%s: the tree's path %s holds a ':', which the guest's mounts "
		    "cannot carry; copy or move the tree to a path without one",
		    o->hostap, tree);
	if (hwsim_list_read(tree, &all, &e) < 0)
		uerr_die(&e);
	layout.crypto_alias = all.crypto_alias;
	/* By case: what the last run failed, run anew as the cases they are. */
	if (o->rerun_failed) {
		if (o->nargs || o->nmodules)
			die(EXIT_USAGE, "--rerun-failed picks the cases itself: name none");
		failed = hwsim_failed_cases(&s, &nfailed);
		if (!nfailed) {
			note("--rerun-failed: the last run failed no case; nothing to rerun");
			hwsim_list_free(&all);
			return EXIT_PASS;
		}
		run.rerun_failed = false;
		/*
		 * The last run was this shard (load_last_run): its failed cases
		 * are its share. Batched anew and split again, some would go to
		 * the other shards, which rerun their own: never rerun at all.
		 */
		run.shard = NULL;
		if (hwsim_select(&all, failed, nfailed, NULL, 0, &sel, &e) < 0)
			uerr_die(&e);
	} else if (hwsim_select(&all, o->args, (size_t)o->nargs, o->modules, o->nmodules, &sel,
				&e) < 0) {
		uerr_die(&e);
	}
	hwsim_list_free(&all);
	/*
	 * --wall-timeout is a case's limit, after each result; the first
	 * result also waits for the guest's start (python3 imports every module).
	 */
	s.case_wall = o->wall_timeout ? o->wall_timeout : HWSIM_CASE_WALL_TIMEOUT;
	layout.wall_timeout = s.case_wall + HWSIM_SETUP_WALL;
	layout.batch = hwsim_batch_size(sel.n, o->jobs ? o->jobs : cpus_usable());
	/* What a run would run, from the suite it would write; nothing built. */
	if (o->list) {
		suite_dir = hwsim_suite_make(&run, &sel, &layout);
		code = hwsim_print_list(&s, &sel, &layout);
		hwsim_list_free(&sel);
		return code;
	}
	find_project(&s);
	run.wall_timeout = 0;
	/*
	 * A batch runs the same way again (simulated time): what is retried
	 * is its failed cases, alone in a fresh guest, once; --retry=0: none.
	 */
	s.case_retry = o->retry > 0 || !option_given(o, "--retry");
	run.retry = 0;
	/* The suite's certificates must be valid: a start the tree gives, the same each run. */
	if (!o->start && o->mode != TT_OFF) {
		int64_t secs;

		if (hwsim_start_of(tree, &secs, &e) < 0)
			uerr_die(&e);
		start = xasprintf("%lld", (long long)secs);
		run.start = start;
	}
	fragment = xasprintf("%s/uml-config/hwsim/hwsim.config", s.project);
	configs = xcalloc(o->nconfigs + 2, sizeof(char *));
	configs[0] = fragment;
	for (size_t i = 0; i < o->nconfigs; i++)
		configs[i + 1] = o->configs[i];
	run.configs = configs;
	run.nconfigs = o->nconfigs + 1;
	s.manifest_extras = hwsim_manifests(&s);
	s.hwsim_tree = tree;
	s.follow_up = hwsim_more;
	hwsim_check_packages(&s, "hwsim", "hwsim");
	if (o->tshark)
		hwsim_check_packages(&s, "tshark", "hwsim --tshark");
	check_inputs(&s);
	build = hwsim_build(&s, tree);
	suite_dir = hwsim_suite_make(&run, &sel, &layout);
	scratch_push(live_hwsim);
	hwsim_stage(&s, build, &mounts);
	{
		/* The modules' bytecode, compiled once (hwsim_pyc.h). */
		_cleanup_free_ char *cache = cache_root();
		_cleanup_free_ char *pyc = NULL;
		_cleanup_free_ char *linked = xasprintf("%s/build/tree", live_hwsim);
		char key[17];

		if (hwsim_pyc_key(tree, key, &e) < 0)
			uerr_die(&e);
		pyc = hwsim_pyc_dir(cache, key);
		if (!is_dir(pyc))
			hwsim_compile(&s, tree, pyc);
		if (is_dir(pyc) && hwsim_pyc_link(pyc, linked, &e) < 0)
			uerr_die(&e);
	}
	scratch_pop(live_hwsim);
	hwsim_list_free(&sel);
	run.mounts = mounts;
	run.nmounts = o->nmounts + 2;
	replay = failed ? hwsim_replay_select(o, failed, nfailed)
			: hwsim_replay_select(o, o->args, (size_t)o->nargs);
	s.replay_select = replay;
	code = run_session(&s);
	hwsim_suite_remove();
	free(mounts[0]);
	free(mounts[1]);
	free(mounts);
	free(configs);
	strv_free(s.manifest_extras);
	strv_free(replay);
	strv_free(failed);
	return code;
}
