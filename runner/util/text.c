// SPDX-License-Identifier: MIT
/*
 * text.c - text: UTF-8, a string shown safely (str_printable,
 * str_shown), ends_with, first_mark, size_bytes.
 */
#define _GNU_SOURCE
#include "text.h"

#include <stdio.h>
#include <string.h>

bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

size_t utf8_valid_len(const unsigned char *p)
{
	size_t n;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void sb_add_utf8(struct strbuf *sb, const unsigned char **p)
{
	size_t n = utf8_valid_len(*p);

	if (n == 0) {
		sb_adds(sb, "\xef\xbf\xbd"); /* U+FFFD for a byte that is not UTF-8 */
		return;
	}
	sb_add(sb, *p, n);
	*p += n - 1;
}

const char *first_mark(const char *text, size_t len, const char *const *marks, size_t n)
{
	const char *best = NULL;

	for (size_t m = 0; m < n; m++) {
		const char *p = memmem(text, len, marks[m], strlen(marks[m]));

		if (p && (!best || p < best))
			best = p;
	}
	return best;
}

/* s fit for a one-line message: control and non-ASCII bytes as \n, \r, \t or \xNN. */
char *str_printable(const char *s)
{
	struct strbuf sb = { 0 };

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n')
			sb_adds(&sb, "\\n");
		else if (*p == '\r')
			sb_adds(&sb, "\\r");
		else if (*p == '\t')
			sb_adds(&sb, "\\t");
		else if (*p == '\\')
			sb_adds(&sb, "\\\\");
		else if (*p < 0x20 || *p >= 0x7f)
			sb_printf(&sb, "\\x%02x", *p);
		else
			sb_add(&sb, p, 1);
	}
	return sb.len ? sb_detach(&sb) : xstrdup("");
}

unsigned long long size_bytes(const char *size)
{
	char *end;
	unsigned long long v = strtoull(size, &end, 10);

	return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : *end == 'G' ? v << 30 : v;
}

bool unicode_control(const unsigned char *p, size_t n)
{
	if (n == 2)
		return p[0] == 0xd8 && p[1] == 0x9c; /* U+061C */
	return n == 3 && p[0] == 0xe2 &&
	       ((p[1] == 0x80 &&
		 (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xa8 && p[2] <= 0xae))) ||
		(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

/*
 * s as a run shows what a guest printed (sched.c's escape_byte), a copy:
 * C0 controls but tab, DEL, the C1 controls (U+0080..U+009F, "\xc2\x80"
 * to "\xc2\x9f" in UTF-8), the bidirectional controls (unicode_control) and,
 * here also, any byte that is not UTF-8 become \xHH, one per byte. What a
 * merge writes from it (ktap.txt, junit.xml, messages) then holds nothing
 * a terminal or an XML reader would act on.
 */
char *str_shown(const char *s)
{
	struct strbuf sb = { 0 };

	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_valid_len(p);
		bool control = (*p < 0x20 && *p != '\t') || *p == 0x7f ||
			       (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) || unicode_control(p, n);

		if (n && !control) {
			sb_add(&sb, p, n);
			p += n;
			continue;
		}
		for (size_t i = 0; i < (n ? n : 1); i++)
			sb_printf(&sb, "\\x%02x", p[i]);
		p += n ? n : 1;
	}
	return sb_detach(&sb);
}
