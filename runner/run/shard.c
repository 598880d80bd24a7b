// SPDX-License-Identifier: MIT
/*
 * shard.c - which tests a shard runs, and the durations that balance it
 * (see shard.h for the trade-off between hashing and balancing).
 *
 * Everything that decides a shard is computed in an order fixed by the
 * ids alone (sorted, ties broken by id), floating-point sums included, so
 * two machines given the same tests and durations add the same numbers in
 * the same order and agree to the last bit.
 */
#define _GNU_SOURCE
#include "shard.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "results_read.h"

/* How much a new measurement weighs against the cached average. */
#define CACHE_ALPHA 0.5

/* ---- a set of durations ---- */

static void durations_add(struct durations *d, const char *id, double seconds)
{
	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	d->v[d->n++] = (struct duration){ xstrdup(id), seconds, 1 };
}

/* By id, then value: the order the samples of one id are summed in. */
static int cmp_id_value(const void *a, const void *b)
{
	const struct duration *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	return x->seconds < y->seconds ? -1 : x->seconds > y->seconds;
}

/* Sorts by id and folds repeated ids into their mean. */
static void durations_finish(struct durations *d)
{
	size_t out = 0;

	if (!d->n)
		return;
	qsort(d->v, d->n, sizeof(*d->v), cmp_id_value);
	for (size_t i = 0; i < d->n; i++) {
		struct duration *last = out ? &d->v[out - 1] : NULL;

		if (last && !strcmp(last->id, d->v[i].id)) {
			/* seconds holds the sum until the end. */
			last->seconds += d->v[i].seconds * d->v[i].samples;
			last->samples += d->v[i].samples;
			free(d->v[i].id);
			continue;
		}
		d->v[out] = d->v[i];
		d->v[out].seconds *= d->v[out].samples;
		out++;
	}
	d->n = out;
	for (size_t i = 0; i < d->n; i++)
		d->v[i].seconds /= d->v[i].samples;
}

static int cmp_key_id(const void *key, const void *elem)
{
	return strcmp(key, ((const struct duration *)elem)->id);
}

static const struct duration *durations_find(const struct durations *d, const char *id)
{
	if (!d || !d->n)
		return NULL;
	return bsearch(id, d->v, d->n, sizeof(*d->v), cmp_key_id);
}

double durations_get(const struct durations *d, const char *id, double fallback)
{
	const struct duration *x = durations_find(d, id);

	return x ? x->seconds : fallback;
}

void durations_free(struct durations *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].id);
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

/* Interrupted attempts ran for part of their time only: not a measure. */
static void durations_add_records(struct durations *d, const struct record *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double s = r[i].outcome.wall_seconds;

		if (r[i].verdict != V_INTERRUPTED && isfinite(s) && s >= 0)
			durations_add(d, r[i].test->id, s);
	}
}

/* ---- the text form: "TEST-ID SECONDS" lines ---- */

/* One line, NUL-terminated, without its newline; false when malformed. */
static bool parse_line(char *line, struct durations *d)
{
	char *p = line, *id, *end;
	double s;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return true;
	id = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (!*p)
		return false;
	*p++ = '\0';
	errno = 0;
	s = strtod(p, &end);
	if (end == p || errno || !isfinite(s) || s < 0)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	durations_add(d, id, s);
	return true;
}

/* strict: a bad line is an error (a file the user gave), else skipped. */
static int parse_text(const char *path, char *text, bool strict, struct durations *d,
		      struct uerr *e)
{
	int lineno = 0;

	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		_cleanup_free_ char *shown = NULL;

		lineno++;
		/* parse_line cuts the line at its blank: the whole of it is shown. */
		if (strict)
			shown = str_printable(line);
		if (parse_line(line, d) || !strict)
			continue;
		durations_free(d);
		return uerr_set(e, EXIT_USAGE, "%s:%d: want 'TEST-ID SECONDS', not '%.60s'", path,
				lineno, shown);
	}
	durations_finish(d);
	return 0;
}

static int load_results(const char *path, bool is_run_dir, struct durations *d, struct uerr *e)
{
	struct loaded_run lr;
	int r = is_run_dir ? results_load(path, &lr, e) : results_load_file(path, &lr, e);

	if (r < 0)
		return -1;
	durations_add_records(d, lr.rec, lr.n);
	durations_finish(d);
	results_free(&lr);
	return 0;
}

int durations_load(const char *path, struct durations *d, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	const char *p;
	int r;

	memset(d, 0, sizeof(*d));
	if (is_dir(path))
		return load_results(path, true, d, e);
	r = read_file(path, &text, NULL);
	if (r < 0)
		return uerr_set(e, EXIT_USAGE, "cannot read the durations file %s: %s", path,
				read_file_error(r));
	for (p = text ? text : ""; isspace((unsigned char)*p); p++)
		;
	if (*p == '{')
		return load_results(path, false, d, e);
	return parse_text(path, text ? text : "", true, d, e);
}

/* ---- choosing a shard ---- */

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * FNV-1a alone barely changes its high bits for inputs that differ only at
 * the end, which would make one shard win most comparisons: its hash goes
 * through splitmix64's finaliser (splitmix64_mix).
 */

/* Rendezvous hashing: 0-based shard with the highest weight for id. */
static int hashed_shard(const char *id, int nshards)
{
	uint64_t h = fnv1a(id), best_w = 0;
	int best = 0;

	for (int s = 0; s < nshards; s++) {
		uint64_t w = splitmix64_mix(h ^ ((uint64_t)(s + 1) * 0x9e3779b97f4a7c15ULL));

		if (s == 0 || w > best_w) {
			best = s;
			best_w = w;
		}
	}
	return best;
}

struct timed {
	const char *id;
	double seconds;
	size_t index; /* into tests */
};

/* Duration descending, then id: independent of the order given. */
static int cmp_longest(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;
	int c;

	if (x->seconds != y->seconds)
		return x->seconds > y->seconds ? -1 : 1;
	c = strcmp(x->id, y->id);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int least_loaded(const double *load, int nshards)
{
	int best = 0;

	for (int s = 1; s < nshards; s++)
		if (load[s] < load[best])
			best = s;
	return best;
}

/*
 * Longest-processing-time greedy over the known tests, on top of the
 * hashed ones, each of which weighs the known tests' mean.
 */
static void balance(struct timed *known, size_t nknown, const int *nhashed, int nshards, int *shard)
{
	double *load = xcalloc((size_t)nshards, sizeof(*load));
	double sum = 0, mean;

	qsort(known, nknown, sizeof(*known), cmp_longest);
	for (size_t i = 0; i < nknown; i++)
		sum += known[i].seconds;
	mean = nknown ? sum / (double)nknown : 0;
	for (int s = 0; s < nshards; s++)
		load[s] = nhashed[s] * mean;
	for (size_t i = 0; i < nknown; i++) {
		int s = least_loaded(load, nshards);

		load[s] += known[i].seconds;
		shard[known[i].index] = s;
	}
	free(load);
}

void shard_select(const struct test *tests, size_t n, const struct durations *d, int k, int nshards,
		  bool *keep)
{
	struct timed *known = xcalloc(n ? n : 1, sizeof(*known));
	int *nhashed = xcalloc((size_t)nshards, sizeof(*nhashed));
	int *shard = xcalloc(n ? n : 1, sizeof(*shard));
	size_t nknown = 0;

	for (size_t i = 0; i < n; i++) {
		const struct duration *x = durations_find(d, tests[i].id);

		if (x) {
			known[nknown++] = (struct timed){ tests[i].id, x->seconds, i };
			continue;
		}
		shard[i] = hashed_shard(tests[i].id, nshards);
		nhashed[shard[i]]++;
	}
	balance(known, nknown, nhashed, nshards, shard);
	for (size_t i = 0; i < n; i++)
		keep[i] = shard[i] == k - 1;
	free(known);
	free(nhashed);
	free(shard);
}

/* ---- the cache ---- */

char *durations_cache_path(void)
{
	_cleanup_free_ char *root = cache_root();

	return xasprintf("%s/durations", root);
}

int durations_cache_load(const char *cache_file, struct durations *d, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	int r;

	memset(d, 0, sizeof(*d));
	r = read_file(cache_file, &text, NULL);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", cache_file);
	}
	return parse_text(cache_file, text ? text : "", false, d, e);
}

/* An id with a blank in it cannot be written as one "ID SECONDS" line. */
static bool writable_id(const char *id)
{
	for (const char *p = id; *p; p++)
		if (isspace((unsigned char)*p))
			return false;
	return *id != '\0' && *id != '#';
}

static void add_line(struct strbuf *sb, const char *id, double seconds)
{
	if (writable_id(id))
		sb_printf(sb, "%s %.3f\n", id, seconds);
}

/* Both sorted by id: the union, with this run's values folded in. */
static void merge_into(struct strbuf *sb, const struct durations *old, const struct durations *now)
{
	size_t i = 0, j = 0;

	while (i < old->n || j < now->n) {
		int c = i == old->n ? 1 : j == now->n ? -1 : strcmp(old->v[i].id, now->v[j].id);

		if (c < 0) {
			add_line(sb, old->v[i].id, old->v[i].seconds);
			i++;
		} else if (c > 0) {
			add_line(sb, now->v[j].id, now->v[j].seconds);
			j++;
		} else {
			add_line(sb, now->v[j].id,
				 CACHE_ALPHA * now->v[j].seconds +
				     (1 - CACHE_ALPHA) * old->v[i].seconds);
			i++;
			j++;
		}
	}
}

static int cache_dir_create(const char *cache_file, struct uerr *e)
{
	_cleanup_free_ char *dir = xstrdup(cache_file);
	char *slash = strrchr(dir, '/');

	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir_p(dir, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", dir);
	return 0;
}

int durations_record(const char *cache_file, const struct record *r, size_t n, struct uerr *e)
{
	struct durations old, now = { 0 };
	struct strbuf sb = { 0 };

	if (durations_cache_load(cache_file, &old, e) < 0)
		return -1;
	durations_add_records(&now, r, n);
	durations_finish(&now);
	sb_adds(&sb,
		"# umlrun: wall seconds per test file (TEST-ID SECONDS), averaged over runs\n");
	merge_into(&sb, &old, &now);
	durations_free(&old);
	durations_free(&now);
	if (cache_dir_create(cache_file, e) < 0) {
		sb_release(&sb);
		return -1;
	}
	return sb_write_atomic(cache_file, &sb, e);
}

/* Unknown first (as +inf), then longest; ties keep the given order. */
static int cmp_queue(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;

	if (x->seconds != y->seconds)
		return x->seconds > y->seconds ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void durations_order(struct test *tests, size_t n, const struct durations *d)
{
	struct timed *t = xcalloc(n ? n : 1, sizeof(*t));
	struct test *sorted = xcalloc(n ? n : 1, sizeof(*sorted));

	for (size_t i = 0; i < n; i++)
		t[i] = (struct timed){ tests[i].id, durations_get(d, tests[i].id, INFINITY), i };
	qsort(t, n, sizeof(*t), cmp_queue);
	for (size_t i = 0; i < n; i++)
		sorted[i] = tests[t[i].index];
	memcpy(tests, sorted, n * sizeof(*tests));
	free(t);
	free(sorted);
}
