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

/* ---- kunit -------------------------------------------------------- */

/*
 * The KUnit kernel's fragments, merged after the project's: ours
 * (uml-config/kunit/kunit.config), kunit.py's own for UML (the tree's
 * tools/testing/kunit/configs/arch_uml.config), the kunitconfigs (by
 * default the tree's default.config, as kunit.py), then --config. All go
 * in as --config fragments do: in the kernel's key, and verified.
 */
static char **kunit_fragments(struct session *s, size_t *n)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *config_dir = xasprintf("%s/uml-config", s->project);
	struct kernel_opts ko = kernel_opts_of(s, config_dir);
	_cleanup_free_ char *tree = NULL;
	_cleanup_free_ char *arch = NULL;
	char **v = xcalloc(o->nkunitconfigs + o->nconfigs + 4, sizeof(char *));
	struct uerr e;

	*n = 0;
	/* An absolute path needs no kernel tree to be found missing (fetching one takes minutes).
	 */
	for (size_t i = 0; i < o->nkunitconfigs; i++)
		if (o->kunitconfigs[i][0] == '/' && !path_exists(o->kunitconfigs[i]))
			die(EXIT_USAGE, "--kunitconfig=%s: no such file or folder",
			    o->kunitconfigs[i]);
	if (kernel_source_tree(&ko, &tree, &e) < 0)
		uerr_die(&e);
	v[(*n)++] = xasprintf("%s/kunit/kunit.config", config_dir);
	arch = xasprintf("%s/tools/testing/kunit/configs/arch_uml.config", tree);
	if (path_exists(arch))
		v[(*n)++] = steal_ptr(&arch);
	for (size_t i = 0; i < o->nkunitconfigs; i++)
		if (kunitconfig_resolve(o->kunitconfigs[i], tree, s->project, &v[(*n)++], &e) < 0)
			uerr_die(&e);
	if (!o->nkunitconfigs) {
		char *def = xasprintf("%s/tools/testing/kunit/configs/default.config", tree);

		if (!path_exists(def))
			die(EXIT_USAGE,
			    "kunit: %s has no tools/testing/kunit/configs/default.config; "
			    "give --kunitconfig=FILE|DIR",
			    tree);
		v[(*n)++] = def;
	}
	for (size_t i = 0; i < o->nconfigs; i++)
		v[(*n)++] = xstrdup(o->configs[i]);
	return v;
}

/* The KUnit guest's console, to the parser (and with -v to stderr). */
struct kunit_console {
	struct kunit_log *log;
	bool copy;
};

static void kunit_console_in(void *ctx, const char *data, size_t len)
{
	struct kunit_console *c = ctx;

	kunit_log_console(c->log, data, len, monotonic_now());
	if (c->copy && write(STDERR_FILENO, data, len) < 0)
		return;
}

/*
 * The KUnit words of the kernel command line: umlrun's, then kunit.py's
 * (kunit_kernel.py run_kernel: filter_glob, filter, filter_action), then
 * --kernel_args, last so that they may override.
 */
static char *kunit_cmdline_extra(const struct opts *o, const char *glob, const char *action)
{
	_cleanup_free_ char *filter =
	    o->nfilters ? kunit_filter_param(o->filters, o->nfilters) : NULL;
	struct strbuf sb = { 0 };

	sb_adds(&sb, "kunit_shutdown=poweroff");
	if (glob && *glob)
		sb_printf(&sb, " kunit.filter_glob=%s", glob);
	if (filter)
		sb_printf(&sb, " kunit.filter=\"%s\"", filter);
	if (o->filter_action)
		sb_printf(&sb, " kunit.filter_action=%s", o->filter_action);
	if (action)
		sb_printf(&sb, " kunit.action=%s", action);
	for (size_t i = 0; i < o->nkernel_args; i++)
		sb_printf(&sb, " %s", o->kernel_args[i]);
	return sb_detach(&sb);
}

/* One boot of the KUnit kernel: its console into k, how it ended into out. */
struct kunit_boot {
	struct kunit_log k;
	struct guest_outcome out;
	char *cmdline; /* the exact command line (cmdline.txt) */
	double wall;
};

static void kunit_boot_once(struct session *s, const char *glob, const char *action, FILE *show,
			    struct kunit_boot *b)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *extra = kunit_cmdline_extra(o, glob, action);
	struct kunit_console con = { &b->k, o->verbose };
	struct guest_io io = { NULL, NULL, kunit_console_in, &con };
	struct guest_spec g = guest_for(s, 0);
	double limit = o->wall_timeout ? o->wall_timeout
		       : o->timeout    ? (double)o->timeout
				       : KUNIT_WALL_TIMEOUT_DEFAULT;
	struct uerr e;
	char **argv;
	double t0;

	g.extra = extra;
	argv = guest_cmdline(&g, &e);
	if (!argv)
		uerr_die(&e);
	b->cmdline = strv_join(argv);
	strv_free(argv);
	if (stage_guest_dir(&s->stage, 0, &e) < 0)
		uerr_die(&e);
	if (show)
		fprintf(show, "# command line: %s\n", b->cmdline);
	fflush(show ? show : stdout);
	kunit_log_init(&b->k);
	t0 = monotonic_now();
	if (guest_run(&g, &io, limit, &b->out, &e) < 0)
		die_doctor(&e);
	b->wall = monotonic_now() - t0;
}

/* A boot that powered off after KUnit's whole KTAP, as kunit_records judges it. */
static bool kunit_boot_clean(const struct kunit_boot *b)
{
	return kunit_log_complete(&b->k) &&
	       (b->out.end == GUEST_REPORTED ||
		(b->out.end == GUEST_CRASH && !b->out.kernel_report[0] &&
		 WIFEXITED(b->out.uml_status) && WEXITSTATUS(b->out.uml_status) == 0));
}

/*
 * --list, --list_suites, --list_tests_attr: what KUnit listed
 * (kunit.action=list or list_attr), as kunit.py prints it.
 */
static int kunit_print_list(const struct opts *o, const struct kunit_boot *b, const char *glob)
{
	const struct kunit_log *k = &b->k;

	if (b->out.end == GUEST_INTERRUPTED)
		return EXIT_SIGNAL_BASE + b->out.host_signal;
	if (!k->started)
		die(EXIT_INFRA, "kunit: the kernel listed no KUnit tests (%s)",
		    b->out.detail[0] ? b->out.detail : "no KTAP on its console");
	if (glob && !k->list.len)
		die(EXIT_USAGE, "kunit: no KUnit suite matches GLOB '%s'", glob);
	if (o->list_attr) {
		fputs(k->listed.buf ? k->listed.buf : "", stdout);
	} else if (o->list_suites) {
		_cleanup_strv_ char **suites = kunit_list_suites(k->list.buf);

		for (size_t i = 0; suites[i]; i++)
			puts(suites[i]);
	} else {
		fputs(k->list.buf ? k->list.buf : "", stdout);
	}
	return EXIT_PASS;
}

/*
 * --run_isolated: the globs of kunit.py's exec_tests, one boot each: every
 * listed suite (with the test part of the user's GLOB, if any), or every
 * listed SUITE.CASE.
 */
static char **kunit_isolated_globs(const struct opts *o, const struct kunit_boot *list,
				   const char *glob)
{
	const char *dot = glob ? strchr(glob, '.') : NULL;
	char **v;

	if (!strcmp(o->run_isolated, "test"))
		return kunit_list_lines(list->k.list.buf);
	v = kunit_list_suites(list->k.list.buf);
	for (size_t i = 0; dot && v[i]; i++) {
		char *with = xasprintf("%s.%s", v[i], dot + 1);

		free(v[i]);
		v[i] = with;
	}
	return v;
}

/* kunit.py's view of the run: its test tree, over every boot's console. */
static struct kunit_test *kunit_tree_of(struct kunit_boot *boots, size_t n)
{
	struct kunit_test *t = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t nlines;
		_cleanup_strv_ char **lines =
		    kunit_tap_lines(boots[i].k.console.buf ? boots[i].k.console.buf : "",
				    boots[i].k.console.len, &nlines);
		struct kunit_test *one = kunit_tree_parse(lines, nlines);

		if (t)
			kunit_tree_merge(t, one);
		else
			t = one;
	}
	return t;
}

/* --json[=FILE]: kunit.py's JSON of the run; to stdout, or FILE. */
static int kunit_write_json(struct session *s, const struct kunit_test *t)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *json = kunit_tree_json(t, "um", "kunit_defconfig", s->kernel.dir);

	/* As kunit.py: print() adds a newline on stdout, f.write() none in FILE. */
	if (!o->json_file || !strcmp(o->json_file, "stdout")) {
		puts(json);
		return 0;
	}
	if (write_file_atomic(o->json_file, json, strlen(json)) < 0) {
		warn_sys("cannot write %s", o->json_file);
		return -1;
	}
	printf("# KUnit JSON (kunit.py's format) in %s\n", o->json_file);
	return 0;
}

/* What stdout gets: umlrun's KTAP, or what kunit.py's output options ask for. */
static void kunit_print(struct session *s, const struct kunit_log *k, struct run *run,
			struct kunit_boot *boots, size_t nboots, const struct kunit_test *tree,
			const char *ktap)
{
	const struct opts *o = s->o;

	if (o->raw_output && !strcmp(o->raw_output, "kunit")) {
		for (size_t i = 0; i < nboots; i++) {
			size_t n;
			_cleanup_strv_ char **lines =
			    kunit_tap_lines(boots[i].k.console.buf ? boots[i].k.console.buf : "",
					    boots[i].k.console.len, &n);

			for (size_t j = 0; j < n; j++)
				puts(lines[j]);
		}
	} else if (o->raw_output) {
		for (size_t i = 0; i < nboots; i++)
			fwrite(boots[i].k.console.buf ? boots[i].k.console.buf : "", 1,
			       boots[i].k.console.len, stdout);
	} else if (o->json && (!o->json_file || !strcmp(o->json_file, "stdout"))) {
		/* Only the JSON, for a pipe to jq; ktap.txt has the KTAP. */
	} else if (o->summary) {
		/* kunit.py's summary line, then umlrun's (below). */
	} else if (o->quiet || o->failed) {
		_cleanup_free_ char *brief =
		    kunit_run_ktap(k, run->res.rec, run->res.nrec,
				   o->failed ? KUNIT_LINES_FAILED : KUNIT_LINES_NONE);

		fputs(brief, stdout);
	} else {
		fputs(ktap, stdout);
	}
	if (tree && (o->summary || o->failed)) {
		_cleanup_free_ char *counts = kunit_counts_text(&tree->counts);

		printf("# Testing complete. %s\n", counts);
	}
	if (tree && o->json && kunit_write_json(s, tree) < 0)
		run->exit_code = EXIT_INFRA;
}

/*
 * --run_isolated: after the listing boot list, one boot per suite or test
 * (kunit.py's exec_tests); *globs gets each boot's filter_glob. Returns
 * the boots, *n of them (fewer when one was interrupted).
 */
static struct kunit_boot *kunit_isolated_boots(struct session *s, struct kunit_boot *list,
					       const char *glob, FILE *info, char ***globs,
					       size_t *n)
{
	const struct opts *o = s->o;
	struct kunit_boot *boots;

	if (!list->k.started)
		die(EXIT_INFRA, "kunit: --run_isolated: the kernel listed no KUnit tests (%s)",
		    list->out.detail[0] ? list->out.detail : "no KTAP on its console");
	*globs = kunit_isolated_globs(o, list, glob);
	if (!(*globs)[0])
		die(EXIT_USAGE,
		    glob ? "kunit: no KUnit suite matches GLOB '%s'"
			 : "kunit: the kunitconfig enables no KUnit suite%s",
		    glob ? glob : "");
	for (*n = 0; (*globs)[*n]; (*n)++)
		;
	boots = xcalloc(*n, sizeof(*boots));
	for (size_t i = 0; i < *n; i++) {
		if (!o->quiet)
			fprintf(info, "# boot %zu/%zu: %s\n", i + 1, *n, (*globs)[i]);
		kunit_boot_once(s, (*globs)[i], NULL, NULL, &boots[i]);
		if (boots[i].out.end == GUEST_INTERRUPTED) {
			*n = i + 1;
			break;
		}
	}
	return boots;
}

/*
 * One log of every boot's suites, in order, for the records (each suite
 * keeps its boot's command line; per test, it is named SUITE.CASE); *out
 * the first boot that did not end cleanly, else the last.
 */
static void kunit_join_boots(const struct opts *o, struct kunit_boot *boots, size_t n, char **globs,
			     struct kunit_log *k, struct guest_outcome *out, double *wall)
{
	kunit_log_init(k);
	*out = boots[n - 1].out;
	*wall = 0;
	for (size_t i = 0; i < n; i++) {
		struct kunit_boot *b = &boots[i];

		if (!kunit_boot_clean(b) && kunit_boot_clean(&boots[n - 1]))
			*out = b->out;
		*wall += b->wall;
		for (size_t j = 0; j < b->k.n; j++) {
			struct kunit_suite *su = &b->k.suites[j];

			if (globs && !strcmp(o->run_isolated, "test") && su->name)
				kunit_suite_rename(su, globs[i]);
			su->cmdline = xstrdup(b->cmdline);
		}
		kunit_log_append(k, &b->k);
	}
}

/* Boots the KUnit kernel (once, or once per suite or test); its suites become the run's records. */
static int kunit_boot(struct session *s, const char *glob)
{
	const struct opts *o = s->o;
	bool listing = o->list || o->list_suites || o->list_attr || o->run_isolated;
	_cleanup_free_ char *ktap_path = NULL;
	_cleanup_free_ char *ktap = NULL;
	_cleanup_strv_ char **globs = NULL;
	struct kunit_boot *boots = xcalloc(1, sizeof(*boots));
	struct kunit_test *tree = NULL;
	size_t nboots = 1;
	struct kunit_log k;
	struct guest_outcome out;
	struct run run = { .mode = s->mode };
	struct test_list tests;
	struct uerr e;
	size_t pass;
	char also[64];
	/* stdout is the raw console's or the JSON's alone: umlrun's lines go to stderr. */
	FILE *info =
	    o->raw_output || (o->json && (!o->json_file || !strcmp(o->json_file, "stdout")))
		? stderr
		: stdout;

	if (!o->quiet && !listing)
		fprintf(info, "# kernel: %s\n", s->kernel.binary);
	kunit_boot_once(s, glob, listing ? (o->list_attr ? "list_attr" : "list") : NULL,
			!o->quiet && !listing ? info : NULL, &boots[0]);
	/* A list, or --run_isolated's listing boot interrupted: nothing to report. */
	if (listing && (!o->run_isolated || boots[0].out.end == GUEST_INTERRUPTED)) {
		int code = kunit_print_list(o, &boots[0], glob);

		kunit_log_free(&boots[0].k);
		free(boots[0].cmdline);
		free(boots);
		return code;
	}
	if (o->run_isolated) {
		struct kunit_boot *list = boots;

		boots = kunit_isolated_boots(s, list, glob, info, &globs, &nboots);
		kunit_log_free(&list->k);
		free(list->cmdline);
		free(list);
	}
	kunit_join_boots(o, boots, nboots, globs, &k, &out, &run.wall_seconds);
	if (k.started && k.planned == 0 && !k.n)
		die(EXIT_USAGE,
		    glob ? "kunit: no KUnit suite matches GLOB '%s'"
			 : "kunit: the kunitconfig enables no KUnit suite%s",
		    glob ? glob : "");
	/*
	 * Under inf-cpu a test that busy-loops until a timer fires keeps
	 * simulated time still, so it may spin for ever (a kernel thread
	 * looping on schedule() no longer does on 7.2: docs/kunit.md). Say
	 * what to try with the timeout.
	 */
	if (out.end == GUEST_WALL_TIMEOUT && s->mode == TT_INF_CPU) {
		size_t len = strlen(out.detail);

		snprintf(out.detail + len, sizeof(out.detail) - len,
			 " (under inf-cpu a busy loop keeps simulated time still: "
			 "try --time-travel=basic)");
	}
	kunit_records(&k, &out, &tests, &run.res.rec, &run.res.nrec);
	run.res.host_signal = out.end == GUEST_INTERRUPTED ? out.host_signal : 0;
	finish_exit_code(&run);
	finish_open(o, &run);
	if (kunit_write_dirs(run.dir, &k, boots[0].cmdline, run.res.rec, run.res.nrec, &e) < 0) {
		uerr_print(&e);
		run.exit_code = EXIT_INFRA;
	}
	/* -q shortens stdout; ktap.txt keeps every suite's lines, as run's does. */
	ktap = kunit_run_ktap(&k, run.res.rec, run.res.nrec, KUNIT_LINES_ALL);
	if (o->json || o->summary || o->failed)
		tree = kunit_tree_of(boots, nboots);
	kunit_print(s, &k, &run, boots, nboots, tree, ktap);
	ktap_path = xasprintf("%s/ktap.txt", run.dir);
	if (write_file_atomic(ktap_path, ktap, strlen(ktap)) < 0) {
		warn_sys("cannot write %s", ktap_path);
		run.exit_code = EXIT_INFRA;
	}
	pass = passed_count(run.res.rec, run.res.nrec, also, sizeof(also));
	fprintf(
	    info,
	    "# %zu/%zu KUnit suites passed%s in %.1f s wall (%.1f s simulated); results in %s\n",
	    pass, run.res.nrec, also, run.wall_seconds, k.last_sim > 0 ? k.last_sim : 0.0, run.dir);
	/* A reader gone (| head): 128+SIGPIPE, as run says, and so do the reports. */
	errno = 0;
	if (fflush(stdout) != 0)
		finish_reader_gone(&run, errno);
	write_reports(s, &run, boots[0].cmdline);
	kunit_records_free(&tests, run.res.rec, run.res.nrec);
	kunit_log_free(&k);
	kunit_tree_free(tree);
	for (size_t i = 0; i < nboots; i++) {
		kunit_log_free(&boots[i].k);
		free(boots[i].cmdline);
	}
	free(boots);
	free(run.dir);
	return run.exit_code;
}

/*
 * --kconfig_add: kunit.py appends its lines to the kunitconfig; here they
 * are one more fragment, kconfig_add.config, kept in the cache under the
 * hash of its text (kunit-add/HASH/), so that nothing is left to remove
 * whatever ends the run. Its name and text go in the kernel's key: the
 * same lines find the same kernel again.
 */
static char *kunit_kconfig_add(const struct opts *o)
{
	_cleanup_free_ char *root = cache_root();
	_cleanup_free_ char *dir = NULL;
	struct hasher *h = hasher_new();
	struct strbuf sb = { 0 };
	char hex[65];
	char *path;
	struct uerr e;

	for (size_t i = 0; i < o->nkconfig_adds; i++)
		sb_printf(&sb, "%s\n", o->kconfig_adds[i]);
	hasher_add(h, sb.buf, sb.len);
	hasher_final(h, hex);
	dir = xasprintf("%s/kunit-add/%.16s", root, hex);
	if (mkdir_p(dir, 0755) < 0)
		die_sys(EXIT_INFRA, "cannot create %s", dir);
	path = xasprintf("%s/kconfig_add.config", dir);
	if (sb_write_atomic(path, &sb, &e) < 0)
		uerr_die(&e);
	sb_release(&sb);
	return path;
}

/* --no-build (kunit.py exec): the kernel must be in the cache already. */
static void kunit_need_built(struct session *s)
{
	_cleanup_free_ char *config_dir = xasprintf("%s/uml-config", s->project);
	struct kernel_opts ko = kernel_opts_of(s, config_dir);
	_cleanup_free_ char *dir = NULL;
	_cleanup_free_ char *binary = NULL;
	struct uerr e;

	if (kernel_locate(&ko, &dir, &e) < 0)
		uerr_die(&e);
	binary = xasprintf("%s/linux", dir);
	if (!path_exists(binary))
		die(EXIT_USAGE,
		    "kunit: --no-build: these options' kernel is not built (%s); build it with "
		    "'umlrun kunit --build-only' and the same options",
		    dir);
}

/*
 * kunit: the kernel's KUnit tests, built into a kernel of their own (the
 * kunitconfig merged in) and run at its boot, in one guest under time
 * travel (docs/kunit.md).
 */
int cmd_kunit(const struct opts *o)
{
	struct opts run = *o;
	struct session s = { .o = &run };
	const char *glob = o->nargs ? o->args[0] : NULL;
	size_t nfrags = 0;
	char **frags;
	int code;

	if (glob && !kunit_glob_valid(glob))
		die(EXIT_USAGE,
		    "kunit: GLOB '%s': use letters, digits and _-.*?[]!: only (one word of the "
		    "kernel command line)",
		    glob);
	find_project(&s);
	check_inputs(&s);
	frags = kunit_fragments(&s, &nfrags);
	if (o->nkconfig_adds) {
		frags = xrealloc(frags, (nfrags + 2) * sizeof(char *));
		/* After the kunitconfigs, before --config: as kunit.py appends them. */
		memmove(frags + nfrags - o->nconfigs + 1, frags + nfrags - o->nconfigs,
			o->nconfigs * sizeof(char *));
		frags[nfrags - o->nconfigs] = kunit_kconfig_add(o);
		frags[++nfrags] = NULL;
	}
	run.configs = frags;
	run.nconfigs = nfrags;
	run.mem = o->mem ? o->mem : KUNIT_MEM_DEFAULT;
	/* --jobs: kunit.py's name for the build's make jobs. */
	if (o->jobs)
		run.make_jobs = o->jobs;
	if (o->no_build)
		kunit_need_built(&s);
	prepare_kernel(&s);
	if (o->build_only) {
		printf("# kernel: %s (%s, %s)\n", s.kernel.binary, s.kernel.release,
		       s.kernel.built ? "built" : "cached");
		session_end(&s);
		strv_free(frags);
		return EXIT_PASS;
	}
	prepare_rootfs(&s);
	supervise_block_signals();
	prepare_stage(&s);
	s.mode = o->mode;
	resolve_start(&s);
	code = kunit_boot(&s, glob);
	session_end(&s);
	strv_free(frags);
	return code;
}

/* ---- compare ------------------------------------------------------ */

/* --sample N: the N tests whose ids hash lowest, a choice that never varies. */
static void sample_tests(struct test_list *tests, int n)
{
	char(*h)[65] = xcalloc(tests->n, sizeof(*h));
	bool *keep = xcalloc(tests->n, sizeof(bool));

	for (size_t i = 0; i < tests->n; i++) {
		struct hasher *hs = hasher_new();

		hasher_add_str(hs, tests->v[i].id);
		hasher_final(hs, h[i]);
	}
	for (size_t i = 0; i < tests->n; i++) {
		size_t lower = 0;

		for (size_t j = 0; j < tests->n; j++)
			lower += strcmp(h[j], h[i]) < 0;
		keep[i] = lower < (size_t)n;
	}
	keep_tests(tests, keep);
	free(keep);
	free(h);
}

static const struct record *find_record(const struct run *run, const char *id)
{
	for (size_t i = 0; i < run->res.nrec; i++)
		if (!strcmp(run->res.rec[i].test->id, id))
			return &run->res.rec[i];
	return NULL;
}

/* A speedup to show: wall_off / wall, or NULL when there is no wall to divide by. */
static char *speedup_text(double off, double tt, bool json)
{
	if (!(tt > 0) || !(off > 0))
		return xstrdup(json ? "null" : "-");
	return xasprintf(json ? "%.2f" : "%.1fx", off / tt);
}

static void print_compare(const struct test_list *tests, const struct run *off,
			  const struct run *tt, int jobs, bool json)
{
	double sim = 0, woff = 0, wtt = 0;
	bool any_bound = false;
	size_t shown = 0;
	/* A run that never started (the first was interrupted) has no folder. */
	const char *tt_dir = tt->dir ? tt->dir : "(not run)";
	const int sig = off->res.host_signal ? off->res.host_signal : tt->res.host_signal;
	/* Through stdout's queue (util.h): a reader that stops reading stops nothing. */
	struct strbuf out = { 0 };

	if (json)
		sb_printf(
		    &out,
		    "{\n  \"mode\": \"%s\",\n  \"off_run\": \"%s\",\n  \"mode_run\": %s%s%s,\n"
		    "%s%s%s  \"tests\": [",
		    tt_mode_name(tt->mode), off->dir, tt->dir ? "\"" : "",
		    tt->dir ? tt->dir : "null", tt->dir ? "\"" : "",
		    sig ? "  \"interrupted\": \"" : "", sig ? sigabbrev_np(sig) : "",
		    sig ? "\",\n" : "");
	else
		sb_printf(
		    &out,
		    "# umlrun compare: %zu test files, each run twice on the same kernel and\n"
		    "# root folder, %d guests at a time: time travel off (real time), then %s\n"
		    "# runs: %s and %s\n"
		    "# simulated_s: guest time the test took (measured in the %s guest);\n"
		    "# wall_*: host seconds per test file, boot to power-off; speedup = "
		    "wall_off/wall_tt\n"
		    "%-44s %8s %12s %10s %10s %9s\n",
		    tests->n, jobs, tt_mode_name(tt->mode), off->dir, tt_dir,
		    tt_mode_name(tt->mode), "test", "result", "simulated_s", "wall_off", "wall_tt",
		    "speedup");
	for (size_t i = 0; i < tests->n; i++) {
		const struct record *a = find_record(off, tests->v[i].id);
		const struct record *b = find_record(tt, tests->v[i].id);
		_cleanup_free_ char *speedup = NULL;
		/* Time travel off stopped at its limit: the real speedup is larger. */
		bool bound = a && a->verdict == V_TIMEOUT;

		if (!a || !b)
			continue;
		any_bound |= bound;
		sim += b->outcome.sim_seconds;
		woff += a->outcome.wall_seconds;
		wtt += b->outcome.wall_seconds;
		speedup = speedup_text(a->outcome.wall_seconds, b->outcome.wall_seconds, json);
		if (json)
			sb_printf(
			    &out,
			    "%s\n    {\"id\": \"%s\", \"result_off\": \"%s\", \"result\": \"%s\", "
			    "\"sim_seconds\": %.3f, \"wall_off\": %.3f, \"wall\": %.3f, "
			    "\"speedup\": %s, \"speedup_is_lower_bound\": %s}",
			    shown ? "," : "", b->test->id, verdict_name(a->verdict),
			    verdict_name(b->verdict), b->outcome.sim_seconds,
			    a->outcome.wall_seconds, b->outcome.wall_seconds, speedup,
			    bound ? "true" : "false");
		else
			sb_printf(&out, "%-44s %8s %12.3f %10.3f %10.3f %2s%7s\n", b->test->id,
				  verdict_name(b->verdict), b->outcome.sim_seconds,
				  a->outcome.wall_seconds, b->outcome.wall_seconds,
				  bound ? ">=" : "", speedup);
		shown++;
	}
	{
		_cleanup_free_ char *total = speedup_text(woff, wtt, json);

		if (json)
			sb_printf(
			    &out,
			    "\n  ],\n  \"total\": {\"sim_seconds\": %.3f, \"wall_off\": %.3f, "
			    "\"wall\": %.3f, \"speedup\": %s, \"speedup_is_lower_bound\": %s, "
			    "\"run_wall_off\": %.3f, \"run_wall\": %.3f}\n}\n",
			    sim, woff, wtt, total, any_bound ? "true" : "false", off->wall_seconds,
			    tt->wall_seconds);
		else
			sb_printf(&out,
				  "%-44s %8s %12.3f %10.3f %10.3f %2s%7s\n"
				  "# whole runs: %.1f s wall off, %.1f s wall with %s\n%s",
				  "total", "", sim, woff, wtt, any_bound ? ">=" : "", total,
				  off->wall_seconds, tt->wall_seconds, tt_mode_name(tt->mode),
				  any_bound
				      ? "# >=: time travel off hit its limit, so it would have "
					"taken longer\n"
				      : "");
	}
	if (!json && sig)
		sb_printf(&out, "# interrupted by %s: %zu of %zu test files compared\n",
			  sigabbrev_np(sig), shown, tests->n);
	outq_add(&outq_stdout, out.buf ? out.buf : "", out.len);
	sb_release(&out);
}

int cmd_compare(const struct opts *o)
{
	struct session s = { .o = o };
	struct run off = { .mode = TT_OFF }, tt = { .mode = o->mode };
	struct test_list tests;
	int code;

	find_project(&s);
	find_tests(&s, &tests);
	if (o->sample && (size_t)o->sample < tests.n)
		sample_tests(&tests, o->sample);
	check_inputs(&s);
	prepare_kernel(&s);
	prepare_rootfs(&s);
	supervise_block_signals();
	prepare_stage(&s);
	run_tests(&s, &tests, &off);
	if (!off.res.host_signal)
		run_tests(&s, &tests, &tt);
	print_compare(&tests, &off, &tt, o->jobs ? o->jobs : cpus_usable(), o->json);
	code = off.res.host_signal ? off.exit_code : tt.exit_code;
	finish_stdout(&code);
	sched_result_free(&off.res);
	sched_result_free(&tt.res);
	free(off.dir);
	free(tt.dir);
	tests_free(&tests);
	session_end(&s);
	return code;
}

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
