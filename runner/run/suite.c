// SPDX-License-Identifier: MIT
/* suite.c - discover suites and test files, read settings. */
#define _GNU_SOURCE
#include "suite.h"

#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static bool is_test_file(const char *name)
{
	return fnmatch("t[0-9][0-9][0-9][0-9]-*.sh", name, 0) == 0;
}

/*
 * A guest memory size as the kernel's mem= reads it: a number, no leading
 * zero, and at most one K, M or G (1G, not 1GK, which memparse would cut
 * short without a word), small enough to count in bytes.
 */
bool mem_size_valid(const char *s)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	if (*s < '1' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (*end == 'K' || *end == 'M' || *end == 'G')
		shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
	if (shift)
		end++;
	return !*end && v <= ULLONG_MAX >> shift;
}

int settings_parse(const char *text, const char *file, struct test *d, struct uerr *e)
{
	const char *p = text;

	for (int lineno = 1; *p; lineno++) {
		const char *nl = strchrnul(p, '\n');
		_cleanup_free_ char *line = xmalloc((size_t)(nl - p) + 1);
		char *eq, *end;

		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		eq = strchr(line, '=');
		p = *nl ? nl + 1 : nl;
		if (!line[0] || line[0] == '#')
			continue;
		if (!eq)
			goto bad;
		*eq++ = '\0';
		/* The same bounds as --timeout and --wall-timeout. */
		errno = 0;
		if (!strcmp(line, "timeout")) {
			d->timeout = strtol(eq, &end, 10);
			if (errno || end == eq || *end || d->timeout <= 0 ||
			    d->timeout > TEST_TIMEOUT_MAX)
				goto bad;
		} else if (!strcmp(line, "wall_timeout")) {
			long w = strtol(eq, &end, 10);

			if (errno || end == eq || *end || w <= 0 || w > TEST_WALL_TIMEOUT_MAX)
				goto bad;
			d->wall_timeout = (double)w;
		} else if (!strcmp(line, "mem")) {
			if (!mem_size_valid(eq))
				return uerr_set(e, EXIT_USAGE,
						"%s:%d: mem=%s is not a size: want a number with "
						"an optional K, M or G (mem=512M)",
						file, lineno, eq);
			free(d->mem);
			d->mem = xstrdup(eq);
		} else if (!strcmp(line, "cmdline")) {
			free(d->cmdline);
			d->cmdline = xstrdup(eq);
		} else if (!strcmp(line, "shell")) {
			if (!strcmp(eq, "sh"))
				d->shell = NULL;
			else if (!strcmp(eq, "dash"))
				d->shell = TEST_SHELL_DASH;
			else
				return uerr_set(e, EXIT_USAGE,
						"%s:%d: shell=%s: want sh (busybox ash, the "
						"default) or dash",
						file, lineno, eq);
		} else {
			goto bad;
		}
		continue;
	bad:
		return uerr_set(
		    e, EXIT_USAGE,
		    "%s:%d: want timeout=, wall_timeout=, mem=, cmdline= or shell= with a value",
		    file, lineno);
	}
	return 0;
}

static int load_suite(const char *dir, const char *suite, const char *only, struct test_list *out,
		      struct uerr *e)
{
	_cleanup_free_ char *sdir = xasprintf("%s/%s", dir, suite);
	_cleanup_free_ char *spath = xasprintf("%s/settings", sdir);
	_cleanup_free_ char *text = NULL;
	struct test d = { .timeout = TEST_TIMEOUT_DEFAULT,
			  .wall_timeout = TEST_WALL_TIMEOUT_DEFAULT };
	struct dirent **names;
	size_t before = out->n;
	int n;

	if (read_file(spath, &text, NULL) == 0 && settings_parse(text, spath, &d, e) < 0)
		return -1;
	n = scandir(sdir, &names, NULL, alphasort);
	if (n < 0)
		return uerr_set(e, EXIT_USAGE, "unknown suite '%s'; see 'umlrun list'", suite);
	for (int i = 0; i < n; i++) {
		const char *f = names[i]->d_name;

		if (is_test_file(f) && (!only || !strcmp(only, f))) {
			struct test t = d;

			t.suite = xstrdup(suite);
			t.file = xstrdup(f);
			t.id = xasprintf("%s/%s", suite, f);
			t.mem = d.mem ? xstrdup(d.mem) : NULL;
			t.cmdline = d.cmdline ? xstrdup(d.cmdline) : NULL;
			out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
			out->v[out->n++] = t;
		}
		free(names[i]);
	}
	free(names);
	free(d.mem);
	free(d.cmdline);
	if (out->n == before)
		return uerr_set(e, EXIT_USAGE,
				only ? "unknown test '%s/%s'; see 'umlrun list'"
				     : "suite '%s' has no test files%s",
				suite, only ? only : "");
	return 0;
}

static int load_arg(const char *dir, const char *arg, struct test_list *out, struct uerr *e)
{
	_cleanup_free_ char *a = xstrdup(arg);
	_cleanup_free_ char *file = NULL;
	char *slash;
	size_t l;

	if (!strncmp(a, "testsuites/", 11))
		memmove(a, a + 11, strlen(a + 11) + 1);
	l = strlen(a);
	while (l && a[l - 1] == '/')
		a[--l] = '\0';
	if (!*a || strstr(a, "..") || a[0] == '/' || !strcmp(a, "lib"))
		return uerr_set(e, EXIT_USAGE, "unknown suite or test '%s'; see 'umlrun list'",
				arg);
	slash = strchr(a, '/');
	if (!slash)
		return load_suite(dir, a, NULL, out, e);
	*slash = '\0';
	file =
	    l > 3 && !strcmp(a + l - 3, ".sh") ? xstrdup(slash + 1) : xasprintf("%s.sh", slash + 1);
	if (!is_test_file(file))
		return uerr_set(e, EXIT_USAGE, "'%s' is not a test file name (tNNNN-name.sh)", arg);
	return load_suite(dir, a, file, out, e);
}

int suites_find(const char *dir, char *const *args, int nargs, struct test_list *out,
		struct uerr *e)
{
	memset(out, 0, sizeof(*out));
	if (nargs == 0) {
		struct dirent **names;
		int n = scandir(dir, &names, NULL, alphasort);
		int r = 0;

		if (n < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot read %s", dir);
		for (int i = 0; i < n; i++) {
			_cleanup_free_ char *p = xasprintf("%s/%s", dir, names[i]->d_name);

			if (r == 0 && names[i]->d_name[0] != '.' &&
			    strcmp(names[i]->d_name, "lib") && is_dir(p))
				r = load_suite(dir, names[i]->d_name, NULL, out, e);
			free(names[i]);
		}
		free(names);
		return r;
	}
	for (int i = 0; i < nargs; i++)
		if (load_arg(dir, args[i], out, e) < 0)
			return -1;
	return 0;
}

void test_free(struct test *t)
{
	free(t->suite);
	free(t->file);
	free(t->id);
	free(t->mem);
	free(t->cmdline);
}

void tests_free(struct test_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		test_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
