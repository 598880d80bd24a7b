// SPDX-License-Identifier: MIT
/*
 * cmd_kunit.c - umlrun kunit: the kernel's KUnit tests, built into a
 * kernel of their own (the kunitconfigs merged in) and run at its boot,
 * in one guest under time travel, or one per suite or test
 * (--run_isolated); kunit.py's options and output (docs/kunit.md).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "finish.h"
#include "kunit.h"
#include "kunit_json.h"
#include "supervise.h"

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
 * --kernel_args, last so that they may override. A kernel with our seed
 * patch gets the guest's seed for its random pool (uml-random-seed=):
 * with no init to credit umlrun.seed=, its generator would never be
 * ready, and tests that need it would skip where kunit.py's pass.
 */
static char *kunit_cmdline_extra(const struct session *s, const char *glob, const char *action)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *filter =
	    o->nfilters ? kunit_filter_param(o->filters, o->nfilters) : NULL;
	struct strbuf sb = { 0 };

	sb_adds(&sb, "kunit_shutdown=poweroff");
	if (s->kernel.has_random_seed)
		sb_printf(&sb, " uml-random-seed=%" PRIu64, s->random_seed);
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
	_cleanup_free_ char *extra = kunit_cmdline_extra(s, glob, action);
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
	s.kunit_kernel = true;
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
