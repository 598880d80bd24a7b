// SPDX-License-Identifier: MIT
/*
 * fuzz_results.c - the results.json reader (runner/results/results_read.c), which
 * `umlrun merge` and --durations feed with files from other machines.
 *
 * Feeds: the input as the whole text of a results.json (results_parse, the
 * part of results_load_file after the file is read).
 *
 * Asserts, beyond not crashing or leaking:
 *   - a failure is a usage error (exit 2) naming the file, and leaves the
 *     loaded run empty;
 *   - a success gives records that each point at their own test, with a
 *     non-empty id, an attempt >= 1, enums in range, subtest counts that
 *     add up, and no line break in anything that goes into a KTAP line;
 *   - what was read can be written back: report_write_json's file reads
 *     back (the same tests, results and subtests), and writing that again
 *     gives the same bytes.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);


static char *first_json, *second_json;

static void remove_tmp(void)
{
	unlink(first_json);
	unlink(second_json);
	*strrchr(first_json, '/') = '\0';
	rmdir(first_json);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir = xasprintf("%s/fuzz_results.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");

	(void)argc;
	(void)argv;
	expect(mkdtemp(dir));
	first_json = xasprintf("%s/first.json", dir);
	second_json = xasprintf("%s/second.json", dir);
	free(dir);
	atexit(remove_tmp);
	return 0;
}

static bool one_line(const char *s)
{
	return !s || !strchr(s, '\n');
}

static void check_loaded(const struct loaded_run *lr)
{
	for (size_t i = 0; i < lr->n; i++) {
		const struct record *r = &lr->rec[i];
		const struct ktap *k = &r->ktap;
		int sum = 0;

		expect(r->test == &lr->tests[i]);
		expect(r->test->id && r->test->id[0] && r->test->suite && r->test->file);
		expect(one_line(r->test->id) && one_line(r->reason));
		expect(r->dir && r->attempt >= 1 && r->failed_attempts >= 0);
		expect(r->verdict >= V_PASS && r->verdict <= V_INTERRUPTED);
		expect(r->outcome.end >= GUEST_REPORTED && r->outcome.end <= GUEST_INIT_ERROR);
		expect(!r->reason || r->reason[0]);
		for (int v = KTAP_PASS; v <= KTAP_XPASS; v++) {
			expect(k->counts[v] >= 0);
			sum += k->counts[v];
		}
		expect((size_t)sum == k->ncases);
		expect(k->skip_all ? k->planned == 0 : (size_t)k->planned == k->ncases);
		for (size_t j = 0; j < k->ncases; j++) {
			const struct ktap_case *c = &k->cases[j];

			expect(c->number >= 0 && c->title && c->directive);
			expect(c->result >= KTAP_PASS && c->result <= KTAP_XPASS);
			expect(one_line(c->title) && one_line(c->directive));
		}
	}
}

/* What report_write_json keeps of a: b is a read back from its file. */
static void check_same(const struct loaded_run *a, const struct loaded_run *b)
{
	expect(a->n == b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct record *x = &a->rec[i], *y = &b->rec[i];

		expect(x->attempt == y->attempt && x->verdict == y->verdict);
		expect(x->outcome.end == y->outcome.end &&
		       x->outcome.job_exit == y->outcome.job_exit);
		expect(x->failed_attempts == y->failed_attempts);
		expect(x->ktap.ncases == y->ktap.ncases && x->ktap.skip_all == y->ktap.skip_all);
		for (size_t j = 0; j < x->ktap.ncases; j++)
			expect(x->ktap.cases[j].number == y->ktap.cases[j].number &&
			       x->ktap.cases[j].result == y->ktap.cases[j].result);
	}
}

static char *write_and_read(const struct loaded_run *lr, const char *path)
{
	struct uerr e = { 0 };
	char *text = NULL;

	if (report_write_json(path, &lr->info, lr->rec, lr->n, &e) < 0)
		fprintf(stderr, "report_write_json: %s\n", e.msg);
	expect(read_file(path, &text, NULL) == 0);
	return text;
}

static void check_round_trip(const struct loaded_run *a)
{
	_cleanup_free_ char *first = write_and_read(a, first_json);
	_cleanup_free_ char *second = NULL;
	struct loaded_run b;
	struct uerr e = { 0 };

	if (results_load_file(first_json, &b, &e) < 0)
		fprintf(stderr, "written back, it does not read: %s\n", e.msg);
	expect(e.msg[0] == '\0');
	check_loaded(&b);
	check_same(a, &b);
	second = write_and_read(&b, second_json);
	expect(!strcmp(first, second));
	results_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loaded_run lr;
	struct uerr e = { 0 };

	if (results_parse((const char *)data, size, "fuzz.json", &lr, &e) < 0) {
		expect(e.code == EXIT_USAGE && !strncmp(e.msg, "fuzz.json: ", 11));
		expect(lr.n == 0 && !lr.rec && !lr.tests);
		return 0;
	}
	check_loaded(&lr);
	check_round_trip(&lr);
	results_free(&lr);
	return 0;
}
