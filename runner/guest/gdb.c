// SPDX-License-Identifier: MIT
/* gdb.c - the command line that runs the guest kernel under the host's gdb. */
#define _GNU_SOURCE
#include "gdb.h"
#include "boot.h"

#include <string.h>
#include <unistd.h>

char *gdb_find(void)
{
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin");

	for (char *dir = strtok(copy, ":"); dir; dir = strtok(NULL, ":")) {
		char *cand = xasprintf("%s/gdb", *dir ? dir : ".");

		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
	}
	return NULL;
}

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

char **gdb_argv(const char *gdb, const char *script, bool drop, uid_t uid, gid_t gid, char **argv)
{
	/*
	 * UML's own signals: page faults (SIGSEGV), I/O and timer interrupts
	 * (SIGIO, SIGALRM, SIGVTALRM), its helpers (SIGCHLD, SIGUSR1, SIGWINCH).
	 */
	static const char *const handled[] = { "SIGSEGV",   "SIGIO",	"SIGALRM",
					       "SIGVTALRM", "SIGUSR1",	"SIGUSR2",
					       "SIGCHLD",   "SIGWINCH", "SIGPIPE" };
	_cleanup_free_ char *args = strv_join(argv + 1);
	char **v = NULL;
	size_t n = 0;

	push(&v, &n, xstrdup(gdb));
	push(&v, &n, xstrdup("-q"));
	if (script)
		push(&v, &n, xstrdup("-batch"));
	for (size_t i = 0; i < sizeof(handled) / sizeof(handled[0]); i++) {
		push(&v, &n, xstrdup("-ex"));
		push(&v, &n, xasprintf("handle %s nostop noprint pass", handled[i]));
	}
	push(&v, &n, xstrdup("-ex"));
	push(&v, &n, xstrdup("set pagination off"));
	/* The shell that starts linux sends its console to the console pipe. */
	push(&v, &n, xstrdup("-ex"));
	push(&v, &n, xstrdup("set startup-with-shell on"));
	push(&v, &n, xstrdup("-ex"));
	push(&v, &n,
	     xasprintf("set args %s </dev/null >&%d 2>&%d", args, GDB_CONSOLE_FD, GDB_CONSOLE_FD));
	if (drop) {
		push(&v, &n, xstrdup("-ex"));
		push(&v, &n,
		     xasprintf("set exec-wrapper setpriv --reuid=%u --regid=%u --clear-groups",
			       (unsigned)uid, (unsigned)gid));
	}
	push(&v, &n, xstrdup("-ex"));
	push(&v, &n, xstrdup("tbreak kernel_init"));
	push(&v, &n, xstrdup("-ex"));
	push(&v, &n, xstrdup("run"));
	if (script) {
		push(&v, &n, xstrdup("-x"));
		push(&v, &n, xstrdup(script));
	}
	push(&v, &n, xstrdup(argv[0]));
	strv_free(argv);
	return v;
}
