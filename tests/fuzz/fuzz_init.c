// SPDX-License-Identifier: MIT
/*
 * fuzz_init.c - the guest init's kernel command line parser (rootfs/init.c,
 * parse_cmdline: what read_params does with /proc/cmdline).
 *
 * init.c is a program: it is included here with its main renamed, so that
 * its static parser can be called; none of its other steps runs.
 *
 * Feeds: the input, up to its first NUL and at most 8191 bytes (what
 * read_params reads), as the command line; then, when the input holds no
 * double quote, the command line boot.c builds with the input as
 * umlrun.harness="...".
 *
 * Asserts, beyond not crashing or leaking:
 *   - a success has a job (a test, an argv or a shell) and a timeout >= 0;
 *     the argv has at most MAX_ARGS entries and ends with NULL;
 *   - every value is a string inside the line, with no double quote left;
 *   - boot.c's quoting round-trips: the harness options come back exactly
 *     as given, and the test after them is still read.
 */
#include "fuzz.h"

int init_main(void);
#define main init_main
#include "../../rootfs/init.c"
#undef main

int LLVMFuzzerInitialize(int *argc, char ***argv);

static __typeof__(param) defaults;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	defaults = param;
	/* init reports on its control line; here, nowhere. */
	ctl_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return 0;
}

static void check_value(const char *v, const char *line, size_t len)
{
	expect(v >= line && v + strlen(v) < line + len + 1);
	expect(!strchr(v, '"'));
}

static void check_params(int r, const char *line, size_t len)
{
	const char *const values[] = { param.test,  param.mode,	   param.start,
				       param.suite, param.results, param.argv_hex,
				       param.try,   param.harness, param.seed };
	const char *const defaults_v[] = { defaults.test,  defaults.mode,    defaults.start,
					   defaults.suite, defaults.results, defaults.argv_hex,
					   defaults.try,   defaults.harness, defaults.seed };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if (values[i] && values[i] != defaults_v[i])
			check_value(values[i], line, len);
	while (n <= MAX_ARGS && param.argv[n])
		n++;
	expect(n <= MAX_ARGS);
	if (r == 0) {
		expect(param.test || param.argv[0] || param.shell);
		expect(param.timeout >= 0);
	}
}

/* Back to the state before the command line was read. */
static void reset(void)
{
	free(param.argv[0]); /* decode_argv's buffer: argv[0] is its start */
	param = defaults;
}

static void check_quoting(const char *harness)
{
	char *line;

	if (strchr(harness, '"'))
		return;
	expect(asprintf(&line,
			"umlrun.mode=inf-cpu umlrun.timeout=600 umlrun.harness=\"%s\" "
			"umlrun.test=smoke/t0001-pass.sh",
			harness) > 0);
	expect(parse_cmdline(line) == 0);
	expect(param.harness && !strcmp(param.harness, harness));
	expect(param.test && !strcmp(param.test, "smoke/t0001-pass.sh"));
	reset();
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = size < 8191 ? size : 8191;
	char line[8192], harness[8192];
	int r;

	memcpy(line, data, len);
	line[len] = '\0';
	len = strlen(line);
	memcpy(harness, line, len + 1);
	r = parse_cmdline(line);
	check_params(r, line, len);
	reset();
	check_quoting(harness);
	return 0;
}
