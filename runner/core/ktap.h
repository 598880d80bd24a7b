/* SPDX-License-Identifier: MIT */
/*
 * ktap.h - read the KTAP a test file prints on the result channel.
 *
 * Feed it one line at a time (no newline). Only top-level lines count
 * (nested subtests are indented); directives follow " # ":
 *   ok 3 title # SKIP reason       skipped
 *   not ok 4 title # TODO reason   expected failure (not a failure)
 *   ok 5 title # TODO reason       expected failure that passed
 *   1..0 # SKIP reason             the whole file skipped
 */
#ifndef UMLRUN_KTAP_H
#define UMLRUN_KTAP_H

#include "util.h"

enum ktap_result {
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
	KTAP_XFAIL, /* not ok # TODO */
	KTAP_XPASS, /* ok # TODO */
};

struct ktap_case {
	int number;
	char *title;
	enum ktap_result result;
	char *directive; /* text after the directive word, may be "" */
	char *diag;	 /* a failed case: the "# " lines just before it, or NULL */
};

struct ktap {
	int planned; /* -1: no plan seen */
	bool skip_all;
	char *skip_reason;
	struct ktap_case *cases;
	size_t ncases;
	int counts[KTAP_XPASS + 1];
	bool saw_version;
	int bad_numbers;       /* results out of sequence */
	size_t dropped;	       /* results past KTAP_MAX_CASES: counted, not kept */
	size_t text;	       /* bytes of the kept titles, directives and diagnostics */
	struct strbuf pending; /* the "# " lines since the last result */
};

/*
 * What a test's results may cost umlrun's memory and reports, whatever it
 * prints: the first KTAP_MAX_CASES results are kept (their titles and
 * directives cut at KTAP_TITLE_MAX bytes, and past KTAP_TEXT_MAX bytes of
 * them in all kept without: KTAP_TEXT_DROPPED), later ones only counted.
 */
#define KTAP_MAX_CASES	  100000
#define KTAP_TITLE_MAX	  1024
#define KTAP_TEXT_MAX	  ((size_t)4 << 20)
#define KTAP_TEXT_DROPPED "(title not kept: the file's titles passed 4 MiB)"
/* A failed case's diagnostics kept (the harness's failing body, test_cmp's diff). */
#define KTAP_DIAG_MAX 4096

void ktap_init(struct ktap *k);
void ktap_feed(struct ktap *k, const char *line);
/* Every planned case ran and none failed. */
bool ktap_passed(const struct ktap *k);
/* Every case skipped (or the file skipped as a whole). */
bool ktap_skipped(const struct ktap *k);
const char *ktap_result_name(enum ktap_result r);
void ktap_free(struct ktap *k);

#endif
