// SPDX-License-Identifier: MIT
/*
 * umlrun.c - main: parse the options, dispatch to the command's handler,
 * and make sure what it said reached stdout.
 *
 * Each command is a handler in the file of its command (commands.h lists
 * them), a short list of phases over a session (session.h): find the
 * project, build or find the kernel and root folder, boot, supervise;
 * the tests it runs chosen by selection.h, its run ended by finish.h. The
 * work is in the modules below runner/cli/, which return errors; only the
 * command layer, runner/cli/, prints them and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "options.h"
#include "util.h"

/* help: umlrun's usage, or a command's; with --options, the command's options (a line each). */
int cmd_help(const struct opts *o)
{
	enum command c = o->nargs ? command_lookup(o->args[0]) : CMD_NONE;

	if (o->nargs && c == CMD_NONE)
		die(EXIT_USAGE, "unknown command '%s'; see 'umlrun --help'", o->args[0]);
	fputs(o->options_list ? command_options(c) : command_usage(c), stdout);
	return EXIT_PASS;
}

/* The handler of every command, from the one list (options.h). */
#define DISPATCH(id, name) [CMD_##id] = cmd_##name,
static int (*const dispatch[CMD_COUNT])(const struct opts *o) = { UMLRUN_COMMANDS(DISPATCH) };
#undef DISPATCH
/*
 * What went to stdout through stdio (doctor's checks, prune's list, the
 * help) must have reached it: a command that passed but could not say so
 * (>/dev/full, >&-) exits 3. A failing one keeps its own status.
 */
static int stdout_written(int code)
{
	errno = 0;
	if (code == EXIT_PASS && (fflush(stdout) != 0 || ferror(stdout))) {
		/* Its reader gone (| head): what the shell says of a writer SIGPIPE ends. */
		if (errno == EPIPE)
			return EXIT_SIGNAL_BASE + SIGPIPE;
		note("cannot write to stdout: %s", strerror(errno ? errno : EIO));
		return EXIT_INFRA;
	}
	return code;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct uerr e;

	std_fds_fill();
	stderr_queue_init();
	/*
	 * What umlrun makes (the cache, the stage) must be readable by the
	 * guest's user (nobody, when umlrun is root): a umask of 077 made
	 * every guest fail, and a root folder assembled under it stayed so.
	 * The umask's write bits stay.
	 */
	{
		mode_t mask = umask(0);

		umask(mask & 022);
	}
	if (opts_parse(argc, argv, &o, &e) < 0)
		uerr_die(&e);
	if (o.help) {
		fputs(command_usage(o.cmd), stdout);
		return stdout_written(EXIT_PASS);
	}
	if (o.cmd > CMD_NONE && o.cmd < CMD_COUNT)
		return stdout_written(dispatch[o.cmd](&o));
	die(EXIT_USAGE, "unknown command; see 'umlrun --help'");
}
