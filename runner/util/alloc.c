// SPDX-License-Identifier: MIT
/*
 * alloc.c - allocation that exits 3 when out of memory, the strbuf,
 * vectors of strings.
 */
#define _GNU_SOURCE
#include "alloc.h"

#include <stdio.h>
#include <string.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die(EXIT_INFRA, "out of memory");
	return p;
}

char *xvasprintf(size_t *len, const char *fmt, va_list ap)
{
	char *p;
	int n = vasprintf(&p, fmt, ap);

	if (n < 0)
		die(EXIT_INFRA, "out of memory");
	if (len)
		*len = (size_t)n;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(NULL, fmt, ap);
	va_end(ap);
	return p;
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	if (sb->len + len + 1 > sb->cap) {
		sb->cap = (sb->len + len + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	_cleanup_free_ char *s = NULL;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	s = xvasprintf(&n, fmt, ap);
	va_end(ap);
	sb_add(sb, s, n);
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

char *sb_detach(struct strbuf *sb)
{
	char *r = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return r;
}

void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}
