/* SPDX-License-Identifier: MIT */
/*
 * tap.h - a tiny TAP producer for the unit tests (kselftest.h in spirit).
 *
 *	int main(void)
 *	{
 *		plan(2);
 *		ok(1 + 1 == 2, "addition");
 *		is_str(tt_mode_name(TT_BASIC), "basic", "mode name");
 *		return done_testing();
 *	}
 *
 * Results go to stdout as "ok N name" / "not ok N name"; a failed check adds
 * "#   got: ..." / "#  want: ..." diagnostics. done_testing() returns the
 * exit status: 0 when every check passed and the plan was met, 1 otherwise.
 * Everything is static inline: one test file is one translation unit.
 */
#ifndef UMLRUN_TAP_H
#define UMLRUN_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAP_PRINTF(a, b) __attribute__((format(printf, a, b)))

struct tap_state {
	int planned; /* -1: no plan yet */
	int run;
	int failed;
};

static inline struct tap_state *tap_state(void)
{
	static struct tap_state s = { .planned = -1 };

	return &s;
}

static inline void plan(int n)
{
	/* Results must not interleave with children's output: line-buffer. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_state()->planned = n;
	printf("TAP version 13\n1..%d\n", n);
}

/* Every line of the message is prefixed "# ": none can read as a result. */
static inline TAP_PRINTF(1, 2) void diag(const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(msg = malloc((size_t)n + 1)))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	fputs("# ", stdout);
	for (const char *p = msg; *p; p++) {
		putchar(*p);
		if (*p == '\n')
			fputs("# ", stdout);
	}
	putchar('\n');
	free(msg);
}

/*
 * The name is one line, and a '#' in it is written "\#" (as TAP 14 asks):
 * a name such as "1..0 # SKIP" must not read as a directive.
 */
static inline bool tap_vresult(bool cond, const char *fmt, va_list ap)
{
	struct tap_state *s = tap_state();
	char name[512];

	s->run++;
	if (!cond)
		s->failed++;
	if (vsnprintf(name, sizeof(name), fmt, ap) < 0)
		snprintf(name, sizeof(name), "(no name)");
	printf("%sok %d ", cond ? "" : "not ", s->run);
	for (const char *p = name; *p; p++) {
		if (*p == '#' || *p == '\\')
			putchar('\\');
		putchar(*p == '\n' ? ' ' : *p);
	}
	putchar('\n');
	return cond;
}

static inline TAP_PRINTF(2, 3) bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vresult(cond, fmt, ap);
	va_end(ap);
	return r;
}

static inline bool is_int(long long got, long long want, const char *name)
{
	if (ok(got == want, "%s", name))
		return true;
	diag("  got: %lld", got);
	diag(" want: %lld", want);
	return false;
}

/* NULL equals only NULL, and prints as (null). */
static inline bool is_str(const char *got, const char *want, const char *name)
{
	bool same = got && want ? !strcmp(got, want) : got == want;

	if (ok(same, "%s", name))
		return true;
	diag("  got: %s%s%s", got ? "'" : "", got ? got : "(null)", got ? "'" : "");
	diag(" want: %s%s%s", want ? "'" : "", want ? want : "(null)", want ? "'" : "");
	return false;
}

/* got contains want (error messages: check the part that matters). */
static inline bool has_str(const char *got, const char *want, const char *name)
{
	if (ok(got && strstr(got, want), "%s", name))
		return true;
	diag("  got: %s%s%s", got ? "'" : "", got ? got : "(null)", got ? "'" : "");
	diag(" want: a string containing '%s'", want);
	return false;
}

/* got does not contain unwanted. */
static inline bool lacks_str(const char *got, const char *unwanted, const char *name)
{
	if (ok(got && !strstr(got, unwanted), "%s", name))
		return true;
	diag("  got: %s%s%s", got ? "'" : "", got ? got : "(null)", got ? "'" : "");
	diag(" want: a string without '%s'", unwanted);
	return false;
}

static inline int done_testing(void)
{
	struct tap_state *s = tap_state();

	if (s->planned < 0) {
		printf("1..%d\n", s->run);
		s->planned = s->run;
	}
	if (s->run != s->planned)
		diag("planned %d tests but ran %d", s->planned, s->run);
	if (s->failed)
		diag("failed %d of %d tests", s->failed, s->run);
	fflush(stdout);
	return s->failed || s->run != s->planned ? 1 : 0;
}

#endif
