/* SPDX-License-Identifier: MIT */
/*
 * starttime.h - the guest's wall clock at boot (--start).
 *
 * Users give Unix seconds ("1700000000"), an ISO-8601 date or date-time
 * ("2024-02-29", "2024-02-29T12:30:00Z", "2024-02-29 12:30:00+02:00") or
 * "now". The kernel's time-travel-start= wants nanoseconds on 6.1 and
 * seconds on the 5.x kernels that introduced it: the unit is read from the
 * built kernel's --help text, never assumed.
 */
#ifndef UMLRUN_STARTTIME_H
#define UMLRUN_STARTTIME_H

#include <stdint.h>

#include "util.h"

enum start_unit {
	START_UNIT_UNKNOWN = 0,
	START_UNIT_SECONDS,
	START_UNIT_NANOSECONDS,
};

/*
 * The guest's clock at boot unless --start says (under time travel): a
 * fixed date, so that runs repeat exactly. The same instant twice, for the
 * code and for --help (test_starttime.c checks they agree).
 */
#define START_DEFAULT	  1704067200LL
#define START_DEFAULT_ISO "2024-01-01T00:00:00Z"

/* Parse WHEN into seconds since the epoch (UTC). */
int start_parse(const char *when, int64_t *secs, struct uerr *e);
/* Read the unit from `linux --help` output. */
enum start_unit start_unit_from_help(const char *help);
const char *start_unit_name(enum start_unit u);
enum start_unit start_unit_from_name(const char *name);
/* The value for time-travel-start=, in the unit the kernel wants. */
int start_to_kernel(int64_t secs, enum start_unit u, uint64_t *out, struct uerr *e);

#endif
