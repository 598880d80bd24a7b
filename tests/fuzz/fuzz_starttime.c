// SPDX-License-Identifier: MIT
/*
 * fuzz_starttime.c - the --start parser (runner/core/starttime.c, start_parse).
 *
 * Feeds: the input as the text after --start= (up to its first NUL, as an
 * argument ends there).
 *
 * Asserts, beyond not crashing:
 *   - a failure is a usage error (exit 2) quoting the input;
 *   - a success is a time at or after 1970, and it round-trips: written
 *     back as Unix seconds and as an ISO-8601 date-time in UTC, each reads
 *     back as the same second;
 *   - start_to_kernel takes it in seconds, and in nanoseconds exactly when
 *     the nanoseconds fit in 64 bits.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "starttime.h"

static void check_reads_as(const char *text, int64_t secs)
{
	struct uerr e = { 0 };
	int64_t again = -1;

	if (start_parse(text, &again, &e) < 0 || again != secs)
		fprintf(stderr, "'%s' does not read back as %" PRId64 "\n", text, secs);
	expect(start_parse(text, &again, &e) == 0 && again == secs);
}

static void check_round_trip(int64_t secs)
{
	time_t t = (time_t)secs;
	struct tm tm;
	char iso[64], unix_secs[32];

	snprintf(unix_secs, sizeof(unix_secs), "%" PRId64, secs);
	check_reads_as(unix_secs, secs);
	expect(gmtime_r(&t, &tm));
	expect(strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0);
	check_reads_as(iso, secs);
}

static void check_kernel_units(int64_t secs)
{
	struct uerr e = { 0 };
	uint64_t out;

	/* Up to the last second the kernel sets (2232-04-18T23:47:15Z), both units. */
	if (secs <= 8277292035LL) {
		expect(start_to_kernel(secs, START_UNIT_SECONDS, &out, &e) == 0 &&
		       out == (uint64_t)secs);
		expect(start_to_kernel(secs, START_UNIT_NANOSECONDS, &out, &e) == 0 &&
		       out / 1000000000ULL == (uint64_t)secs);
	} else {
		expect(start_to_kernel(secs, START_UNIT_SECONDS, &out, &e) < 0 &&
		       e.code == EXIT_USAGE);
		expect(start_to_kernel(secs, START_UNIT_NANOSECONDS, &out, &e) < 0 &&
		       e.code == EXIT_USAGE);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_free_ char *text = xmalloc(size + 1);
	struct uerr e = { 0 };
	int64_t secs = -1;

	memcpy(text, data, size);
	text[size] = '\0';
	if (start_parse(text, &secs, &e) < 0) {
		expect(e.code == EXIT_USAGE && !strncmp(e.msg, "--start=", 8));
		return 0;
	}
	expect(secs >= 0);
	check_round_trip(secs);
	check_kernel_units(secs);
	return 0;
}
