/* SPDX-License-Identifier: MIT */
/*
 * alloc.h - memory: x-allocation (exit 3 when out of memory), ownership
 * (_cleanup_free_, _cleanup_close_, _cleanup_strv_, steal_ptr, steal_fd),
 * struct strbuf, vectors of strings.
 */
#ifndef UMLRUN_UTIL_ALLOC_H
#define UMLRUN_UTIL_ALLOC_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include "msg.h"

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* vasprintf(3) (its length in *len, if len), or exit 3 when out of memory. */
char *xvasprintf(size_t *len, const char *fmt, va_list ap) UMLRUN_PRINTF(2, 0);
char *xasprintf(const char *fmt, ...) UMLRUN_PRINTF(1, 2);

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline int steal_fd(int *fd)
{
	int r = *fd;
	*fd = -1;
	return r;
}

static inline void *steal_ptr(void *pp)
{
	void **p = pp;
	void *r = *p;
	*p = NULL;
	return r;
}

#define _cleanup_free_	__attribute__((cleanup(freep)))
#define _cleanup_close_ __attribute__((cleanup(closep)))
#define _cleanup_strv_	__attribute__((cleanup(strvp)))

/* A growable string; buf is always NUL-terminated once anything was added. */
struct strbuf {
	char *buf;
	size_t len, cap;
};

void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
void sb_release(struct strbuf *sb);
char *sb_detach(struct strbuf *sb);
/* Frees a NULL-terminated vector of strings and the strings; NULL is fine. */
void strv_free(char **v);
static inline void strvp(void *p)
{
	strv_free(*(char ***)p);
}

#endif
