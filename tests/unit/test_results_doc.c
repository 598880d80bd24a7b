// SPDX-License-Identifier: MIT
/*
 * test_results_doc.c - docs/results.md and the results.json writer name the
 * same fields.
 *
 * A record with every optional field set goes through report_write_json;
 * the keys of what it wrote ("tests[].subtests[].n" for nested ones) must
 * be exactly the first column of the doc's field table, and the doc's
 * format string the one written (and read back by results_load). Run from
 * the project's top folder, as `make unit-check` does.
 */
#define _GNU_SOURCE
#include "report.h"
#include "results_read.h"

#include <json-c/json.h>
#include <stdio.h>

#include "tap.h"

#define DOC "docs/results.md"

struct keys {
	char **v;
	size_t n;
};

static void keys_add(struct keys *k, const char *key)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i], key))
			return;
	k->v = xrealloc(k->v, (k->n + 1) * sizeof(char *));
	k->v[k->n++] = xstrdup(key);
}

static bool keys_has(const struct keys *k, const char *key)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i], key))
			return true;
	return false;
}

static void keys_free(struct keys *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i]);
	free(k->v);
}

/* Every key under o, as a path: "tests[].id"; array elements share "[]". */
static void walk(json_object *o, const char *prefix, struct keys *k)
{
	if (json_object_is_type(o, json_type_array)) {
		_cleanup_free_ char *p = xasprintf("%s[]", prefix);

		for (size_t i = 0; i < json_object_array_length(o); i++)
			walk(json_object_array_get_idx(o, i), p, k);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val)
	{
		_cleanup_free_ char *p = *prefix ? xasprintf("%s.%s", prefix, key) : xstrdup(key);

		keys_add(k, p);
		walk(val, p, k);
	}
}

/* The doc's table rows: "| `KEY` | ...", the first cell's backquoted text. */
static void doc_keys(const char *text, struct keys *k, char **format)
{
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, "| `", 3)) {
			const char *end = memchr(p + 3, '`', (size_t)(nl - p - 3));

			if (end) {
				_cleanup_free_ char *key = xstrndup(p + 3, (size_t)(end - p - 3));
				const char *q = strstr(end, "`\"umlrun-results-");

				keys_add(k, key);
				if (!strcmp(key, "format") && q && q < nl)
					*format = xstrndup(q + 2, strcspn(q + 2, "\""));
			}
		}
		p = *nl ? nl + 1 : nl;
	}
}

/* A run with every optional field of the writer set. */
static int write_full(const char *path, struct uerr *e)
{
	static struct test t = { .suite = "s", .file = "t0001-a.sh", .id = "s/t0001-a.sh" };
	char *overlays[] = { "/ov", NULL };
	char *not_run[] = { "s/t0002-b.sh", NULL };
	struct run_info ri = {
		.mode = "inf-cpu",
		.has_start = true,
		.start = 1704067200,
		.kernel = "/k/linux",
		.kernel_key = "abc",
		.cmdline_example = "linux mem=256M",
		.shard = "1/2",
		.overlays = overlays,
		.noverlays = 1,
		.seed = 7,
		.random_seed = 3,
		.confinement = "landlock-v7+mount-ns",
		.kernel_release = "6.1.192",
		.userspace = "ptrace",
		.host_cpu = "AMD EPYC, 2 CPUs",
		.cpu_cost = "2000,jitter=50",
		.selection = "2:0123abcd",
		.wall_seconds = 1.5,
		.exit_code = 0,
		.not_run = not_run,
		.nnot_run = 1,
	};
	struct record r = {
		.test = &t,
		.attempt = 1,
		.seeded = true,
		.seed = 5,
		.dir = "s/t0001-a.sh",
		.outcome = { .end = GUEST_REPORTED,
			     .cost = { 30, 2930, 0.4, 0.7, 7216, 23906 },
			     .stall_breaks = 2 },
		.verdict = V_FLAKY,
		.reason = "flaky: passed on retry 1",
		.lost = "artifacts/big.pcap",
		.failed_attempts = 1,
	};
	int rc;

	ktap_init(&r.ktap);
	ktap_feed(&r.ktap, "1..2");
	ktap_feed(&r.ktap, "ok 1 a # SKIP no iw");
	ktap_feed(&r.ktap, "# test_cmp: expect and actual differ");
	ktap_feed(&r.ktap, "not ok 2 b");
	rc = report_write_json(path, &ri, &r, 1, e);
	ktap_free(&r.ktap);
	return rc;
}

int main(void)
{
	char dir[] = "/tmp/umlrun-test-results-doc.XXXXXX";
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char *doc = NULL;
	_cleanup_free_ char *doc_format = NULL;
	struct keys written = { 0 }, documented = { 0 };
	struct loaded_run lr;
	struct uerr e;
	json_object *root;
	bool same = true;

	plan(5);
	if (!mkdtemp(dir) || read_file(DOC, &doc, NULL) < 0) {
		ok(false, "a temporary folder and " DOC);
		return done_testing();
	}
	path = xasprintf("%s/results.json", dir);
	is_int(write_full(path, &e), 0, "results.json with every optional field written");
	root = json_object_from_file(path);
	ok(root != NULL, "it is JSON");
	if (root)
		walk(root, "", &written);
	doc_keys(doc, &documented, &doc_format);
	for (size_t i = 0; i < written.n; i++)
		if (!keys_has(&documented, written.v[i])) {
			diag("written but not in " DOC ": %s", written.v[i]);
			same = false;
		}
	for (size_t i = 0; i < documented.n; i++)
		if (!keys_has(&written, documented.v[i])) {
			diag("in " DOC " but never written: %s", documented.v[i]);
			same = false;
		}
	ok(same && written.n > 0, DOC " lists exactly the fields the writer writes (%zu)",
	   written.n);
	is_str(doc_format,
	       root ? json_object_get_string(json_object_object_get(root, "format")) : "",
	       DOC " names the format the writer writes");
	ok(results_load(dir, &lr, &e) == 0, "the reader accepts that format");
	results_free(&lr); /* safe after a failure too */
	json_object_put(root);
	keys_free(&written);
	keys_free(&documented);
	rm_rf(dir);
	return done_testing();
}
