// SPDX-License-Identifier: MIT
/* plain.c - generated test files for a folder of plain executables. */
#define _GNU_SOURCE
#include "boot.h"
#include "plain.h"
#include "suite.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A folder's last component as a suite name: other characters become '_'. */
static char *sanitized(const char *s)
{
	char *r = xstrdup(s);

	for (char *p = r; *p; p++)
		if (!strchr(TEST_NAME_CHARS, *p))
			*p = '_';
	return r;
}

/* Shell single quotes around s. */
static void sb_quoted(struct strbuf *sb, const char *s)
{
	sb_adds(sb, "'");
	for (; *s; s++)
		*s == '\'' ? sb_adds(sb, "'\\''") : sb_add(sb, s, 1);
	sb_adds(sb, "'");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The executable regular files of dir, in name order (no dot files), NULL-terminated. */
static char **executables(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		_cleanup_free_ char *path = NULL;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
			continue;
		v = xrealloc(v, (*n + 2) * sizeof(*v));
		v[(*n)++] = xstrdup(de->d_name);
		v[*n] = NULL;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_names);
	return v;
}

/*
 * One test file: runs PROG, reports its exit status as one KTAP result (a
 * failure's status on a diagnostic line before it: in the description it
 * would make each status another test's name), and exits with a failure's
 * status, results.json's "exit".
 * NAME and PROG hold only TEST_NAME_CHARS (checked before), so they are safe
 * in the comment, in the result lines and as a file name; PROG is quoted
 * all the same.
 */
static int write_wrapper(const char *path, const char *name, const char *prog)
{
	struct strbuf sb = { 0 };
	int r;

	sb_adds(&sb, "#!/bin/sh\n# Made by umlrun (--plain) for ");
	sb_adds(&sb, name);
	sb_adds(&sb, "/");
	sb_adds(&sb, prog);
	sb_adds(&sb, ": exit 0 passes, 4 skips, anything else fails;\n"
		     "# its output goes to the console (console.log), the result here.\n"
		     "prog=");
	sb_quoted(&sb, prog);
	sb_adds(&sb, "\necho 'KTAP version 1'\necho '1..1'\ncd " PLAIN_GUEST "/");
	sb_adds(&sb, name);
	sb_adds(&sb, " || exit 1\n"
		     "\"./$prog\" </dev/null >&2\n"
		     "rc=$?\n"
		     "case $rc in\n"
		     "0) echo \"ok 1 $prog\" ;;\n"
		     "4) echo \"ok 1 $prog # SKIP exit status 4\" ;;\n"
		     "*) if [ \"$rc\" -gt 128 ] && [ \"$rc\" -lt 160 ]; then\n"
		     "\techo \"# exit status $rc: killed by signal $((rc - 128))\"\n"
		     "   else\n"
		     "\techo \"# exit status $rc\"\n"
		     "   fi\n"
		     "   echo \"not ok 1 $prog\"\n"
		     "   exit \"$rc\" ;;\n"
		     "esac\n");
	r = write_file_atomic(path, sb.buf, sb.len);
	sb_release(&sb);
	return r < 0 ? r : chmod(path, 0755) < 0 ? -errno : 0;
}

/*
 * The executables of HOST (GIVEN on the command line), or NULL and exit 2
 * when there is none or one's name would not be safe in a KTAP line or
 * the wrapper (the message names it as given).
 */
static char **programs(const char *given, const char *host, size_t *n, struct uerr *e)
{
	char **progs = executables(host, n);

	if (!*n) {
		free(progs);
		uerr_set(e, EXIT_USAGE, "--plain=%s: no executable file in %s (chmod +x the tests)",
			 given, host);
		return NULL;
	}
	for (size_t k = 0; k < *n; k++) {
		if (!test_name_valid(progs[k])) {
			size_t len = strlen(given);
			_cleanup_free_ char *path = xasprintf(
			    "%s%s%s", given, len && given[len - 1] == '/' ? "" : "/", progs[k]);
			_cleanup_free_ char *shown = str_printable(path);

			uerr_set(e, EXIT_USAGE, "'%s': a --plain program's name %s; rename it",
				 shown, TEST_NAME_RULE);
			strv_free(progs);
			return NULL;
		}
		if (test_stem_run_folder_like(progs[k], strlen(progs[k]))) {
			uerr_set(e, EXIT_USAGE,
				 "--plain=%s: %s: a program's name may not end in .N or .tryN (the "
				 "folders of another's repeats, seeds and retries are named so); "
				 "rename it",
				 given, progs[k]);
			strv_free(progs);
			return NULL;
		}
	}
	return progs;
}

int plain_make(char *const *given, size_t n, char **suites, struct plain_dir **dirs, struct uerr *e)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/umlrun.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	struct plain_dir *v = xcalloc(n, sizeof(*v));
	char ***progs = xcalloc(n, sizeof(*progs));

	*suites = NULL;
	*dirs = NULL;
	/* Every check before anything is written. */
	for (size_t i = 0; i < n; i++) {
		char *base;
		size_t np;

		v[i].host = realpath(given[i], NULL);
		if (!v[i].host || !is_dir(v[i].host)) {
			uerr_set(e, EXIT_USAGE,
				 v[i].host ? "--plain=%s: not a folder; give the folder that "
					     "holds the scripts"
					   : "--plain=%s: no such folder",
				 given[i]);
			goto fail;
		}
		{
			_cleanup_free_ char *opt = xasprintf("--plain=%s", given[i]);

			if (host_folder_check(opt, v[i].host, e) < 0)
				goto fail;
		}
		base = strrchr(v[i].host, '/') + 1;
		v[i].name = sanitized(*base ? base : "plain");
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(v[j].name, v[i].name)) {
				uerr_set(e, EXIT_USAGE,
					 "--plain=%s: a second folder named %s; the suites would "
					 "share a name",
					 given[i], v[i].name);
				goto fail;
			}
		}
		progs[i] = programs(given[i], v[i].host, &np, e);
		if (!progs[i])
			goto fail;
	}
	if (!mkdtemp(tmpl)) {
		uerr_sys(e, EXIT_INFRA, "cannot create a folder for the --plain suites");
		goto fail;
	}
	*suites = tmpl;
	tmpl = NULL;
	{
		/* Swept like a stage if this umlrun is SIGKILLed (boot.c, stage_sweep). */
		_cleanup_free_ char *owner = xasprintf("%s/owner", *suites);
		_cleanup_free_ char *pid = owner_text();

		if (write_file_atomic(owner, pid, strlen(pid)) < 0 || chmod(*suites, 0755) < 0) {
			uerr_sys(e, EXIT_INFRA, "cannot write in %s", *suites);
			goto fail;
		}
	}
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *suite = xasprintf("%s/%s", *suites, v[i].name);

		if (mkdir(suite, 0755) < 0) {
			uerr_sys(e, EXIT_INFRA, "cannot create %s", suite);
			goto fail;
		}
		for (size_t k = 0; progs[i][k]; k++) {
			/* ok.sh is t0002-ok.sh, not t0002-ok.sh.sh. */
			size_t len = strlen(progs[i][k]);
			bool sh = len > 3 && !strcmp(progs[i][k] + len - 3, ".sh");
			_cleanup_free_ char *file =
			    xasprintf("%s/t%04zu-%.*s.sh", suite, k + 1, (int)(sh ? len - 3 : len),
				      progs[i][k]);
			int r = write_wrapper(file, v[i].name, progs[i][k]);

			if (r < 0) {
				errno = -r;
				uerr_sys(e, EXIT_INFRA, "cannot write %s", file);
				goto fail;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		strv_free(progs[i]);
	free(progs);
	*dirs = v;
	return 0;
fail:
	for (size_t i = 0; i < n; i++)
		strv_free(progs[i]);
	free(progs);
	free(tmpl);
	plain_free(*suites, v, n);
	*suites = NULL;
	return -1;
}

void plain_free(char *suites, struct plain_dir *dirs, size_t n)
{
	if (suites) {
		rm_rf(suites);
		free(suites);
	}
	for (size_t i = 0; dirs && i < n; i++) {
		free(dirs[i].host);
		free(dirs[i].name);
	}
	free(dirs);
}
