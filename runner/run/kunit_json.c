// SPDX-License-Identifier: MIT
/* kunit_json.c - kunit.py's reading of KUnit's KTAP, its counts and its JSON. */
#define _GNU_SOURCE
#include "kunit_json.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

/* Python's str.rstrip(): the line without its trailing blanks. */
static size_t rstripped_len(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* KTAP_START/TAP_START.search: "KTAP version N" ends the line; where it starts. */
static const char *version_line(const char *line, const char *word)
{
	const char *at = strstr(line, word);
	const char *p;

	if (!at)
		return NULL;
	p = at + strlen(word);
	if (!isdigit((unsigned char)*p))
		return NULL;
	p += strspn(p, "0123456789");
	return *p ? NULL : at;
}

char **kunit_tap_lines(const char *console, size_t len, size_t *n)
{
	static const char *const end[] = { "List of all partitions:",
					   "Kernel panic - not syncing: VFS:",
					   "reboot: System halted" };
	char **v = xcalloc(1, sizeof(char *));
	size_t prefix = 0;
	bool started = false;

	*n = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(console + at, '\n', len - at);
		size_t ll = nl ? (size_t)(nl - (console + at)) : len - at;
		_cleanup_free_ char *line = xstrndup(console + at, rstripped_len(console + at, ll));
		const char *keep = NULL;
		const char *ver;

		at += ll + 1;
		if (!started && ((ver = version_line(line, "KTAP version ")) ||
				 (ver = version_line(line, "TAP version ")))) {
			/* The prefix is up to the first "KTAP version" (or "TAP version"). */
			const char *first =
			    strstr(line, strncmp(ver, "KTAP", 4) ? "TAP version" : "KTAP version");

			prefix = (size_t)(first - line);
			started = true;
			keep = first;
		} else if (started) {
			bool stop = false;

			for (size_t i = 0; i < sizeof(end) / sizeof(end[0]); i++)
				stop |= strstr(line, end[i]) != NULL;
			if (stop)
				break;
			keep = strlen(line) > prefix ? line + prefix : "";
		} else if (strstr(line, "kunit executor: ")) {
			keep = line;
		}
		if (!keep)
			continue;
		v = xrealloc(v, (*n + 2) * sizeof(char *));
		v[(*n)++] = xstrdup(keep);
		v[*n] = NULL;
	}
	return v;
}

/* The lines still to read: kunit_parser's LineStream. */
struct stream {
	char **v;
	size_t n, at;
};

static const char *peek(const struct stream *s)
{
	return s->at < s->n ? s->v[s->at] : "";
}

static bool more(const struct stream *s)
{
	return s->at < s->n;
}

static bool is_version(const char *line, int *tap)
{
	const char *p = skip_space(line);
	const char *word = !strncmp(p, "KTAP version ", 13)  ? "KTAP version "
			   : !strncmp(p, "TAP version ", 12) ? "TAP version "
							     : NULL;

	if (!word)
		return false;
	p += strlen(word);
	if (!isdigit((unsigned char)*p) || p[strspn(p, "0123456789")])
		return false;
	if (tap)
		*tap = word[0] == 'T';
	return true;
}

static bool is_header(const char *line)
{
	return !strncmp(skip_space(line), "# Subtest: ", 11);
}

static bool is_plan(const char *line, int *count)
{
	const char *p = skip_space(line);

	if (strncmp(p, "1..", 3) || !isdigit((unsigned char)p[3]))
		return false;
	if (count) {
		long v = strtol(p + 3, NULL, 10);

		*count = v > INT_MAX ? INT_MAX : (int)v;
	}
	return true;
}

/*
 * The head of a result line, "(ok|not ok) N ", and the "- " or ":- " after
 * it: where the name starts, or NULL for no result line. ok and num may be
 * NULL.
 */
static const char *result_head(const char *line, bool *ok, long *num)
{
	const char *p = skip_space(line);
	bool passed;

	if (!strncmp(p, "ok ", 3)) {
		passed = true;
		p += 3;
	} else if (!strncmp(p, "not ok ", 7)) {
		passed = false;
		p += 7;
	} else {
		return NULL;
	}
	if (!isdigit((unsigned char)*p))
		return NULL;
	if (ok)
		*ok = passed;
	if (num)
		*num = strtol(p, NULL, 10);
	p += strspn(p, "0123456789");
	if (*p == ' ')
		p++;
	if (!strncmp(p, "- ", 2))
		p += 2;
	else if (!strncmp(p, ":- ", 3))
		p += 3;
	return p;
}

/*
 * TEST_RESULT: "(ok|not ok) N [- ]NAME[ # DIRECTIVE]", NAME free of '#'.
 * *name gets NAME (maybe empty), *rest what follows the number.
 */
static bool is_result(const char *line, bool *ok, long *num, char **name)
{
	const char *n0 = result_head(line, ok, num);
	const char *hash;

	if (!n0)
		return false;
	hash = strchr(n0, '#');
	if (hash && (hash == n0 || hash[-1] != ' ' || hash[1] != ' '))
		return false;
	if (name)
		*name = xstrndup(n0, hash ? (size_t)(hash - 1 - n0) : strlen(n0));
	return true;
}

/* TEST_RESULT_SKIP: the name up to the last " # SKIP", and the reason after it. */
static bool is_skip(const char *line, char **name, char **reason)
{
	const char *p = result_head(line, NULL, NULL);
	const char *last = NULL;

	if (!p)
		return false;
	for (const char *q = p; (q = strstr(q, " # SKIP")); q++)
		last = q;
	if (!last)
		return false;
	*name = xstrndup(p, (size_t)(last - p));
	last += 7;
	if (*last == ' ')
		last++;
	*reason = xstrdup(last);
	return true;
}

/* parse_diagnostic: skip what is none of the five kinds of line. */
static void skip_diagnostic(struct stream *s)
{
	bool ok;
	long num;

	while (more(s) && !is_result(peek(s), &ok, &num, NULL) && !is_header(peek(s)) &&
	       !is_version(peek(s), NULL) && !is_plan(peek(s), NULL))
		s->at++;
}

static long total(const struct kunit_counts *c)
{
	return c->passed + c->failed + c->crashed + c->skipped;
}

static enum kunit_status counts_status(const struct kunit_counts *c)
{
	if (!total(c))
		return KUNIT_NO_TESTS;
	if (c->crashed)
		return KUNIT_CRASHED;
	if (c->failed)
		return KUNIT_FAILURE;
	if (c->passed)
		return KUNIT_SUCCESS;
	return KUNIT_SKIPPED;
}

static void add_status(struct kunit_counts *c, enum kunit_status st)
{
	switch (st) {
	case KUNIT_SUCCESS:
		c->passed++;
		break;
	case KUNIT_FAILURE:
		c->failed++;
		break;
	case KUNIT_SKIPPED:
		c->skipped++;
		break;
	case KUNIT_NO_TESTS:
	case KUNIT_PARSE_FAILED:
		break;
	default:
		c->crashed++;
		break;
	}
}

static void test_init(struct kunit_test *t)
{
	memset(t, 0, sizeof(*t));
	t->status = KUNIT_CRASHED;
	t->name = xstrdup("");
	t->skip_reason = xstrdup("");
}

static void test_release(struct kunit_test *t)
{
	for (size_t i = 0; i < t->nsub; i++)
		test_release(&t->sub[i]);
	free(t->sub);
	free(t->name);
	free(t->skip_reason);
}

void kunit_tree_free(struct kunit_test *t)
{
	if (!t)
		return;
	test_release(t);
	free(t);
}

/* peek_test_name_match: the next line is the result line of t. */
static bool name_match(const struct stream *s, const struct kunit_test *t)
{
	_cleanup_free_ char *name = NULL;
	bool ok;
	long num;

	if (!is_result(peek(s), &ok, &num, &name))
		return false;
	return *name && !strcmp(name, t->name);
}

static void parse_result(struct stream *s, struct kunit_test *t, long expected)
{
	_cleanup_free_ char *name = NULL;
	char *skip_name = NULL, *reason = NULL;
	bool ok;
	long num;

	if (!is_result(peek(s), &ok, &num, &name))
		return;
	free(t->name);
	if (is_skip(peek(s), &skip_name, &reason)) {
		t->name = skip_name;
		t->status = KUNIT_SKIPPED;
		free(t->skip_reason);
		t->skip_reason = reason;
	} else {
		t->name = steal_ptr(&name);
		t->status = ok ? KUNIT_SUCCESS : KUNIT_FAILURE;
	}
	s->at++;
	if (num != expected)
		t->counts.errors++;
}

/* bubble_up_test_results */
static void bubble_up(struct kunit_test *t)
{
	enum kunit_status st = t->status;

	for (size_t i = 0; i < t->nsub; i++) {
		t->counts.passed += t->sub[i].counts.passed;
		t->counts.failed += t->sub[i].counts.failed;
		t->counts.crashed += t->sub[i].counts.crashed;
		t->counts.skipped += t->sub[i].counts.skipped;
		t->counts.errors += t->sub[i].counts.errors;
	}
	if (!total(&t->counts))
		add_status(&t->counts, st);
	else if (counts_status(&t->counts) == KUNIT_CRASHED)
		t->status = KUNIT_CRASHED;
	if (st == KUNIT_FAILURE && counts_status(&t->counts) == KUNIT_SUCCESS)
		add_status(&t->counts, st);
}

static struct kunit_test *new_sub(struct kunit_test *t)
{
	t->sub = xrealloc(t->sub, (t->nsub + 1) * sizeof(*t->sub));
	test_init(&t->sub[t->nsub]);
	return &t->sub[t->nsub++];
}

/*
 * How deep subtests nest before a header is read as a plain line: the
 * console is the guest's, which may nest without end (kunit.py would
 * stop at Python's recursion limit); KUnit itself nests two deep.
 */
#define KUNIT_DEPTH_MAX 32
/* The missing subtests of a plan kept as (nameless) subtests, at most. */
#define KUNIT_MISSING_MAX 1000

/* parse_test, for the main test (depth 0) or a subtest. */
static void parse_test(struct stream *s, struct kunit_test *t, long expected_num, int depth)
{
	bool is_subtest = depth > 0;
	int expected = -1;
	bool parent;
	long num = 1;

	skip_diagnostic(s);
	if (!is_subtest) {
		free(t->name);
		t->name = xstrdup("main");
		if (is_version(peek(s), NULL))
			s->at++;
		skip_diagnostic(s);
		if (is_plan(peek(s), &expected))
			s->at++;
		parent = true;
	} else {
		bool ktap = false, header = false;

		if (more(s) && is_version(peek(s), NULL)) {
			s->at++;
			ktap = true;
		}
		if (more(s) && is_header(peek(s))) {
			free(t->name);
			t->name = xstrdup(skip_space(peek(s)) + 11);
			s->at++;
			header = true;
		}
		skip_diagnostic(s);
		if (more(s) && is_plan(peek(s), &expected))
			s->at++;
		parent = (ktap || header) && depth < KUNIT_DEPTH_MAX;
	}
	while (parent && (expected < 0 || num <= expected)) {
		skip_diagnostic(s);
		if (!more(s) || (name_match(s, t) && is_subtest)) {
			if (expected > 0 && num <= expected) {
				/*
				 * Each missing subtest: a crashed one, and an error
				 * (kunit.py adds them one by one; nothing changes in
				 * between). The guest's plan may be huge: the counts
				 * are exact, the nameless subtests capped.
				 */
				long missing = expected - num + 1;

				t->counts.errors += missing;
				t->counts.crashed += missing;
				for (long i = 0; i < missing && i < KUNIT_MISSING_MAX; i++)
					new_sub(t);
			}
			break;
		} else {
			/* t->sub may move: parse into a local, then append it. */
			struct kunit_test sub;

			test_init(&sub);
			parse_test(s, &sub, num, depth + 1);
			t->sub = xrealloc(t->sub, (t->nsub + 1) * sizeof(*t->sub));
			t->sub[t->nsub++] = sub;
		}
		num++;
	}
	if (is_subtest) {
		skip_diagnostic(s);
		if (*t->name && !name_match(s, t)) {
			t->counts.errors++;
		} else if (!more(s)) {
			t->status = KUNIT_NO_TESTS;
			t->counts.errors++;
		} else {
			parse_result(s, t, expected_num);
		}
	}
	if (parent && !t->nsub && (t->status == KUNIT_CRASHED || t->status == KUNIT_SUCCESS)) {
		t->status = KUNIT_NO_TESTS;
		t->counts.errors++;
	}
	bubble_up(t);
}

struct kunit_test *kunit_tree_parse(char **lines, size_t n)
{
	struct kunit_test *t = xmalloc(sizeof(*t));
	struct stream s = { lines, n, 0 };

	test_init(t);
	if (!n) {
		free(t->name);
		t->name = xstrdup("<missing>");
		t->counts.errors++;
		t->status = KUNIT_PARSE_FAILED;
		return t;
	}
	parse_test(&s, t, 0, 0);
	if (t->status != KUNIT_NO_TESTS)
		t->status = counts_status(&t->counts);
	return t;
}

void kunit_tree_merge(struct kunit_test *into, struct kunit_test *from)
{
	into->sub = xrealloc(into->sub, (into->nsub + from->nsub + 1) * sizeof(*into->sub));
	memcpy(into->sub + into->nsub, from->sub, from->nsub * sizeof(*from->sub));
	into->nsub += from->nsub;
	into->counts.passed += from->counts.passed;
	into->counts.failed += from->counts.failed;
	into->counts.crashed += from->counts.crashed;
	into->counts.skipped += from->counts.skipped;
	into->counts.errors += from->counts.errors;
	into->status = counts_status(&into->counts);
	free(from->sub);
	from->sub = NULL;
	from->nsub = 0;
	kunit_tree_free(from);
}

char *kunit_counts_text(const struct kunit_counts *c)
{
	const struct {
		const char *name;
		long n;
	} st[] = { { "passed", c->passed },
		   { "failed", c->failed },
		   { "crashed", c->crashed },
		   { "skipped", c->skipped },
		   { "errors", c->errors } };
	struct strbuf sb = { 0 };
	const char *sep = "";

	sb_printf(&sb, "Ran %ld tests: ", total(c));
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		if (st[i].n <= 0)
			continue;
		sb_printf(&sb, "%s%s: %ld", sep, st[i].name, st[i].n);
		sep = ", ";
	}
	return sb_detach(&sb);
}

/* A JSON string as Python's json.dumps writes it (ensure_ascii). */
static void json_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		sb_adds(sb, "null");
		return;
	}
	sb_adds(sb, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = *p < 0x80 ? 1 : utf8_valid_len(p);
		unsigned int cp;

		if (*p == '"' || *p == '\\') {
			sb_printf(sb, "\\%c", *p++);
			continue;
		}
		if (*p < 0x80) {
			const char *e = *p == '\b'   ? "\\b"
					: *p == '\f' ? "\\f"
					: *p == '\n' ? "\\n"
					: *p == '\r' ? "\\r"
					: *p == '\t' ? "\\t"
						     : NULL;

			if (e)
				sb_adds(sb, e);
			else if (*p < 0x20)
				sb_printf(sb, "\\u%04x", *p);
			else
				sb_add(sb, p, 1);
			p++;
			continue;
		}
		if (!n) { /* not UTF-8: kunit.py reads it with errors='backslashreplace' */
			sb_printf(sb, "\\\\x%02x", *p++);
			continue;
		}
		cp = n == 2   ? (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu)
		     : n == 3 ? (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu)
			      : (p[0] & 0x07u) << 18 | (p[1] & 0x3fu) << 12 | (p[2] & 0x3fu) << 6 |
				    (p[3] & 0x3fu);
		if (cp >= 0x10000)
			sb_printf(sb, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
				  0xdc00 + ((cp - 0x10000) & 0x3ff));
		else
			sb_printf(sb, "\\u%04x", cp);
		p += n;
	}
	sb_adds(sb, "\"");
}

static void indent(struct strbuf *sb, int level)
{
	sb_printf(sb, "\n%*s", level * 4, "");
}

/* One field: ",\n    key": (the first without its comma). */
static void key(struct strbuf *sb, int level, bool first, const char *name)
{
	if (!first)
		sb_adds(sb, ",");
	indent(sb, level);
	json_str(sb, name);
	sb_adds(sb, ": ");
}

struct json_meta {
	const char *arch, *defconfig, *build_dir;
};

static const char *status_word(enum kunit_status st)
{
	return st == KUNIT_SUCCESS   ? "PASS"
	       : st == KUNIT_SKIPPED ? "SKIP"
	       : st == KUNIT_CRASHED ? "ERROR"
				     : "FAIL";
}

/* _get_group_json, at nesting level (its "{" already written). */
static void group_json(struct strbuf *sb, const struct kunit_test *t, const char *name,
		       const struct json_meta *m, int level)
{
	const struct {
		const char *name;
		long n;
	} misc[] = { { "tests", total(&t->counts) },   { "passed", t->counts.passed },
		     { "failed", t->counts.failed },   { "crashed", t->counts.crashed },
		     { "skipped", t->counts.skipped }, { "errors", t->counts.errors } };
	size_t ngroups = 0, ncases = 0;

	for (size_t i = 0; i < t->nsub; i++)
		t->sub[i].nsub ? ngroups++ : ncases++;
	sb_adds(sb, "{");
	key(sb, level + 1, true, "name");
	json_str(sb, name);
	key(sb, level + 1, false, "sub_groups");
	sb_adds(sb, ngroups ? "[" : "[]");
	for (size_t i = 0, k = 0; i < t->nsub; i++) {
		if (!t->sub[i].nsub)
			continue;
		sb_adds(sb, k++ ? "," : "");
		indent(sb, level + 2);
		group_json(sb, &t->sub[i], t->sub[i].name, m, level + 2);
	}
	if (ngroups) {
		indent(sb, level + 1);
		sb_adds(sb, "]");
	}
	key(sb, level + 1, false, "test_cases");
	sb_adds(sb, ncases ? "[" : "[]");
	for (size_t i = 0, k = 0; i < t->nsub; i++) {
		if (t->sub[i].nsub)
			continue;
		sb_adds(sb, k++ ? "," : "");
		indent(sb, level + 2);
		sb_adds(sb, "{");
		key(sb, level + 3, true, "name");
		json_str(sb, t->sub[i].name);
		key(sb, level + 3, false, "status");
		json_str(sb, status_word(t->sub[i].status));
		indent(sb, level + 2);
		sb_adds(sb, "}");
	}
	if (ncases) {
		indent(sb, level + 1);
		sb_adds(sb, "]");
	}
	key(sb, level + 1, false, "misc");
	sb_adds(sb, "{");
	for (size_t i = 0; i < sizeof(misc) / sizeof(misc[0]); i++) {
		key(sb, level + 2, i == 0, misc[i].name);
		sb_printf(sb, "%ld", misc[i].n);
	}
	indent(sb, level + 1);
	sb_adds(sb, "}");
	key(sb, level + 1, false, "arch");
	json_str(sb, m->arch);
	key(sb, level + 1, false, "defconfig");
	json_str(sb, m->defconfig);
	key(sb, level + 1, false, "build_environment");
	json_str(sb, m->build_dir);
	key(sb, level + 1, false, "lab_name");
	json_str(sb, NULL);
	key(sb, level + 1, false, "kernel");
	json_str(sb, NULL);
	key(sb, level + 1, false, "job");
	json_str(sb, NULL);
	key(sb, level + 1, false, "git_branch");
	json_str(sb, "kselftest");
	indent(sb, level);
	sb_adds(sb, "}");
}

char *kunit_tree_json(const struct kunit_test *t, const char *arch, const char *defconfig,
		      const char *build_dir)
{
	struct json_meta m = { arch ? arch : "", defconfig ? defconfig : "",
			       build_dir ? build_dir : "" };
	struct strbuf sb = { 0 };

	group_json(&sb, t, "KUnit Test Group", &m, 0);
	return sb_detach(&sb);
}
