// SPDX-License-Identifier: MIT
/*
 * selection.c - choosing the tests a command works on (see selection.h):
 * the suites or tests named, --filter, --exclude, --rerun-failed,
 * --shard, and their order (--shuffle, or longest first).
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "finish.h"
#include "selection.h"
#include "shard.h"

/*
 * Longest first, so the slowest test does not start last: by --durations
 * when given, else by what earlier runs left in the cache.
 */
static void order_longest_first(const struct opts *o, struct test_list *tests)
{
	_cleanup_free_ char *path = durations_cache_path();
	struct durations d = { 0 };
	struct uerr e;

	if (o->durations && durations_load(o->durations, &d, &e) < 0)
		uerr_die(&e);
	if (o->durations || durations_cache_load(path, &d, &e) == 0)
		durations_order(tests->v, tests->n, &d);
	durations_free(&d);
}

static bool matches_any(char *const *globs, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(globs[i], id, 0) == 0)
			return true;
	return false;
}

/* Keeps the tests for which keep[i] is set, in order. */
void keep_tests(struct test_list *l, const bool *keep)
{
	size_t j = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (keep[i]) {
			l->v[j++] = l->v[i];
			continue;
		}
		test_free(&l->v[i]);
	}
	l->n = j;
}

static void shuffle_tests(struct test_list *l, uint64_t seed)
{
	uint64_t state = seed;

	for (size_t i = l->n; i > 1; i--) {
		size_t j = (size_t)(splitmix64_next(&state) % i);
		struct test t = l->v[i - 1];

		l->v[i - 1] = l->v[j];
		l->v[j] = t;
	}
}

/*
 * --rerun-failed: whether the last run (RESULTS/latest) failed this test,
 * or stopped before starting it (interrupted, or failed itself).
 */
static bool failed_last_time(const struct loaded_run *last, const char *id)
{
	for (size_t i = 0; i < last->n; i++)
		if (!strcmp(last->rec[i].test->id, id) && !verdict_passed(last->rec[i].verdict))
			return true; /* flaky passed on a retry: not rerun */
	for (size_t i = 0; i < last->info.nnot_run; i++)
		if (!strcmp(last->info.not_run[i], id))
			return true;
	return false;
}

/*
 * --rerun-failed: every test the last run failed must be among these: one
 * that is not was run from other suites (--suite-dir, --plain) or has been
 * renamed, and leaving it out would pass as a clean run.
 */
static void check_failed_found(const struct session *s, const struct loaded_run *last,
			       const struct test_list *tests)
{
	const struct opts *o = s->o;
	const char *missing = NULL;
	size_t nmissing = 0;

	for (size_t i = 0; i < last->n + last->info.nnot_run; i++) {
		const char *id =
		    i < last->n ? last->rec[i].test->id : last->info.not_run[i - last->n];
		bool found = false;

		if (!failed_last_time(last, id) || (missing && !strcmp(missing, id)))
			continue;
		for (size_t t = 0; !found && t < tests->n; t++)
			found = !strcmp(tests->v[t].id, id);
		if (!found && !missing)
			missing = id;
		nmissing += !found;
	}
	if (missing)
		die(EXIT_USAGE,
		    "--rerun-failed: the last run failed %s%s, which %s not among the tests here "
		    "(%s); give the --suite-dir or --plain that run had, or run the tests anew",
		    missing, nmissing > 1 ? " and others" : "", nmissing > 1 ? "are" : "is",
		    o->nplains	   ? "--plain's"
		    : o->suite_dir ? o->suite_dir
				   : "testsuites/");
}

void load_last_run(const struct session *s, struct loaded_run *last)
{
	const char *results = finish_results_dir(s->o);
	_cleanup_free_ char *latest = xasprintf("%s/latest", results);
	struct uerr e;

	if (!is_dir(latest))
		die(EXIT_USAGE, "--rerun-failed: no previous run in %s; run the tests first",
		    results);
	{
		_cleanup_free_ char *json = xasprintf("%s/results.json", latest);

		if (!path_exists(json))
			die(EXIT_USAGE,
			    "--rerun-failed: the last run in %s did not finish (it has no "
			    "results.json: killed?); run the tests anew",
			    results);
	}
	if (results_load(latest, last, &e) < 0)
		uerr_die(&e);
	/*
	 * Its failures are its shard's share already: split again, they
	 * would go to other shards and this one would rerun nothing.
	 */
	if (s->o->shard && (!last->info.shard || strcmp(last->info.shard, s->o->shard)))
		die(EXIT_USAGE,
		    "--rerun-failed --shard=%s: the last run in %s was %s%s; rerun on the "
		    "machine (or with the --results) of that shard",
		    s->o->shard, results, last->info.shard ? "shard " : "not a shard",
		    last->info.shard ? last->info.shard : "");
	/* A seed's failure needs that seed: one run of seed 0 would pass as its rerun. */
	for (size_t i = 0; i < last->n; i++)
		if (last->rec[i].seeded && last->rec[i].verdict != V_PASS &&
		    last->rec[i].verdict != V_SKIP)
			die(EXIT_USAGE,
			    "--rerun-failed: the last run (--seeds) failed %s with seed %lld; "
			    "rerun the failed seeds with the replay line it printed "
			    "(--random-seed=%lld and the same options)",
			    last->rec[i].test->id, last->rec[i].seed, last->rec[i].seed);
	/* Run once, a file cannot differ from itself: the rerun would pass. */
	for (size_t i = 0; i < last->n && !s->o->check_determinism; i++)
		if (last->rec[i].reason && strstr(last->rec[i].reason, "not deterministic"))
			die(EXIT_USAGE,
			    "--rerun-failed: the last run failed %s under --check-determinism; "
			    "rerun it with --repeat=N --check-determinism",
			    last->rec[i].test->id);
}

/* --shard K/N: the same share on every machine (see shard.h). */
static void select_shard(const struct opts *o, const struct test_list *tests, bool *keep)
{
	struct durations d = { 0 };
	struct uerr e;
	int k, n;

	if (shard_parse(o->shard, &k, &n, &e) < 0)
		uerr_die(&e);
	if (o->durations && durations_load(o->durations, &d, &e) < 0)
		uerr_die(&e);
	shard_select(tests->v, tests->n, o->durations ? &d : NULL, k, n, keep);
	durations_free(&d);
}

/* The --shuffle seed, to replay the order: on f (stdout for run, stderr for a list). */
void print_shuffle_seed(FILE *f, uint64_t seed)
{
	fprintf(f, "# shuffle seed: %llu (replay with --shuffle=%llu)\n", (unsigned long long)seed,
		(unsigned long long)seed);
}

/* list, run --list: the ids, one a line; the seed on stderr, stdout is for scripts. */
void print_list(const struct session *s, const struct test_list *tests)
{
	if (s->o->shuffle)
		print_shuffle_seed(stderr, s->seed);
	for (size_t i = 0; i < tests->n; i++)
		printf("%s\n", tests->v[i].id);
	/* A list that did not reach its reader is no list (>/dev/full, a full disk). */
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_INFRA, "cannot write the list to stdout: %s",
		    strerror(errno ? errno : EIO));
}

/*
 * A --filter that matched no id of those tests: where the command's ids
 * are listed. kselftest's and hwsim's are of the suites they generate,
 * which 'umlrun list' does not see; run's and compare's are list's, of
 * the same --suite-dir or --plain folders.
 */
UMLRUN_NORETURN static void die_no_match(const struct opts *o, const char *filter)
{
	struct strbuf sb = { 0 };

	if (o->cmd == CMD_KSELFTEST)
		die(EXIT_USAGE,
		    "--filter='%s' matches no test file id; 'umlrun kselftest --list' with the "
		    "same TARGETs shows them",
		    filter);
	if (o->cmd == CMD_HWSIM)
		die(EXIT_USAGE,
		    "--filter='%s' matches no batch: their ids are hwsim/tNNNN-MODULE[-K].sh "
		    "(e.g. --filter='hwsim/*-MODULE*'), of the MODULEs 'umlrun hwsim --list' "
		    "shows",
		    filter);
	if (o->suite_dir)
		sb_printf(&sb, " --suite-dir=%s", o->suite_dir);
	for (size_t i = 0; i < o->nplains; i++)
		sb_printf(&sb, " --plain=%s", o->plains[i]);
	die(EXIT_USAGE, "--filter='%s' matches no test file id%s; 'umlrun list%s' shows them",
	    filter, o->nargs ? " of the suites or tests named" : "", sb.len ? sb.buf : "");
}

/*
 * The tests a command works on: the suites or tests named, less what
 * --filter, --exclude, --rerun-failed and --shard leave out, in the order
 * --shuffle gives (or longest first, by the durations remembered).
 */
void find_tests(struct session *s, struct test_list *tests)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *suites = suites_dir(s);
	struct loaded_run last = { 0 };
	struct uerr e;
	bool *keep;

	if (o->rerun_failed)
		load_last_run(s, &last);
	if (suites_find(suites, o->args, o->nargs, tests, &e) < 0) {
		static const char hint[] = "see 'umlrun list'";
		size_t len = strlen(e.msg), hl = sizeof(hint) - 1;

		/* 'umlrun list' alone would list the project's suites, not these. */
		if (o->suite_dir && len >= hl && !strcmp(e.msg + len - hl, hint))
			die(e.code, "%.*s --suite-dir=%s'", (int)(len - 1), e.msg, o->suite_dir);
		uerr_die(&e);
	}
	if (o->rerun_failed)
		check_failed_found(s, &last, tests);
	/* A --filter that matches nothing is a typo, not an empty run that passes. */
	for (size_t f = 0; f < o->nfilters; f++) {
		size_t i = 0;

		while (i < tests->n && !matches_any(&o->filters[f], 1, tests->v[i].id))
			i++;
		if (i == tests->n)
			die_no_match(o, o->filters[f]);
	}
	keep = xcalloc(tests->n, sizeof(bool));
	for (size_t i = 0; i < tests->n; i++)
		keep[i] = (!o->nfilters || matches_any(o->filters, o->nfilters, tests->v[i].id)) &&
			  !matches_any(o->excludes, o->nexcludes, tests->v[i].id);
	keep_tests(tests, keep);
	/* Then what failed last time: none is a clean run, not a typo. */
	if (!tests->n && (o->nfilters || o->nexcludes))
		die(EXIT_USAGE, "--filter and --exclude leave no test file to %s",
		    o->cmd == CMD_LIST ? "list" : "run");
	if (o->rerun_failed) {
		for (size_t i = 0; i < tests->n; i++)
			keep[i] = failed_last_time(&last, tests->v[i].id);
		keep_tests(tests, keep);
	}
	/* A rerun holds what failed before, no shard's share: merge refuses it. */
	if (o->rerun_failed)
		snprintf(s->selection, sizeof(s->selection), "%s", SELECTION_RERUN);
	/* What the shards split, for merge to check they split the same (results.json). */
	if (o->shard && !o->rerun_failed) {
		struct hasher *h = hasher_new();
		char hex[65];

		for (size_t i = 0; i < tests->n; i++)
			hasher_add_str(h, tests->v[i].id);
		/* The durations decide the split too (read whole by select_shard below). */
		if (o->durations)
			(void)!hasher_add_file(h, o->durations);
		hasher_final(h, hex);
		snprintf(s->selection, sizeof(s->selection), "%zu:%.8s", tests->n, hex);
	}
	/* --rerun-failed: the last run was this shard (load_last_run): its share is chosen. */
	if (o->shard && !o->rerun_failed) {
		select_shard(o, tests, keep);
		keep_tests(tests, keep);
	}
	free(keep);
	if (o->rerun_failed)
		results_free(&last);
	if (o->shuffle) {
		s->seed = o->seed ? o->seed : ((uint64_t)time(NULL) << 16 ^ (uint64_t)getpid());
		shuffle_tests(tests, s->seed);
	} else if (o->cmd != CMD_LIST) {
		order_longest_first(o, tests);
	}
}
