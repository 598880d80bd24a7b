/* SPDX-License-Identifier: MIT */
/*
 * text.h - text: UTF-8 validity and the Unicode controls, strings shown
 * safely in messages and reports, ends_with, first_mark, size_bytes.
 */
#ifndef UMLRUN_UTIL_TEXT_H
#define UMLRUN_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include "alloc.h"

/*
 * Reports must be valid UTF-8 whatever a guest printed: the length of the
 * valid sequence at p (1 to 4), or 0; sb_add_utf8 copies it, or U+FFFD
 * for an invalid byte, and leaves *p on the sequence's last byte.
 */
size_t utf8_valid_len(const unsigned char *p);
/*
 * Whether the UTF-8 sequence p (n bytes, valid) is a bidirectional
 * control (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which
 * reorders the text around it on screen, or the line or paragraph
 * separator (U+2028, U+2029), which many readers take for a line break (a
 * forged result line): reports show it escaped.
 */
bool unicode_control(const unsigned char *p, size_t n);
void sb_add_utf8(struct strbuf *sb, const unsigned char **p);
/* s fit for a one-line message: control and non-ASCII bytes as \n, \r, \t or \xNN. */
char *str_printable(const char *s);
/*
 * s with its control characters (C0 but tab, DEL, C1 as UTF-8 writes it) and
 * bytes that are not UTF-8 as \xHH; the rest, backslashes included, as is.
 */
char *str_shown(const char *s);
/* A size such as 256M (one mem_size_valid accepts: K, M or G, or none) in bytes. */
unsigned long long size_bytes(const char *size);
/* Whether s ends with tail. */
bool ends_with(const char *s, const char *tail);
/* Where in text (len bytes) the earliest of the n marks starts, or NULL. */
const char *first_mark(const char *text, size_t len, const char *const *marks, size_t n);

#endif
