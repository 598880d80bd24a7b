// SPDX-License-Identifier: MIT
/* ktap.c - a small KTAP reader for the guest's result lines. */
#define _GNU_SOURCE
#include "ktap.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

void ktap_init(struct ktap *k)
{
	memset(k, 0, sizeof(*k));
	k->planned = -1;
}

/* Splits "title # DIRECTIVE rest" in place; returns the directive word. */
static char *split_directive(char *s, char **rest)
{
	char *cut, *word;

	*rest = NULL;
	/* An empty title leaves the directive at the very start: "# SKIP x". */
	if (!strncmp(s, "# ", 2)) {
		cut = s;
		word = s + 2;
	} else {
		cut = strstr(s, " # ");
		if (!cut)
			return NULL;
		word = cut + 3;
	}
	if (strncasecmp(word, "SKIP", 4) && strncasecmp(word, "TODO", 4))
		return NULL;
	if (word[4] && word[4] != ' ')
		return NULL;
	*cut = '\0';
	*rest = word[4] ? word + 5 : word + 4;
	return word;
}

/*
 * The number at s as strtol reads it, clamped to 0..INT_MAX: a number out
 * of that range ("ok -1", "ok 4294967297") can only be out of sequence,
 * never wrap around to one in sequence. -1 when s holds no number.
 */
static int read_number(const char *s, char **end)
{
	long n;

	errno = 0;
	n = strtol(s, end, 10);
	if (*end == s)
		return -1;
	if (n < 0)
		return 0;
	return errno || n > INT_MAX ? INT_MAX : (int)n;
}

static void feed_result(struct ktap *k, const char *line, bool ok)
{
	_cleanup_free_ char *copy = xstrdup(line);
	char *p = copy, *end, *dir, *rest;
	struct ktap_case c = { 0 };
	int n = read_number(p, &end);

	if (n < 0)
		return;
	p = end;
	while (*p == ' ')
		p++;
	if (*p == '-' && p[1] == ' ') /* TAP's "ok 1 - title" */
		p += 2;
	dir = split_directive(p, &rest);
	c.number = n;
	c.title = strlen(p) > KTAP_TITLE_MAX ? xasprintf("%.*s...", KTAP_TITLE_MAX, p) : xstrdup(p);
	c.directive = xstrndup(rest ? rest : "", KTAP_TITLE_MAX);
	if (dir && !strncasecmp(dir, "SKIP", 4))
		c.result = KTAP_SKIP;
	else if (dir)
		c.result = ok ? KTAP_XPASS : KTAP_XFAIL;
	else
		c.result = ok ? KTAP_PASS : KTAP_FAIL;
	if ((size_t)c.number != k->ncases + k->dropped + 1)
		k->bad_numbers++;
	k->counts[c.result]++;
	if (k->ncases >= KTAP_MAX_CASES) {
		k->dropped++;
		free(c.title);
		free(c.directive);
		return;
	}
	/* The result stays; past the budget its words do not. */
	if (k->text + strlen(c.title) + strlen(c.directive) > KTAP_TEXT_MAX) {
		free(c.title);
		free(c.directive);
		c.title = xstrdup(KTAP_TEXT_DROPPED);
		c.directive = xstrdup("");
	} else {
		k->text += strlen(c.title) + strlen(c.directive);
		/* What the test said of a failure just before it (junit.xml shows it). */
		if (c.result == KTAP_FAIL && k->pending.len &&
		    k->text + k->pending.len <= KTAP_TEXT_MAX) {
			c.diag = xstrdup(k->pending.buf);
			k->text += k->pending.len;
		}
	}
	k->cases = xrealloc(k->cases, (k->ncases + 1) * sizeof(*k->cases));
	k->cases[k->ncases++] = c;
}

void ktap_feed(struct ktap *k, const char *line)
{
	/*
	 * Diagnostics gather until a result takes them (or a plan drops
	 * them): the last KTAP_DIAG_MAX bytes, whole lines, where a failing
	 * body's diff ends.
	 */
	if (line[0] == '#') {
		size_t n = strnlen(line, KTAP_DIAG_MAX - 1);

		sb_add(&k->pending, line, n);
		sb_adds(&k->pending, "\n");
		if (k->pending.len > KTAP_DIAG_MAX) {
			const char *keep = k->pending.buf + k->pending.len - KTAP_DIAG_MAX;
			const char *nl = memchr(keep, '\n', KTAP_DIAG_MAX);

			keep = nl ? nl + 1 : keep;
			k->pending.len -= (size_t)(keep - k->pending.buf);
			memmove(k->pending.buf, keep, k->pending.len + 1);
		}
		return;
	}
	if (!strncmp(line, "KTAP version ", 13) || !strncmp(line, "TAP version ", 12)) {
		k->saw_version = true;
	} else if (!strncmp(line, "ok ", 3)) {
		feed_result(k, line + 3, true);
	} else if (!strncmp(line, "not ok ", 7)) {
		feed_result(k, line + 7, false);
	} else if (!strncmp(line, "1..", 3) && isdigit((unsigned char)line[3])) {
		_cleanup_free_ char *copy = xstrdup(line);
		char *end, *rest;

		/* A later plan replaces an earlier one, its "# SKIP" too. */
		k->planned = read_number(copy + 3, &end);
		k->skip_all = k->planned == 0 && split_directive(copy + 3, &rest);
		free(k->skip_reason);
		k->skip_reason = k->skip_all ? xstrdup(rest) : NULL;
	} else {
		return;
	}
	k->pending.len = 0;
	if (k->pending.buf)
		k->pending.buf[0] = '\0';
}

bool ktap_passed(const struct ktap *k)
{
	if (k->counts[KTAP_FAIL] || k->bad_numbers)
		return false;
	if (k->skip_all)
		return true;
	return k->planned > 0 && (size_t)k->planned == k->ncases + k->dropped;
}

bool ktap_skipped(const struct ktap *k)
{
	return k->skip_all || (k->ncases && (size_t)k->counts[KTAP_SKIP] == k->ncases + k->dropped);
}

const char *ktap_result_name(enum ktap_result r)
{
	static const char *const names[] = { "pass", "fail", "skip", "xfail", "xpass" };

	return names[r];
}

void ktap_free(struct ktap *k)
{
	for (size_t i = 0; i < k->ncases; i++) {
		free(k->cases[i].title);
		free(k->cases[i].directive);
		free(k->cases[i].diag);
	}
	free(k->cases);
	free(k->skip_reason);
	sb_release(&k->pending);
	ktap_init(k);
}
