// SPDX-License-Identifier: MIT
/*
 * fuzz_suite.c - a suite's settings file (runner/core/suite.c, settings_parse).
 *
 * Feeds: the input as the text of testsuites/SUITE/settings (up to its
 * first NUL, as read_file's text ends there for the parser too).
 *
 * Asserts, beyond not crashing:
 *   - a failure is a usage error (exit 2) whose message names the file and
 *     a line: "fuzz/settings:N: ...", and is one line (no CR or LF);
 *   - a success leaves values within the documented bounds: timeout in
 *     1..100 years of seconds, wall_timeout in 1..7 days, mem a number with
 *     at most one K/M/G and no leading zero, cmdline a single line with no
 *     control character but tab (it goes on the kernel command line);
 *   - what was read round-trips: written back as key=value lines and read
 *     again, it gives the same values.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

static void check_mem(const char *mem)
{
	size_t digits = strspn(mem, "0123456789");

	expect(digits > 0 && mem[0] != '0');
	expect(!mem[digits] || (strchr("KMG", mem[digits]) && !mem[digits + 1]));
}

static void check_values(const struct test *d)
{
	expect(d->timeout > 0 && d->timeout <= 100L * 365 * 86400);
	expect(d->wall_timeout > 0 && d->wall_timeout <= 7 * 86400);
	if (d->mem)
		check_mem(d->mem);
	for (const char *p = d->cmdline; p && *p; p++)
		expect((unsigned char)*p >= 0x20 || *p == '\t');
}

static void check_round_trip(const struct test *d)
{
	_cleanup_free_ char *text =
	    xasprintf("timeout=%ld\nwall_timeout=%.0f\n%s%s%s%s%s%s%s", d->timeout, d->wall_timeout,
		      d->mem ? "mem=" : "", d->mem ? d->mem : "", d->mem ? "\n" : "",
		      d->cmdline ? "cmdline=" : "", d->cmdline ? d->cmdline : "",
		      d->cmdline ? "\n" : "", d->shell ? "shell=dash\n" : "");
	struct test again = { .timeout = 1, .wall_timeout = 1 };
	struct uerr e = { 0 };

	expect(settings_parse(text, "again", &again, &e) == 0);
	expect(again.timeout == d->timeout && again.wall_timeout == d->wall_timeout);
	expect(!d->mem == !again.mem && (!d->mem || !strcmp(d->mem, again.mem)));
	expect(!d->shell == !again.shell);
	expect(!d->cmdline == !again.cmdline &&
	       (!d->cmdline || !strcmp(d->cmdline, again.cmdline)));
	free(again.mem);
	free(again.cmdline);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	_cleanup_free_ char *text = xmalloc(size + 1);
	struct test d = { .timeout = 600, .wall_timeout = 120 };
	struct uerr e = { 0 };

	memcpy(text, data, size);
	text[size] = '\0';
	if (settings_parse(text, "fuzz/settings", &d, &e) < 0) {
		expect(e.code == EXIT_USAGE);
		expect(!strncmp(e.msg, "fuzz/settings:", 14) && strspn(e.msg + 14, "0123456789"));
		expect(!strpbrk(e.msg, "\r\n"));
	} else {
		check_values(&d);
		check_round_trip(&d);
	}
	free(d.mem);
	free(d.cmdline);
	return 0;
}
