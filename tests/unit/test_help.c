// SPDX-License-Identifier: MIT
/*
 * test_help.c - each command's --help, composed from the options' rows
 * (options.c): it names every option the command takes and none it refuses,
 * and shows the code's own defaults.
 */
#define _GNU_SOURCE
#include "options.h"
#include "finish.h"
#include "hwsim.h"
#include "kernel_cache.h"
#include "kunit.h"
#include "starttime.h"
#include "suite.h"

#include "tap.h"

#define NAME(id, name) { CMD_##id, #name },
static const struct {
	enum command cmd;
	const char *name;
} cmds[] = { UMLRUN_COMMANDS(NAME) };
#undef NAME
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

/*
 * The options a help text names in its first column, as "--name" and "-x":
 * on a line that starts "  -", the words up to the description (the first
 * that does not start with "-", or the first after two blanks). "--jobs=N,"
 * gives "--jobs", "--shuffle[=SEED]" "--shuffle".
 */
static char **help_options(const char *text, size_t *n)
{
	char **v = NULL;
	const char *next;

	*n = 0;
	for (const char *line = text; *line; line = next) {
		const char *p = line + 2, *end = strchrnul(line, '\n');

		next = *end ? end + 1 : end;
		if (strncmp(line, "  -", 3))
			continue;
		while (*p == '-') {
			size_t len = strcspn(p, " \n,=[");

			v = realloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = strndup(p, len);
			p += strcspn(p, " \n");
			if (*p == ' ' && p[1] == ' ')
				break;
			p += strspn(p, " ");
		}
	}
	return v;
}

static bool named(char **v, size_t n, const char *opt)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], opt))
			return true;
	return false;
}

/* Command c's help names every option c takes and is to name, and none c refuses. */
static void test_command(enum command c, const char *name)
{
	const char *text = command_usage(c);
	_cleanup_free_ char *want = xasprintf("Usage: umlrun %s ", name);
	struct strbuf missing = { 0 }, refused = { 0 };
	const char *opt;
	size_t n;
	char **v = help_options(text, &n);
	int letter;

	ok(!strncmp(text, want, strlen(want)), "%s --help starts with its usage line", name);
	for (size_t i = 0; (opt = option_name(i, &letter)); i++) {
		_cleanup_free_ char *lng = xasprintf("--%s", opt);
		char shrt[3] = { '-', (char)letter, 0 };
		bool shown = *opt && (named(v, n, lng) || (letter && named(v, n, shrt)));

		if (option_said(i, c) && !shown)
			sb_printf(&missing, " %s", lng);
		if (!option_takes(i, c) && shown)
			sb_printf(&refused, " %s", lng);
	}
	if (!ok(!missing.len, "%s --help names every option it takes", name))
		diag("  not named:%s", missing.buf);
	if (!ok(!refused.len, "%s --help names no option it refuses", name))
		diag("  refused but named:%s", refused.buf);
	sb_release(&missing);
	sb_release(&refused);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * The options a command takes and its --help does not say, on purpose.
 * Any other such pair is a gap: an option a command acts on belongs in its
 * help, one it does nothing with is refused ("does not apply"), not taken
 * unsaid. Keep this short.
 */
static const struct {
	enum command cmd;
	const char *name;
} unsaid_ok[] = {
	/* kunit.py's options umlrun does not run with: taken to refuse each with its reason */
	{ CMD_KUNIT, "build_dir" },
	{ CMD_KUNIT, "make_options" },
	{ CMD_KUNIT, "alltests" },
	{ CMD_KUNIT, "cross_compile" },
	{ CMD_KUNIT, "qemu_config" },
	{ CMD_KUNIT, "qemu_args" },
	{ CMD_KUNIT, "junit" },
	/* help's own help is its two lines; --options is for scripts (command_options) */
	{ CMD_HELP, "help" },
	{ CMD_HELP, "options" },
};
#define NUNSAID_OK (sizeof(unsaid_ok) / sizeof(unsaid_ok[0]))

static bool unsaid_allowed(enum command c, const char *name)
{
	for (size_t i = 0; i < NUNSAID_OK; i++)
		if (unsaid_ok[i].cmd == c && !strcmp(unsaid_ok[i].name, name))
			return true;
	return false;
}

/*
 * Whether command c's help says option i: on a line of its own or another's,
 * or, for kselftest, by its paragraph ("every option of 'umlrun run' but
 * those it refuses") when run's help says it.
 */
static bool said(size_t i, enum command c)
{
	return option_said(i, c) || (c == CMD_KSELFTEST && option_said(i, CMD_RUN));
}

/* No command takes an option its help does not say, but those of unsaid_ok. */
static void test_no_unsaid(void)
{
	struct strbuf gaps = { 0 }, stale = { 0 };
	const char *opt;
	int letter;

	for (size_t c = 0; c < NCMDS; c++)
		for (size_t i = 0; (opt = option_name(i, &letter)); i++)
			if (option_takes(i, cmds[c].cmd) && !said(i, cmds[c].cmd) &&
			    !unsaid_allowed(cmds[c].cmd, opt))
				sb_printf(&gaps, " %s --%s", cmds[c].name, opt);
	if (!ok(!gaps.len, "no command takes an option its --help leaves out (but the allowed)"))
		diag("  taken, unsaid:%s", gaps.buf);
	for (size_t a = 0; a < NUNSAID_OK; a++) {
		bool found = false;

		for (size_t i = 0; !found && (opt = option_name(i, &letter)); i++)
			found = !strcmp(opt, unsaid_ok[a].name) &&
				option_takes(i, unsaid_ok[a].cmd) && !said(i, unsaid_ok[a].cmd);
		if (!found)
			sb_printf(&stale, " --%s", unsaid_ok[a].name);
	}
	if (!ok(!stale.len, "each allowed pair is taken and unsaid (the list is not stale)"))
		diag("  not taken, or said:%s", stale.buf);
	sb_release(&gaps);
	sb_release(&stale);
}

/* The rows' lines, each at its place: -h last, the description from column 26. */
static void test_layout(void)
{
	const char *run = command_usage(CMD_RUN);
	const char *h = strstr(run, "\n  -h, --help             show this help\n");

	ok(h && !strstr(h + 1, "\n  -"), "run --help: -h, --help is its last option");
	has_str(run,
		"\n  -j, --jobs=N           guests at once (default: number of CPUs)\n"
		"  --timeout=SECONDS      simulated-time limit per test file (default: the\n"
		"                         suite's settings, else ",
		"run --help: an option's lines, the description in its column");
	has_str(command_usage(CMD_KUNIT),
		"  --wall-timeout=SECONDS, --timeout=SECONDS\n"
		"                         wall-clock limit of a boot",
		"kunit --help: a long first column, the description below it");
	has_str(command_usage(CMD_LIST),
		"  --shuffle[=SEED]       run in a random order; the seed is printed to replay it\n"
		"  --results=DIR          where --rerun-failed finds",
		"list --help: a command's own wording, moved (--results after --shuffle)");
	has_str(command_usage(CMD_HWSIM),
		"  --module=MODULE        the cases of tests/hwsim/test_MODULE.py, as\n"
		"                         run-tests.py -f; repeatable\n"
		"  CASE, PREFIX*          cases by name (default: every case)\n",
		"hwsim --help: a line of help only, among the options");
	is_str(command_usage(CMD_HELP),
	       "Usage: umlrun help [COMMAND]\nShow the help of umlrun or of one command.\n",
	       "help --help: its two lines, no option");
	ok(command_usage(CMD_RUN) == run, "a command's help is composed once");
}

/*
 * The options a help lists as refused: "--name" words on the lines after
 * one that ends "It refuses:", indented by four blanks; " --a --b" in *sb.
 */
static void refused_list(const char *text, struct strbuf *sb)
{
	const char *p = strstr(text, "It refuses:\n");

	for (p = p ? strchr(p, '\n') + 1 : ""; !strncmp(p, "    -", 5); p = strchr(p, '\n') + 1) {
		const char *end = strchr(p, '\n');

		for (const char *w = p; (w = strstr(w, "--")) && w < end; w += 2)
			sb_printf(sb, " %.*s", (int)strcspn(w, ", \n"), w);
	}
}

/*
 * kselftest's help says "every option of 'umlrun run' but those it
 * refuses", and lists those: it takes none run refuses, and the list is
 * every option of run it refuses, in the rows' order.
 */
static void test_kselftest_as_run(void)
{
	struct strbuf extra = { 0 }, want = { 0 }, listed = { 0 };
	const char *opt;
	int letter;

	for (size_t i = 0; (opt = option_name(i, &letter)); i++) {
		if (option_takes(i, CMD_KSELFTEST) && !option_takes(i, CMD_RUN))
			sb_printf(&extra, " --%s", opt);
		if (option_takes(i, CMD_RUN) && !option_takes(i, CMD_KSELFTEST))
			sb_printf(&want, " --%s", opt);
	}
	if (!ok(!extra.len, "kselftest takes only options of run, as its --help says"))
		diag("  kselftest's alone:%s", extra.buf);
	refused_list(command_usage(CMD_KSELFTEST), &listed);
	ok(want.len > 0, "kselftest refuses some options of run");
	is_str(listed.buf ? listed.buf : "", want.buf ? want.buf : "",
	       "kselftest --help lists every option of run it refuses, and no other");
	sb_release(&extra);
	sb_release(&want);
	sb_release(&listed);
}

/* The words of a list, split at blanks and newlines, each less a trailing '='. */
static char **words(const char *text, size_t *n)
{
	char **v = NULL;

	*n = 0;
	for (const char *p = text + strspn(text, " \n"); *p; p += strspn(p, " \n")) {
		size_t len = strcspn(p, " \n");

		v = realloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = strndup(p, len && p[len - 1] == '=' ? len - 1 : len);
		p += len;
	}
	return v;
}

static void words_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * help --options CMD (command_options), which the bash completion and
 * make man-check follow: every option c's --help names, and each option
 * it lists named there (by its long name or its letter); kselftest's,
 * run's but those its help lists as refused.
 */
static void test_options_list(enum command c, const char *name)
{
	size_t nlisted, nwant, nrefused = 0;
	char **listed = words(command_options(c), &nlisted);
	char **want = help_options(command_usage(c == CMD_KSELFTEST ? CMD_RUN : c), &nwant);
	char **refused = NULL;
	struct strbuf missing = { 0 }, extra = { 0 }, list = { 0 };

	if (c == CMD_KSELFTEST) {
		refused_list(command_usage(c), &list);
		refused = words(list.buf ? list.buf : "", &nrefused);
	}
	for (size_t i = 0; i < nwant; i++)
		if (!named(refused, nrefused, want[i]) && !named(listed, nlisted, want[i]))
			sb_printf(&missing, " %s", want[i]);
	/* A line is an option: named by its long name or its letter (hwsim's -q). */
	for (const char *line = command_options(c); *line; line = strchr(line, '\n') + 1) {
		_cleanup_free_ char *one = strndup(line, strcspn(line, "\n"));
		size_t nrow;
		char **row = words(one, &nrow);
		bool shown = false;

		for (size_t i = 0; i < nrow; i++)
			shown |= named(want, nwant, row[i]) && !named(refused, nrefused, row[i]);
		if (!shown)
			sb_printf(&extra, " %s", one);
		words_free(row, nrow);
	}
	if (!ok(!missing.len && !extra.len,
		"help --options %s: the options its --help names, and no other", name))
		diag("  not listed:%s; listed, not named:%s", missing.buf ? missing.buf : "",
		     extra.buf ? extra.buf : "");
	sb_release(&missing);
	sb_release(&extra);
	sb_release(&list);
	words_free(refused, nrefused);
	words_free(listed, nlisted);
	words_free(want, nwant);
}

/* The list's form: '=' for a value it needs, the letter after the name, none refused. */
static void test_options_list_form(void)
{
	has_str(command_options(CMD_RUN), "\n--jobs= -j\n--timeout=\n",
		"help --options run: '=' for an option that needs a value, its letter after it");
	has_str(command_options(CMD_RUN), "\n--check-determinism\n--seeds=\n",
		"help --options run: no '=' for one that takes none");
	ok(strstr(command_options(CMD_RUN), "\n--shuffle\n") &&
	       !strstr(command_options(CMD_RUN), "--shuffle="),
	   "help --options run: no '=' for an optional value (--shuffle[=SEED])");
	ok(strstr(command_options(CMD_KUNIT), "\n--list_tests\n") &&
	       !strstr(command_options(CMD_KUNIT), "--build_dir"),
	   "help --options kunit: kunit.py's names it takes, none it refuses");
	is_str(command_options(CMD_HELP), "", "help --options help: none (--options is hidden)");
}

/* The defaults in the help texts are the code's. */
static void test_defaults(void)
{
	_cleanup_free_ char *tt = xasprintf("(default %s)\n", tt_mode_name(TT_DEFAULT));
	_cleanup_free_ char *kmem = xasprintf("(default %s, as\n", KUNIT_MEM_DEFAULT);
	_cleanup_free_ char *kwall =
	    xasprintf("(default %d, as kunit.py)", KUNIT_WALL_TIMEOUT_DEFAULT);
	_cleanup_free_ char *hwall = xasprintf("one case (default %d)", HWSIM_CASE_WALL_TIMEOUT);
	_cleanup_free_ char *htime = xasprintf("a batch (default %d)", HWSIM_TIMEOUT);
	_cleanup_free_ char *hmem = xasprintf("memory (default %s)", HWSIM_MEM);
	_cleanup_free_ char *batch =
	    xasprintf("%d to %d cases a guest", HWSIM_BATCH_MIN, HWSIM_BATCH_MAX);
	_cleanup_free_ char *mem =
	    xasprintf("%dM to the host's RAM (default %s,", GUEST_MEM_MIN_MB, GUEST_MEM_DEFAULT);

	is_str(tt_mode_name(TT_DEFAULT), TT_DEFAULT_NAME, "TT_DEFAULT_NAME names TT_DEFAULT");
	has_str(command_usage(CMD_RUN), tt, "run --help: the default mode");
	has_str(command_usage(CMD_RUN), mem, "run --help: guest memory, its least and default");
	has_str(command_usage(CMD_RUN), "(default " START_DEFAULT_ISO " under",
		"run --help: the guest's clock at boot");
	has_str(command_usage(CMD_RUN), "(default ./" RESULTS_DIR_DEFAULT ")",
		"run --help: the results folder");
	has_str(command_usage(CMD_BUILD), "(default " KERNEL_DEFAULT ";",
		"build --help: the kernel version");
	has_str(command_usage(CMD_KUNIT), kmem, "kunit --help: its guest memory");
	has_str(command_usage(CMD_KUNIT), kwall, "kunit --help: its wall-clock limit");
	has_str(command_usage(CMD_HWSIM), hwall, "hwsim --help: a case's wall-clock limit");
	has_str(command_usage(CMD_HWSIM), htime, "hwsim --help: a batch's time limit");
	has_str(command_usage(CMD_HWSIM), hmem, "hwsim --help: its guest memory");
	has_str(command_usage(CMD_HWSIM), batch, "hwsim --help: the cases a guest runs");
}

int main(void)
{
	plan(2 + 3 * (int)NCMDS + 2 + 7 + 3 + (int)NCMDS + 5 + 12);
	is_int(NCMDS, CMD_COUNT - 1, "every command (UMLRUN_COMMANDS)");
	ok(option_name(0, &(int){ 0 }) != NULL, "the options' table has rows");
	for (size_t i = 0; i < NCMDS; i++)
		test_command(cmds[i].cmd, cmds[i].name);
	test_no_unsaid();
	test_layout();
	test_kselftest_as_run();
	for (size_t i = 0; i < NCMDS; i++)
		test_options_list(cmds[i].cmd, cmds[i].name);
	test_options_list_form();
	test_defaults();
	return done_testing();
}
