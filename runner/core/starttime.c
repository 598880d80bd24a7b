// SPDX-License-Identifier: MIT
/* starttime.c - parse --start and convert it for time-travel-start=. */
#define _GNU_SOURCE
#include "starttime.h"

#include <ctype.h>
#include <string.h>
#include <time.h>

/*
 * The last second an ISO-8601 date can name, 9999-12-31T23:59:59Z: the
 * bound of both forms, so that every time one form reads the other can
 * write. Whether the kernel can take it is start_to_kernel's question.
 */
#define START_MAX_SECS 253402300799LL
/* The kernel's TIME_SETTOD_SEC_MAX less a second: the last start it takes. */
#define START_KERNEL_MAX_SECS 8277292035LL

/* Reads exactly n digits; returns -1 if they are not there. */
static int digits(const char **p, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return v;
}

static int days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

static int parse_iso(const char *s, int64_t *secs)
{
	struct tm tm = { 0 };
	const char *p = s;
	int y, mo, d, h = 0, mi = 0, se = 0, off = 0;

	if ((y = digits(&p, 4)) < 0 || *p++ != '-' || (mo = digits(&p, 2)) < 0 || *p++ != '-' ||
	    (d = digits(&p, 2)) < 0)
		return -1;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if ((h = digits(&p, 2)) < 0 || *p++ != ':' || (mi = digits(&p, 2)) < 0)
			return -1;
		if (*p == ':' && (p++, (se = digits(&p, 2)) < 0))
			return -1;
		if (h > 23 || mi > 59 || se > 59)
			return -1;
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			int sign = *p++ == '-' ? -1 : 1, oh, om;

			if ((oh = digits(&p, 2)) < 0)
				return -1;
			if (*p == ':')
				p++;
			if ((om = digits(&p, 2)) < 0 || oh > 23 || om > 59)
				return -1;
			off = sign * (oh * 3600 + om * 60);
		}
	}
	if (*p)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*secs = (int64_t)timegm(&tm) - off;
	return *secs < 0 || *secs > START_MAX_SECS ? -1 : 0;
}

int start_parse(const char *when, int64_t *secs, struct uerr *e)
{
	const char *p = when;
	int64_t v = 0;

	if (!strcmp(when, "now")) {
		*secs = (int64_t)time(NULL);
		return 0;
	}
	if (*p && strspn(p, "0123456789") == strlen(p)) {
		for (; *p; p++) {
			v = v * 10 + (*p - '0');
			if (v > START_MAX_SECS)
				goto bad;
		}
		*secs = v;
		return 0;
	}
	if (parse_iso(when, secs) == 0)
		return 0;
bad:
	return uerr_set(e, EXIT_USAGE,
			"--start=%s: not a time; give Unix seconds (1700000000), an ISO-8601 date "
			"(2024-02-29 or 2024-02-29T12:30:00Z) or 'now'",
			when);
}

enum start_unit start_unit_from_help(const char *help)
{
	const char *p = strstr(help, "time-travel-start=");

	if (!p)
		return START_UNIT_UNKNOWN;
	p += strlen("time-travel-start=");
	if (!strncmp(p, "<nanoseconds>", 13))
		return START_UNIT_NANOSECONDS;
	if (!strncmp(p, "<seconds>", 9))
		return START_UNIT_SECONDS;
	return START_UNIT_UNKNOWN;
}

const char *start_unit_name(enum start_unit u)
{
	switch (u) {
	case START_UNIT_SECONDS:
		return "seconds";
	case START_UNIT_NANOSECONDS:
		return "nanoseconds";
	default:
		return "unknown";
	}
}

enum start_unit start_unit_from_name(const char *name)
{
	if (!strcmp(name, "seconds"))
		return START_UNIT_SECONDS;
	if (!strcmp(name, "nanoseconds"))
		return START_UNIT_NANOSECONDS;
	return START_UNIT_UNKNOWN;
}

int start_to_kernel(int64_t secs, enum start_unit u, uint64_t *out, struct uerr *e)
{
	if (secs < 0)
		return uerr_set(e, EXIT_USAGE, "--start: times before 1970 are not supported");
	/*
	 * The kernel sets no clock past TIME_SETTOD_SEC_MAX (its 64-bit
	 * nanoseconds less 30 years of uptime): the guest would start at 1970,
	 * saying so only on its console.
	 */
	if (secs > START_KERNEL_MAX_SECS && u != START_UNIT_UNKNOWN)
		return uerr_set(e, EXIT_USAGE,
				"--start: the guest's kernel sets no clock past "
				"2232-04-18T23:47:15Z (%lld); give an earlier time",
				(long long)START_KERNEL_MAX_SECS);
	switch (u) {
	case START_UNIT_SECONDS:
		*out = (uint64_t)secs;
		return 0;
	case START_UNIT_NANOSECONDS:
		*out = (uint64_t)secs * 1000000000ULL;
		return 0;
	default:
		return uerr_set(
		    e, EXIT_INFRA,
		    "the kernel's --help does not document time-travel-start=; "
		    "it lacks CONFIG_UML_TIME_TRAVEL_SUPPORT, rebuild with 'umlrun build'");
	}
}
