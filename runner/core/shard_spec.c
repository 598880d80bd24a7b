// SPDX-License-Identifier: MIT
/* shard_spec.c - --shard's K/N. */
#define _GNU_SOURCE
#include "shard_spec.h"

#include <ctype.h>
#include <string.h>

/* Digits only, no sign, no blanks: "+2" or " 2" is a typo, not a shard. */
static bool parse_count(const char *s, size_t len, int *out)
{
	long v = 0;

	if (!len || len > 9)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = (int)v;
	return true;
}

int shard_parse(const char *s, int *k, int *n, struct uerr *e)
{
	const char *slash = strchr(s, '/');
	int kk, nn;

	if (!slash || !parse_count(s, (size_t)(slash - s), &kk) ||
	    !parse_count(slash + 1, strlen(slash + 1), &nn))
		return uerr_set(e, EXIT_USAGE,
				"bad shard '%s': want K/N, e.g. 2/4 for the second of four", s);
	if (kk < 1 || nn > SHARD_MAX || kk > nn)
		return uerr_set(e, EXIT_USAGE, "bad shard '%s': want 1 <= K <= N <= %d", s,
				SHARD_MAX);
	*k = kk;
	*n = nn;
	return 0;
}
