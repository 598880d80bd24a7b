// SPDX-License-Identifier: MIT
/* test_shard.c - K/N, the split across shards, and the durations files. */
#define _GNU_SOURCE
#include "report.h"
#include "shard.h"

#include <stdio.h>
#include <sys/stat.h>

#include "tap.h"

#define NTESTS 60

/* A fixed pseudo-random sequence: the same fixtures on every machine. */
static unsigned int lcg(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 16) & 0x7fff;
}

static struct test *make_tests(size_t n, const char *tag)
{
	struct test *t = xcalloc(n, sizeof(*t));

	for (size_t i = 0; i < n; i++)
		t[i].id = xasprintf("s%zu/t%04zu-%s.sh", i % 4, i, tag);
	return t;
}

static void free_tests(struct test *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].id);
	free(t);
}

/* Durations for every test, or every other one (mixed), 0.1 to 30 s. */
static void make_durations(const struct test *t, size_t n, bool every, struct durations *d)
{
	unsigned int seed = 42;

	d->v = xcalloc(n, sizeof(*d->v));
	d->n = 0;
	for (size_t i = 0; i < n; i++) {
		double s = 0.1 + (lcg(&seed) % 3000) / 100.0;

		if (every || i % 2)
			d->v[d->n++] = (struct duration){ xstrdup(t[i].id), s, 1 };
	}
	/* durations_get expects them sorted by id. */
	for (size_t i = 1; i < d->n; i++)
		for (size_t j = i; j > 0 && strcmp(d->v[j - 1].id, d->v[j].id) > 0; j--) {
			struct duration x = d->v[j];

			d->v[j] = d->v[j - 1];
			d->v[j - 1] = x;
		}
}

/*
 * shard[i] = the shard (1..nshards) test i landed in, 0 when none, -1
 * when more than one.
 */
static int *assign(const struct test *t, size_t n, const struct durations *d, int nshards)
{
	int *shard = xcalloc(n ? n : 1, sizeof(*shard));
	bool *keep = xcalloc(n ? n : 1, sizeof(*keep));

	for (int k = 1; k <= nshards; k++) {
		shard_select(t, n, d, k, nshards, keep);
		for (size_t i = 0; i < n; i++)
			if (keep[i])
				shard[i] = shard[i] ? -1 : k;
	}
	free(keep);
	return shard;
}

static bool each_in_one(const int *shard, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (shard[i] <= 0)
			return false;
	return true;
}

static void test_parse(void)
{
	static const char *const bad[] = { "",	     "1",     "0/3",  "4/3",	      "1/0",
					   "1/1001", "a/b",   "1/2x", "-1/2",	      "+1/2",
					   " 1/2",   "1/ 2",  "1//2", "1/",	      "/2",
					   "1/2/3",  "1.5/3", "2/-3", "99999999999/3" };
	struct uerr e;
	int k = 0, n = 0;

	ok(shard_parse("1/1", &k, &n, &e) == 0 && k == 1 && n == 1, "1/1");
	ok(shard_parse("3/7", &k, &n, &e) == 0 && k == 3 && n == 7, "3/7");
	ok(shard_parse("1000/1000", &k, &n, &e) == 0 && k == 1000 && n == 1000, "1000/1000");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		_cleanup_free_ char *quoted = xasprintf("'%s'", bad[i]);

		k = n = -7;
		e.code = 0;
		e.msg[0] = '\0';
		ok(shard_parse(bad[i], &k, &n, &e) == -1 && e.code == EXIT_USAGE &&
		       strstr(e.msg, quoted) && !strchr(e.msg, '\n') && k == -7 && n == -7,
		   "'%s' is refused with one line naming it", bad[i]);
	}
	shard_parse("5/3", &k, &n, &e);
	has_str(e.msg, "1 <= K <= N <= 1000", "an out-of-range shard says the range");
	shard_parse("x", &k, &n, &e);
	has_str(e.msg, "want K/N", "a malformed shard says the form");
}

static void test_partition(void)
{
	struct test *t = make_tests(NTESTS, "p");
	struct durations all, mixed;

	make_durations(t, NTESTS, true, &all);
	make_durations(t, NTESTS, false, &mixed);
	for (int n = 1; n <= 7; n++) {
		int *none = assign(t, NTESTS, NULL, n);
		int *timed = assign(t, NTESTS, &all, n);
		int *half = assign(t, NTESTS, &mixed, n);

		ok(each_in_one(none, NTESTS), "N=%d, no durations: each test in exactly one shard",
		   n);
		ok(each_in_one(timed, NTESTS), "N=%d, durations: each test in exactly one shard",
		   n);
		ok(each_in_one(half, NTESTS),
		   "N=%d, some durations: each test in exactly one shard", n);
		free(none);
		free(timed);
		free(half);
	}
	{
		bool keep[1] = { true };

		shard_select(t, 0, NULL, 1, 3, keep);
		ok(keep[0], "no tests: nothing is written");
	}
	durations_free(&all);
	durations_free(&mixed);
	free_tests(t, NTESTS);
}

/* Adding (or removing) tests moves no other test when no durations are given. */
static void test_stability(void)
{
	struct test *t = make_tests(NTESTS + 5, "st");

	for (int n = 2; n <= 7; n++) {
		int *before = assign(t, NTESTS, NULL, n);
		int *after = assign(t, NTESTS + 5, NULL, n);
		int *fewer = assign(t + 10, NTESTS - 10, NULL, n);
		bool same = true, same_fewer = true;

		for (size_t i = 0; i < NTESTS; i++)
			same &= before[i] == after[i];
		for (size_t i = 10; i < NTESTS; i++)
			same_fewer &= before[i] == fewer[i - 10];
		ok(same, "N=%d: five new tests move no existing test", n);
		ok(same_fewer, "N=%d: ten removed tests move no remaining test", n);
		free(before);
		free(after);
		free(fewer);
	}
	free_tests(t, NTESTS + 5);
}

/* With every duration known the longest shard is within one test of the mean. */
static void test_balance(void)
{
	struct test *t = make_tests(NTESTS, "b");
	struct durations d;
	double total = 0, longest = 0;

	make_durations(t, NTESTS, true, &d);
	for (size_t i = 0; i < d.n; i++) {
		total += d.v[i].seconds;
		if (d.v[i].seconds > longest)
			longest = d.v[i].seconds;
	}
	for (int n = 2; n <= 7; n++) {
		int *shard = assign(t, NTESTS, &d, n);
		double load[8] = { 0 }, max = 0;

		for (size_t i = 0; i < NTESTS; i++)
			load[shard[i]] += durations_get(&d, t[i].id, 0);
		for (int k = 1; k <= n; k++)
			if (load[k] > max)
				max = load[k];
		if (!ok(max <= total / n + longest,
			"N=%d: the longest shard is within the longest test of the mean", n))
			diag("longest shard %.2f s, mean %.2f s, longest test %.2f s", max,
			     total / n, longest);
		free(shard);
	}
	durations_free(&d);
	free_tests(t, NTESTS);
}

/* Hashing spreads tests evenly enough when nothing is known. */
static void test_spread(void)
{
	struct test *t = make_tests(700, "sp");
	int *shard = assign(t, 700, NULL, 7);
	int count[8] = { 0 };
	bool even = true;

	for (size_t i = 0; i < 700; i++)
		count[shard[i] > 0 ? shard[i] : 0]++;
	for (int k = 1; k <= 7; k++)
		even &= count[k] >= 70 && count[k] <= 130;
	if (!ok(even, "700 tests in 7 shards by hash: each shard has 70 to 130"))
		diag("%d %d %d %d %d %d %d", count[1], count[2], count[3], count[4], count[5],
		     count[6], count[7]);
	free(shard);
	free_tests(t, 700);
}

static bool same_by_id(const struct test *a, const int *sa, const struct test *b, const int *sb,
		       size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (!strcmp(a[i].id, b[j].id) && sa[i] != sb[j])
				return false;
	return true;
}

/* The order tests are given in changes nothing. */
static void test_order(void)
{
	struct test *t = make_tests(NTESTS, "o");
	struct test shuffled[NTESTS], reversed[NTESTS];
	struct durations all, mixed;
	const struct durations *sets[] = { NULL, &all, &mixed };
	const char *names[] = { "no durations", "durations", "some durations" };
	unsigned int seed = 7;

	make_durations(t, NTESTS, true, &all);
	make_durations(t, NTESTS, false, &mixed);
	memcpy(shuffled, t, sizeof(shuffled));
	for (size_t i = NTESTS - 1; i > 0; i--) {
		size_t j = lcg(&seed) % (i + 1);
		struct test x = shuffled[i];

		shuffled[i] = shuffled[j];
		shuffled[j] = x;
	}
	for (size_t i = 0; i < NTESTS; i++)
		reversed[i] = t[NTESTS - 1 - i];
	for (size_t s = 0; s < 3; s++) {
		for (int n = 3; n <= 5; n += 2) {
			int *a = assign(t, NTESTS, sets[s], n);
			int *b = assign(shuffled, NTESTS, sets[s], n);
			int *c = assign(reversed, NTESTS, sets[s], n);

			ok(same_by_id(t, a, shuffled, b, NTESTS) &&
			       same_by_id(t, a, reversed, c, NTESTS),
			   "N=%d, %s: same shards shuffled or reversed", n, names[s]);
			free(a);
			free(b);
			free(c);
		}
	}
	durations_free(&all);
	durations_free(&mixed);
	free_tests(t, NTESTS);
}

static char *write_tmp(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	if (write_file_atomic(path, text, strlen(text)) < 0)
		diag("cannot write %s", path);
	return path;
}

static void test_text_file(const char *dir)
{
	static const char *const bad[] = { "x/t.sh\n",	   "x/t.sh abc\n", "x/t.sh -1\n",
					   "x/t.sh 1 2\n", "x/t.sh nan\n", "x/t.sh inf\n" };
	_cleanup_free_ char *path = write_tmp(dir, "durations.txt",
					      "a/t1.sh 1.5\n# a comment\n\n  b/t2.sh\t2\r\n"
					      "a/t1.sh 2.5\nc/t3.sh 0\n");
	_cleanup_free_ char *missing = xasprintf("%s/nope", dir);
	struct durations d;
	struct uerr e;

	is_int(durations_load(path, &d, &e), 0, "text durations: loaded");
	is_int((long long)d.n, 3, "text durations: three ids (a repeat folded)");
	ok(durations_get(&d, "a/t1.sh", -1) == 2.0, "text durations: a repeated id takes the mean");
	ok(durations_get(&d, "b/t2.sh", -1) == 2.0, "text durations: blanks, tabs, CRLF");
	ok(durations_get(&d, "c/t3.sh", -1) == 0.0, "text durations: zero seconds is known");
	ok(durations_get(&d, "d/t4.sh", -1) == -1, "text durations: unknown gives the fallback");
	ok(durations_get(NULL, "a/t1.sh", 9) == 9, "no durations: the fallback");
	durations_free(&d);

	is_int(durations_load(missing, &d, &e), -1, "missing durations file: fails");
	ok(e.code == EXIT_USAGE && strstr(e.msg, missing), "missing durations file: usage, path");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		_cleanup_free_ char *p = write_tmp(dir, "bad.txt", bad[i]);
		_cleanup_free_ char *where = xasprintf("%s:1:", p);

		ok(durations_load(p, &d, &e) == -1 && e.code == EXIT_USAGE &&
		       strstr(e.msg, where) && d.n == 0,
		   "bad durations line %zu: usage error naming file and line", i);
	}
}

static void fixture_record(struct record *r, const struct test *t, int attempt, double wall,
			   enum verdict v)
{
	memset(r, 0, sizeof(*r));
	r->test = t;
	r->attempt = attempt;
	r->dir = "x";
	r->outcome.wall_seconds = wall;
	r->verdict = v;
	ktap_init(&r->ktap);
}

static void test_results_file(const char *dir)
{
	struct test t[3] = { { .id = "net/t1.sh" }, { .id = "net/t2.sh" }, { .id = "net/t3.sh" } };
	struct run_info ri = { .mode = "inf-cpu" };
	struct record r[4];
	_cleanup_free_ char *run = xasprintf("%s/run", dir);
	_cleanup_free_ char *json = xasprintf("%s/results.json", run);
	_cleanup_free_ char *broken = NULL;
	struct durations d;
	struct uerr e;

	fixture_record(&r[0], &t[0], 1, 2.0, V_PASS);
	fixture_record(&r[1], &t[0], 2, 4.0, V_FAIL);
	fixture_record(&r[2], &t[1], 1, 10.0, V_INTERRUPTED);
	fixture_record(&r[3], &t[2], 1, 1.25, V_PASS);
	/* Each record in a folder of its own, as a run writes them (results_read.h). */
	r[0].dir = "net/t1.1";
	r[1].dir = "net/t1.2";
	r[2].dir = "net/t2";
	r[3].dir = "net/t3";
	mkdir(run, 0755);
	is_int(report_write_json(json, &ri, r, 4, &e), 0, "results.json fixture written");
	is_int(durations_load(json, &d, &e), 0, "durations from a results.json");
	ok(durations_get(&d, "net/t1.sh", -1) == 3.0, "results.json: the mean of the attempts");
	ok(durations_get(&d, "net/t2.sh", -1) == -1, "results.json: interrupted runs left out");
	ok(durations_get(&d, "net/t3.sh", -1) == 1.25, "results.json: wall seconds");
	durations_free(&d);
	is_int(durations_load(run, &d, &e), 0, "durations from a run folder");
	is_int((long long)d.n, 2, "run folder: the same two tests");
	durations_free(&d);
	broken = write_tmp(dir, "broken.json", "{ \"format\": ");
	ok(durations_load(broken, &d, &e) == -1 && e.code == EXIT_USAGE && strstr(e.msg, broken),
	   "a broken results.json: usage error naming it");
}

static void test_cache(const char *dir)
{
	struct test t[3] = { { .id = "a/t1.sh" }, { .id = "a/t2.sh" }, { .id = "a/t3.sh" } };
	_cleanup_free_ char *cache = xasprintf("%s/cache/umlrun/durations", dir);
	struct record r[2];
	struct durations d;
	struct uerr e;

	is_int(durations_cache_load(cache, &d, &e), 0, "no cache yet: not an error");
	is_int((long long)d.n, 0, "no cache yet: empty");
	fixture_record(&r[0], &t[0], 1, 2.0, V_PASS);
	fixture_record(&r[1], &t[1], 1, 4.0, V_FAIL);
	is_int(durations_record(cache, r, 2, &e), 0, "recorded, creating the cache folder");
	fixture_record(&r[0], &t[0], 1, 4.0, V_PASS);
	fixture_record(&r[1], &t[2], 1, 1.0, V_PASS);
	is_int(durations_record(cache, r, 2, &e), 0, "recorded again");
	is_int(durations_cache_load(cache, &d, &e), 0, "cache read back");
	ok(durations_get(&d, "a/t1.sh", -1) == 3.0, "cache: averaged with the old value");
	ok(durations_get(&d, "a/t2.sh", -1) == 4.0, "cache: a test not run again is kept");
	ok(durations_get(&d, "a/t3.sh", -1) == 1.0, "cache: a new test is added");
	durations_free(&d);
	is_int(durations_load(cache, &d, &e), 0, "the cache is also a valid durations file");
	durations_free(&d);
	write_file_atomic(cache, "garbage here\na/t1.sh 5\n", 23);
	is_int(durations_cache_load(cache, &d, &e), 0, "a damaged cache still loads");
	ok(d.n == 1 && durations_get(&d, "a/t1.sh", -1) == 5.0, "a damaged cache: good lines kept");
	durations_free(&d);
}

static void test_queue_order(void)
{
	struct test t[5] = {
		{ .id = "a" }, { .id = "b" }, { .id = "c" }, { .id = "d" }, { .id = "e" }
	};
	struct duration v[] = { { "a", 1, 1 }, { "b", 5, 1 }, { "d", 5, 1 }, { "e", 3, 1 } };
	struct durations d = { v, 4 };
	char got[6] = { 0 };

	durations_order(t, 5, &d);
	for (int i = 0; i < 5; i++)
		got[i] = t[i].id[0];
	is_str(got, "cbdea", "queue: unknown first, then longest, ties as given");
}

int main(void)
{
	char tmpl[] = "/tmp/umlrun-test-shard-XXXXXX";

	plan(106);
	test_parse();
	test_partition();
	test_stability();
	test_balance();
	test_spread();
	test_order();
	if (!mkdtemp(tmpl)) {
		ok(false, "mkdtemp");
		return done_testing();
	}
	test_text_file(tmpl);
	test_results_file(tmpl);
	test_cache(tmpl);
	test_queue_order();
	rm_rf(tmpl);
	return done_testing();
}
