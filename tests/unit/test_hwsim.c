// SPDX-License-Identifier: MIT
/* test_hwsim.c - hostap's cases: listed, selected, batched, continued. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwsim.h"
#include "tap.h"

/* A module of n cases, named PREFIX0..PREFIXn-1. */
static void add_module(struct hwsim_list *l, const char *module, const char *prefix, int n)
{
	struct strbuf sb = { 0 };

	for (int i = 0; i < n; i++)
		sb_printf(&sb, "def test_%s%d(dev, apdev):\n    \"\"\"x\"\"\"\n", prefix, i);
	hwsim_list_parse(module, sb.buf, l);
	sb_release(&sb);
}

static void test_parse(void)
{
	struct hwsim_list l = { 0 };

	hwsim_list_parse("ap_open",
			 "import x\n"
			 "def test_ap_open(dev, apdev):\n"
			 "    pass\n"
			 "def helper_test_x(dev):\n"
			 "  def test_nested(dev):\n"
			 "def test_ap_open_2(dev):\n"
			 "def test_bad name(dev):\n"
			 "def test_(dev):\n"
			 "#def test_commented(dev):\n",
			 &l);
	is_int((long long)l.n, 2, "parse: only top-level def test_NAME( lines are cases");
	is_str(l.n > 1 ? l.v[1].name : NULL, "ap_open_2", "parse: the name without test_");
	is_str(l.n ? l.v[0].module : NULL, "ap_open", "parse: the module");
	ok(!l.crypto_alias, "parse: no import of Crypto, no alias");
	hwsim_list_parse("ap_psk",
			 "try:\n"
			 "    from Cryptodome.Cipher import AES\n"
			 "except ImportError:\n"
			 "    from Crypto.Cipher import AES\n",
			 &l);
	ok(!l.crypto_alias, "parse: Crypto only as the fallback of Cryptodome, no alias");
	hwsim_list_parse("ap_wps", "import os\nfrom Crypto.Cipher import AES\n", &l);
	ok(l.crypto_alias, "parse: a module that imports Crypto alone needs the alias");
	hwsim_list_free(&l);
}

static void test_select(void)
{
	struct hwsim_list all = { 0 }, sel;
	struct uerr e;
	char *args[] = { "b1", "a*", "b1" };
	char *mods[] = { "test_b" };
	char *bad[] = { "zz" };
	char *badglob[] = { "zz*" };

	add_module(&all, "a", "a", 3);
	add_module(&all, "b", "b", 2);
	ok(hwsim_select(&all, NULL, 0, NULL, 0, &sel, &e) == 0 && sel.n == 5,
	   "select: nothing named is every case");
	hwsim_list_free(&sel);
	ok(hwsim_select(&all, args, 3, NULL, 0, &sel, &e) == 0 && sel.n == 4 &&
	       !strcmp(sel.v[0].name, "b1") && !strcmp(sel.v[1].name, "a0"),
	   "select: names and prefixes in the order given, each case once");
	hwsim_list_free(&sel);
	ok(hwsim_select(&all, NULL, 0, mods, 1, &sel, &e) == 0 && sel.n == 2,
	   "select: a module (test_ prefix taken off) is its cases");
	hwsim_list_free(&sel);
	ok(hwsim_select(&all, bad, 1, NULL, 0, &sel, &e) < 0 && e.code == EXIT_USAGE &&
	       strstr(e.msg, "'zz'"),
	   "select: an unknown case is a usage error naming it");
	ok(hwsim_select(&all, badglob, 1, NULL, 0, &sel, &e) < 0 && e.code == EXIT_USAGE,
	   "select: a prefix matching nothing is a usage error");
	ok(hwsim_select(&all, NULL, 0, bad, 1, &sel, &e) < 0 && e.code == EXIT_USAGE &&
	       strstr(e.msg, "test_zz.py"),
	   "select: an unknown module is a usage error");
	hwsim_list_free(&all);
}

static void test_batches(void)
{
	struct hwsim_list l = { 0 };
	size_t *starts, n;

	add_module(&l, "big", "big", 101); /* three even parts: 34 34 33 */
	add_module(&l, "s1", "s1_", 5);	   /* joins the last part: 38 */
	add_module(&l, "s2", "s2_", 5);	   /* would pass 40: a batch of its own */
	add_module(&l, "s3", "s3_", 30);   /* joins: 35 */
	hwsim_batches(&l, 40, &starts, &n);
	ok(n == 4 && starts[0] == 0 && starts[1] == 34 && starts[2] == 68 && starts[3] == 106,
	   "batches: a big module in even parts, small ones joining while within the bound");
	ok(hwsim_batch_size(4475, 2) == HWSIM_BATCH_MAX && hwsim_batch_size(95, 2) == 28 &&
	       hwsim_batch_size(40, 1) == 26 && hwsim_batch_size(3, 2) == HWSIM_BATCH_MIN,
	   "batches: start-ups against the run's end, within the bounds");
	free(starts);
	hwsim_list_free(&l);
}

/* The text of what the guest of follow-up t reads, in dir (its staged file), or NULL. */
static char *staged_text(const char *dir, const struct test *t)
{
	const char *name = t && t->staged_id ? strrchr(t->staged_id, '/') : NULL;
	_cleanup_free_ char *path = name ? xasprintf("%s%s", dir, name) : NULL;
	char *text = NULL;

	if (!path || read_file(path, &text, NULL) < 0)
		return NULL;
	return text;
}

/* Whether follow-up t has id SUITE/NAME.sh and is staged as SUITE/NAME.HASH.sh. */
static bool staged_as(const struct test *t, const char *name)
{
	_cleanup_free_ char *id = xasprintf(HWSIM_SUITE "/%s.sh", name);
	_cleanup_free_ char *stem = xasprintf(HWSIM_SUITE "/%s.", name);
	const char *hash;

	if (!t || strcmp(t->id, id) || !t->staged_id || strncmp(t->staged_id, stem, strlen(stem)))
		return false;
	hash = t->staged_id + strlen(stem);
	return strspn(hash, "0123456789abcdef") == HWSIM_STAGED_HASH &&
	       !strcmp(hash + HWSIM_STAGED_HASH, ".sh");
}

static void test_suite_and_follow_up(void)
{
	char tmpl[] = "/tmp/test_hwsim.XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct hwsim_list l = { 0 };
	struct hwsim_layout lay = {
		.radios = 7, .batch = 40, .timeout = 86400, .wall_timeout = 900, .mem = "512M"
	};
	struct uerr e;
	struct ktap k;
	char *text = NULL, *rest_text = NULL, *rest_mine = NULL;
	const struct test *rest, *retried = NULL, **more;
	char *retry_text = NULL;
	struct test t = { 0 };
	_cleanup_free_ char *suite = xasprintf("%s/" HWSIM_SUITE, dir);
	_cleanup_free_ char *copy = xasprintf("%s/copy", dir);
	_cleanup_free_ char *first = xasprintf("%s/t0001-m.sh", suite);
	const char *dirs[2] = { suite, copy };

	add_module(&l, "m", "m", 4);
	ok(hwsim_suite_write(dir, &l, &lay, &e) == 0 && read_file(first, &text, NULL) == 0 &&
	       strstr(text, "hwsim_cases \\\n\tm0 \\\n\tm1") && strstr(text, "HWSIM_RADIOS=7"),
	   "suite: a batch file names its cases for hwsim_cases");
	ok(!strstr(text, "HWSIM_PY_CRYPTO"), "suite: no Crypto alias unless the tree needs it");
	mkdir(copy, 0755);
	t.suite = HWSIM_SUITE;
	t.file = "t0001-m.sh";
	t.id = HWSIM_SUITE "/t0001-m.sh";
	ktap_init(&k);
	ktap_feed(&k, "1..4");
	ktap_feed(&k, "ok 1 m0");
	more = hwsim_follow_up(dirs, &t, V_TIMEOUT, &k, true);
	rest = more ? more[0] : NULL;
	ok(k.ncases == 2 && k.cases[1].result == KTAP_FAIL && !strcmp(k.cases[1].title, "m1"),
	   "follow-up: the case it was stuck in is a failed result");
	rest_text = staged_text(copy, rest);
	rest_mine = staged_text(suite, rest);
	ok(staged_as(rest, "t0001-m-after-m1") && !strcmp(rest->file, "t0001-m-after-m1.sh") &&
	       rest_text && !strstr(rest_text, "\tm1") && strstr(rest_text, "\tm2 \\\n\tm3\n") &&
	       rest_mine && !strcmp(rest_text, rest_mine),
	   "follow-up: the cases after it in a file of their own, in both folders");
	ktap_free(&k);
	ktap_init(&k);
	ktap_feed(&k, "ok 1 m0");
	ktap_feed(&k, "ok 2 m1");
	ktap_feed(&k, "ok 3 m2");
	free(more);
	more = hwsim_follow_up(dirs, &t, V_TIMEOUT, &k, true);
	ok(more && !more[0] && k.ncases == 4,
	   "follow-up: stuck in the last case, nothing is left to run");
	free(more);
	ktap_free(&k);
	ktap_init(&k);
	ktap_feed(&k, "1..4");
	ktap_feed(&k, "ok 1 m0");
	ktap_feed(&k, "not ok 2 m1");
	ktap_feed(&k, "ok 3 m2");
	ktap_feed(&k, "not ok 4 m3");
	more = hwsim_follow_up(dirs, &t, V_FAIL, &k, true);
	retried = more ? more[0] : NULL;
	retry_text = staged_text(copy, retried);
	ok(retried && !more[1] && staged_as(retried, "t0001-m-retry") &&
	       !strcmp(retried->file, "t0001-m-retry.sh") && retry_text &&
	       strstr(retry_text, "hwsim_cases \\\n\tm1 \\\n\tm3\n"),
	   "follow-up: the failed cases again, alone, in a retry file");
	free(more);
	{
		/* run-tests.py stopped in m1 (the guest failed it): m2 and m3 go on. */
		_cleanup_free_ char *cut_text = NULL;
		const struct test **cut;
		struct ktap k3;

		ktap_init(&k3);
		ktap_feed(&k3, "1..4");
		ktap_feed(&k3, "ok 1 m0");
		ktap_feed(&k3, "not ok 2 m1");
		cut = hwsim_follow_up(dirs, &t, V_FAIL, &k3, false);
		cut_text = cut && cut[0] ? staged_text(copy, cut[0]) : NULL;
		ok(cut && cut[0] && !cut[1] && staged_as(cut[0], "t0001-m-after-m1") && cut_text &&
		       strstr(cut_text, "hwsim_cases \\\n\tm2 \\\n\tm3\n") && k3.ncases == 2,
		   "follow-up: ended part way, no limit hit: the cases left in a file of their "
		   "own");
		free(cut);
		ktap_free(&k3);
		ktap_init(&k3);
		ktap_feed(&k3, "1..4");
		cut = hwsim_follow_up(dirs, &t, V_FAIL, &k3, false);
		ok(cut && !cut[0],
		   "follow-up: no case reported (a guest that cannot set up): none, "
		   "which would fail the same way for ever");
		free(cut);
		ktap_free(&k3);
	}
	{
		/*
		 * --seeds, --repeat: another run of the batch failed m0 and m2.
		 * Its retry has the same id, staged in a file of its own: the
		 * first run's keeps its cases, whichever retry boots first.
		 */
		_cleanup_free_ char *other_text = NULL, *first_text = NULL, *after_text = NULL;
		const struct test *other, *again, *after;
		struct ktap k2;

		ktap_init(&k2);
		ktap_feed(&k2, "not ok 1 m0");
		ktap_feed(&k2, "ok 2 m1");
		ktap_feed(&k2, "not ok 3 m2");
		ktap_feed(&k2, "ok 4 m3");
		more = hwsim_follow_up(dirs, &t, V_FAIL, &k2, true);
		other = more ? more[0] : NULL;
		free(more);
		ktap_free(&k2);
		other_text = staged_text(copy, other);
		first_text = staged_text(copy, retried);
		ok(staged_as(other, "t0001-m-retry") && retried &&
		       strcmp(other->staged_id, retried->staged_id),
		   "follow-up: another run's retry has the same id, staged under a name of its "
		   "own");
		ok(other_text && strstr(other_text, "hwsim_cases \\\n\tm0 \\\n\tm2\n") &&
		       first_text && strstr(first_text, "hwsim_cases \\\n\tm1 \\\n\tm3\n"),
		   "follow-up: each run's retry file holds its own run's cases");
		/* The same failures (a replay of the first run): the same name. */
		ktap_init(&k2);
		ktap_feed(&k2, "ok 1 m0");
		ktap_feed(&k2, "not ok 2 m1");
		ktap_feed(&k2, "ok 3 m2");
		ktap_feed(&k2, "not ok 4 m3");
		more = hwsim_follow_up(dirs, &t, V_FAIL, &k2, true);
		again = more ? more[0] : NULL;
		free(more);
		ktap_free(&k2);
		ok(again && retried && !strcmp(again->staged_id, retried->staged_id),
		   "follow-up: the same cases are staged under the same name, whichever run");
		/* The other run's retry, stuck in its first case: the rest of its own cases. */
		ktap_init(&k2);
		more = other ? hwsim_follow_up(dirs, other, V_TIMEOUT, &k2, true) : NULL;
		after = more ? more[0] : NULL;
		after_text = staged_text(copy, after);
		ok(k2.ncases == 1 && !strcmp(k2.cases[0].title, "m0") &&
		       staged_as(after, "t0001-m-retry-after-m0") && after_text &&
		       strstr(after_text, "hwsim_cases \\\n\tm2\n"),
		   "follow-up: what follows a run's retry is read from that run's file");
		free(more);
		ktap_free(&k2);
	}
	{
		struct record rec[2] = { 0 };
		struct test rt = t;

		rt.file = "t0001-m-retry.sh";
		rec[0] = (struct record){ .test = &t, .ktap = k, .verdict = V_FAIL };
		ktap_init(&rec[1].ktap);
		rec[1].test = &rt;
		ktap_feed(&rec[1].ktap, "ok 1 m1");
		ktap_feed(&rec[1].ktap, "ok 2 m3");
		hwsim_flaky(rec, 2);
		ok(rec[0].verdict == V_FLAKY && rec[0].reason && strstr(rec[0].reason, "m1, m3"),
		   "flaky: a batch whose failed cases passed alone is flaky, naming them");
		free(rec[0].reason);
		ktap_free(&rec[1].ktap);
	}
	{
		/*
		 * --seeds=1-2: the batch failed m1 under both seeds; m1 passed
		 * in seed 1's retry, failed in seed 2's. Only seed 1's is flaky.
		 */
		struct record rec[4] = { 0 };
		struct test rt = t;

		rt.file = "t0001-m-retry.sh";
		for (int i = 0; i < 4; i++) {
			rec[i] = (struct record){ .test = i < 2 ? &t : &rt,
						  .attempt = 1 + i % 2,
						  .seeded = true,
						  .seed = 1 + i % 2,
						  .verdict = i == 2 ? V_PASS : V_FAIL };
			ktap_init(&rec[i].ktap);
			ktap_feed(&rec[i].ktap, i == 2 ? "ok 1 m1" : "not ok 1 m1");
		}
		hwsim_flaky(rec, 4);
		ok(rec[0].verdict == V_FLAKY && rec[1].verdict == V_FAIL && !rec[1].reason,
		   "flaky: --seeds, a batch is flaky by its own seed's retry, not another's");
		free(rec[0].reason);
		for (int i = 0; i < 4; i++)
			ktap_free(&rec[i].ktap);
	}
	ktap_free(&k);
	free(text);
	free(rest_text);
	free(rest_mine);
	free(retry_text);
	hwsim_list_free(&l);
	rm_rf(dir);
}

/* A tree whose cases import Crypto: each batch says so before the harness. */
static void test_suite_crypto_alias(void)
{
	char tmpl[] = "/tmp/test_hwsim.XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct hwsim_list l = { 0 };
	struct hwsim_layout lay = { .radios = 7,
				    .batch = 40,
				    .timeout = 86400,
				    .wall_timeout = 900,
				    .mem = "512M",
				    .crypto_alias = true };
	_cleanup_free_ char *first = xasprintf("%s/" HWSIM_SUITE "/t0001-m.sh", dir);
	_cleanup_free_ char *text = NULL;
	const char *alias, *harness;
	struct uerr e;

	add_module(&l, "m", "m", 2);
	ok(hwsim_suite_write(dir, &l, &lay, &e) == 0 && read_file(first, &text, NULL) == 0,
	   "suite: written with the Crypto alias");
	alias = text ? strstr(text, "\nHWSIM_PY_CRYPTO=alias\n") : NULL;
	harness = text ? strstr(text, ". ../lib/hwsim.sh") : NULL;
	ok(alias && harness && alias < harness,
	   "suite: the alias is set before the harness reads it");
	hwsim_list_free(&l);
	rm_rf(dir);
}

static void test_start(void)
{
	struct uerr e;
	int64_t secs;

	ok(hwsim_start_of("/nonexistent", &secs, &e) < 0 && e.code == EXIT_USAGE,
	   "start: a tree without certificates is a usage error");
}

int main(void)
{
	plan(31);
	test_parse();
	test_select();
	test_batches();
	test_suite_and_follow_up();
	test_suite_crypto_alias();
	test_start();
	return done_testing();
}
