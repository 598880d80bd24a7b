// SPDX-License-Identifier: MIT
/*
 * fuzz_ktap.c - the KTAP reader (runner/core/ktap.c) on arbitrary guest output.
 *
 * Feeds: the input split at '\n', one ktap_feed per line, as supervise.c
 * reads the result channel (a NUL inside a line ends that line early).
 *
 * Asserts, beyond not crashing:
 *   - the counts are never negative and add up to the number of cases;
 *     bad_numbers is between 0 and the number of cases;
 *   - the plan is -1 (none) or a count, never negative; a skip of the
 *     whole file comes with a plan of 0 and a reason;
 *   - every case has a number >= 0, a result in range, and a title and a
 *     directive with no newline;
 *   - ktap_passed never holds with a failure or a case out of sequence,
 *     ktap_skipped never with a case that ran (unless the file skipped);
 *   - every case round-trips: written back as "ok N - title # SKIP dir"
 *     (as merge.c and the reports write it) and read again, it comes back
 *     with the same number, result, title and directive.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"



static void check_round_trip(const struct ktap_case *c)
{
	bool passed = c->result != KTAP_FAIL && c->result != KTAP_XFAIL;
	const char *word = c->result == KTAP_SKIP				? "SKIP"
			   : c->result == KTAP_XFAIL || c->result == KTAP_XPASS ? "TODO"
										: NULL;
	_cleanup_free_ char *line = xasprintf(
	    "%sok %d - %s%s%s%s%s", passed ? "" : "not ", c->number, c->title, word ? " # " : "",
	    word ? word : "", word && c->directive[0] ? " " : "", word ? c->directive : "");
	struct ktap k;

	ktap_init(&k);
	ktap_feed(&k, line);
	if (k.ncases != 1)
		fprintf(stderr, "round trip: '%s' read back as %zu cases\n", line, k.ncases);
	expect(k.ncases == 1);
	expect(k.cases[0].number == c->number && k.cases[0].result == c->result);
	expect(!strcmp(k.cases[0].title, c->title) && !strcmp(k.cases[0].directive, c->directive));
	ktap_free(&k);
}

static void check(const struct ktap *k)
{
	int sum = 0;

	for (int r = KTAP_PASS; r <= KTAP_XPASS; r++) {
		expect(k->counts[r] >= 0);
		sum += k->counts[r];
	}
	expect((size_t)sum == k->ncases);
	expect(k->bad_numbers >= 0 && (size_t)k->bad_numbers <= k->ncases);
	expect(k->planned >= -1);
	expect(!k->skip_all || (k->planned == 0 && k->skip_reason));
	for (size_t i = 0; i < k->ncases; i++) {
		const struct ktap_case *c = &k->cases[i];

		expect(c->number >= 0 && c->result >= KTAP_PASS && c->result <= KTAP_XPASS);
		expect(c->title && !strchr(c->title, '\n'));
		expect(c->directive && !strchr(c->directive, '\n'));
		check_round_trip(c);
	}
	expect(!ktap_passed(k) || (!k->counts[KTAP_FAIL] && !k->bad_numbers));
	expect(!ktap_skipped(k) || k->skip_all || (size_t)k->counts[KTAP_SKIP] == k->ncases);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_free_ char *text = xmalloc(size + 1);
	struct ktap k;
	char *line, *nl;

	memcpy(text, data, size);
	text[size] = '\0';
	ktap_init(&k);
	for (line = text; line < text + size; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(text + size - line));
		if (!nl)
			nl = text + size;
		*nl = '\0';
		ktap_feed(&k, line);
	}
	check(&k);
	ktap_free(&k);
	return 0;
}
