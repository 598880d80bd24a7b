// SPDX-License-Identifier: MIT
/* suite.c - discover suites and test files, read settings. */
#define _GNU_SOURCE
#include "suite.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static bool is_test_file(const char *name)
{
	return fnmatch("t[0-9][0-9][0-9][0-9]-*.sh", name, 0) == 0;
}

/* A folder holding no test file is no suite (a suite's data, fixtures): every-suite runs pass it
 * by. */
static bool has_test_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	if (!d)
		return true; /* load_suite says why it cannot be read */
	while (!found && (de = readdir(d)))
		found = is_test_file(de->d_name);
	closedir(d);
	return found;
}

/* A run folder's own files, which a suite's folder beside them may not be named. */
static bool run_file_name(const char *suite)
{
	static const char *const own[] = { "results.json", "junit.xml", "report.html", "ktap.txt" };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(suite, own[i]))
			return true;
	return false;
}

bool test_stem_run_folder_like(const char *stem, size_t n)
{
	size_t d = n;

	while (d > 0 && isdigit((unsigned char)stem[d - 1]))
		d--;
	if (d == n)
		return false;
	return (d >= 1 && stem[d - 1] == '.') || (d >= 4 && !strncmp(stem + d - 4, ".try", 4));
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

unsigned long long guest_mem_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	return pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : 0;
}

int guest_mem_check(const char *what, const char *size, struct uerr *e)
{
	unsigned long long v = size_bytes(size), max = guest_mem_max();
	char range[64];

	if (max)
		snprintf(range, sizeof(range), "give %dM to %lluM", GUEST_MEM_MIN_MB, max >> 20);
	else
		snprintf(range, sizeof(range), "give %dM or more", GUEST_MEM_MIN_MB);
	if (v < (unsigned long long)GUEST_MEM_MIN_MB << 20)
		return uerr_set(e, EXIT_USAGE, "%s: below the %dM a guest needs to boot (%s)", what,
				GUEST_MEM_MIN_MB, range);
	if (max && v > max)
		return uerr_set(e, EXIT_USAGE, "%s: more than this host's %lluM of RAM (%s)", what,
				max >> 20, range);
	return 0;
}

bool test_name_valid(const char *s)
{
	return *s && !s[strspn(s, TEST_NAME_CHARS)];
}

/*
 * The guest gets a copy of the folder of suites (root) with its links as
 * they are (cp -a): a link out of it, or an absolute one, points at
 * nothing there, and the test ran and failed ("can't open", "cannot
 * enter"). Refused rather than followed: a suite's link to a host file
 * would bring that file into the guest. A link that leads nowhere on the
 * host too is left to the caller's own check.
 */
static int link_check(const char *root, const char *path, struct uerr *e)
{
	_cleanup_free_ char *real_root = NULL;
	_cleanup_free_ char *real = NULL;
	_cleanup_free_ char *shown = NULL;
	_cleanup_free_ char *shown_target = NULL;
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return 0;
	n = readlink(path, target, sizeof(target) - 1);
	real = realpath(path, NULL);
	real_root = realpath(root, NULL);
	if (n < 0 || !real || !real_root)
		return 0;
	target[n] = '\0';
	if (target[0] != '/' && path_within(real, real_root) && strcmp(real, real_root))
		return 0;
	shown = str_printable(path);
	shown_target = str_printable(target);
	return uerr_set(e, EXIT_USAGE,
			"'%s': a link to '%s', which the guest cannot follow: it gets a copy of "
			"%s with the links as they are; copy the file in, or link by a "
			"relative path inside that folder",
			shown, shown_target, root);
}

/*
 * A test file is an executable file (docs/harness.md): a folder named
 * like one was listed and run ("no plan line"), and a file without its
 * execute bit ran although no other runner of the suite would run it.
 * Followed through a link that stays inside root, as the guest's copy
 * of it holds it.
 */
static int test_file_check(const char *root, const char *sdir, const char *f, struct uerr *e)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", sdir, f);
	struct stat st;

	if (link_check(root, path, e) < 0)
		return -1;
	if (stat(path, &st) < 0)
		return uerr_sys(e, EXIT_USAGE, "cannot read the test file '%s'", path);
	if (S_ISDIR(st.st_mode))
		return uerr_set(
		    e, EXIT_USAGE,
		    "'%s': a folder named like a test file (tNNNN-name.sh), which is an "
		    "executable file; rename the folder",
		    path);
	if (!S_ISREG(st.st_mode))
		return uerr_set(e, EXIT_USAGE,
				"'%s': a test file must be an executable regular file, not a fifo, "
				"socket or device",
				path);
	if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return uerr_set(e, EXIT_USAGE,
				"'%s': a test file must be executable; chmod +x '%s' (or rename it "
				"if it is no test)",
				path, path);
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

#define SETTINGS_KEYS "want timeout=, wall_timeout=, mem=, cmdline= or shell="

/*
 * timeout= and wall_timeout=: whole seconds from 1 to max, the same bounds
 * as --timeout and --wall-timeout.
 */
static bool seconds_valid(const char *v, long max, long *out)
{
	char *end;

	/* Digits only: strtol would take blanks and a sign (+5) too. */
	if (*v < '0' || *v > '9')
		return false;
	errno = 0;
	*out = strtol(v, &end, 10);
	return !errno && end != v && !*end && *out > 0 && *out <= max;
}

/*
 * The shape of a key=value line, before its key's own check: each mistake a
 * hand-edited file is likely to hold gets a message of its own. Cuts line at
 * its '=' and points *val at the value; returns what is wrong, or NULL.
 */
static const char *settings_split(char *line, char **val)
{
	char *v = strchr(line, '=');
	bool cmdline;
	size_t n;

	if (is_blank(line[0]))
		return "leading blanks are not allowed: start the line with its key, or with # "
		       "for a comment";
	if (!v)
		return "not a key=value line: " SETTINGS_KEYS;
	*v++ = '\0';
	cmdline = !strcmp(line, "cmdline");
	n = strlen(line);
	if ((n && is_blank(line[n - 1])) || (!cmdline && is_blank(v[0])))
		return "blanks around '=' are not allowed";
	if (strcmp(line, "timeout") && strcmp(line, "wall_timeout") && strcmp(line, "mem") &&
	    !cmdline && strcmp(line, "shell"))
		return "unknown key: " SETTINGS_KEYS;
	/* cmdline= holds blanks, and a '#' inside a word (a=b#c) is the kernel's. */
	for (const char *p = v; *p; p++)
		if (*p == '#' && (!cmdline || p == v || is_blank(p[-1])))
			return "a comment must be a line of its own, starting with #";
	n = strlen(v);
	if (!cmdline && n && is_blank(v[n - 1]))
		return "blanks after the value are not allowed";
	*val = v;
	return NULL;
}

/*
 * UML's parameters that hand it a host file, device, socket or program
 * (arch/um's __setup and __uml_setup names): a block device over a host
 * file, a network transport, mconsole's notify socket, an xterm, the
 * host's sound devices, a device tree or initrd read from the host, and
 * its --help and --version, which end it at once. Confinement keeps the
 * files out of reach, but a suite has no business naming them. A name
 * ending in '*' is refused by its start (vec: the kernel reads vec+0 as
 * vec0), in '#' by its start and a digit.
 */
static const char *const uml_host_words[] = { "ubd*",	     "udb*",	     "fake_ide",   "eth#",
					      "vec*",	     "iomem",	     "mconsole",   "xterm",
					      "initrd",	     "dtb",	     "dsp",	   "mixer",
					      "hostaudio.*", "virtio_uml.*", "vfio_uml.*", "stderr",
					      "ncpus",	     "noreboot",     "__*" };

static bool cmdline_host_word(const char *word)
{
	for (size_t i = 0; i < sizeof(uml_host_words) / sizeof(uml_host_words[0]); i++) {
		const char *w = uml_host_words[i];
		size_t n = strcspn(w, "*#");

		if (strncmp(word, w, n))
			continue;
		if (w[n] == '*' || (w[n] == '#' && word[n] >= '0' && word[n] <= '9') ||
		    (!w[n] && !word[n]))
			return true;
	}
	return false;
}

/*
 * A cmdline= word umlrun sets itself, or NULL: the suite's words come last
 * on the line, so one of these would override the run's --timeout, the
 * checked mem=, the guest's root or the serial lines umlrun reads. *host
 * says the word is one of UML's host devices instead.
 */
static const char *cmdline_own_word(const char *words, bool *host)
{
	/* Names as the kernel compares them: '-' and '_' alike (parameqn). */
	static const char *const keys[] = { "mem",
					    "umid",
					    "uml_dir",
					    "hostfs",
					    "root",
					    "rootfstype",
					    "rootflags",
					    "init",
					    "ro",
					    "rw",
					    "time_travel",
					    "time_travel_start",
					    "seccomp",
					    "ssl_non_raw",
					    "panic",
					    "mac80211_hwsim.radios",
					    "uml_syscall_cost" };
	static char word[64];
	const char *p = words;

	while (*p) {
		size_t n, k = 0;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		/*
		 * The key as the kernel and the init read it: quotes dropped
		 * anywhere in the word ("umlrun.timeout=1" is umlrun.timeout),
		 * '-' as '_'.
		 */
		for (size_t i = 0; i < n && p[i] != '=' && k < sizeof(word) - 1; i++)
			if (p[i] != '"')
				word[k++] = p[i] == '-' ? '_' : p[i];
		word[k] = '\0';
		*host = cmdline_host_word(word);
		if (*host)
			return word;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(word, keys[i]))
				return word;
		if (!strncmp(word, "umlrun.", 7) ||
		    /* con6, con0x6 and con06 alike: the kernel reads the number in any base. */
		    ((!strncmp(word, "con", 3) || !strncmp(word, "ssl", 3)) &&
		     (!word[3] || (word[3] >= '0' && word[3] <= '9'))))
			return word;
		p += n;
	}
	return NULL;
}

/* The keys of a settings file, each of which may be given once. */
static const char *const settings_keys[] = { "timeout", "wall_timeout", "mem", "cmdline", "shell" };
#define NKEYS (sizeof(settings_keys) / sizeof(settings_keys[0]))

static int settings_line(char *line, const char *at, int lineno, int first[NKEYS], struct test *d,
			 struct uerr *e)
{
	size_t n = strlen(line);
	_cleanup_free_ char *shown = NULL;
	const char *why;
	char *eq;
	long v;

	if (n && line[n - 1] == '\r')
		return uerr_set(e, EXIT_USAGE,
				"%s: a CR at the end of the line (a Windows line ending): save "
				"the file with LF line endings",
				at);
	if (!line[strspn(line, " \t")] || line[0] == '#')
		return 0;
	shown = str_printable(line);
	for (const char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			return uerr_set(e, EXIT_USAGE, "%s: %s: a control character is not allowed",
					at, shown);
	why = settings_split(line, &eq);
	if (why)
		return uerr_set(e, EXIT_USAGE, "%s: %s: %s", at, shown, why);
	for (size_t k = 0; k < NKEYS; k++) {
		if (strcmp(line, settings_keys[k]))
			continue;
		if (first[k])
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: %s= is set on line %d already; keep one of the "
					"two",
					at, shown, line, first[k]);
		first[k] = lineno;
	}
	if (!strcmp(line, "timeout")) {
		if (!seconds_valid(eq, TEST_TIMEOUT_MAX, &v))
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: not a whole number of seconds from 1 to %ld", at,
					shown, TEST_TIMEOUT_MAX);
		d->timeout = v;
	} else if (!strcmp(line, "wall_timeout")) {
		if (!seconds_valid(eq, TEST_WALL_TIMEOUT_MAX, &v))
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: not a whole number of seconds from 1 to %ld", at,
					shown, TEST_WALL_TIMEOUT_MAX);
		d->wall_timeout = (double)v;
	} else if (!strcmp(line, "mem")) {
		if (!mem_size_valid(eq))
			return uerr_set(e, EXIT_USAGE,
					"%s: mem=%s is not a size: want a number with an optional "
					"K, M or G (mem=512M)",
					at, eq);
		{
			_cleanup_free_ char *what = xasprintf("%s: mem=%s", at, eq);

			/* 32M to the host's RAM, as --mem. */
			if (guest_mem_check(what, eq, e) < 0)
				return -1;
		}
		free(d->mem);
		d->mem = xstrdup(eq);
	} else if (!strcmp(line, "cmdline")) {
		const char *own;
		bool host = false;

		if (!eq[strspn(eq, " \t")])
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: no kernel parameters after cmdline=; give some, "
					"or drop the line",
					at, shown);
		/* Kernel parameters are ASCII; the kernel reads 0xA0 as a blank. */
		for (const unsigned char *q = (const unsigned char *)eq; *q; q++)
			if (*q >= 0x80)
				return uerr_set(e, EXIT_USAGE,
						"%s: %s: a byte that is not ASCII (0x%02x); kernel "
						"parameters are ASCII",
						at, shown, *q);
		if ((own = cmdline_own_word(eq, &host)) && host)
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: %s would give UML a host file, device or program; "
					"a suite may not name one (put files in the suite folder, "
					"or use --mount)",
					at, shown, own);
		if (own && !strcmp(own, "mac80211_hwsim.radios"))
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: guests boot with no radios and a test makes its "
					"own ('hwsimctl new', docs/wireless.md; 'umlrun hwsim' "
					"makes hostap's 7)",
					at, shown);
		if (own)
			return uerr_set(e, EXIT_USAGE,
					"%s: %s: %s is umlrun's own parameter (its limits, memory, "
					"root or lines); use the settings key or option for it",
					at, shown, own);
		free(d->cmdline);
		d->cmdline = xstrdup(eq);
	} else if (!strcmp(eq, "sh")) {
		d->shell = NULL;
	} else if (!strcmp(eq, "dash")) {
		d->shell = TEST_SHELL_DASH;
	} else {
		return uerr_set(e, EXIT_USAGE,
				"%s: shell=%s: want sh (busybox ash, the default) or dash", at, eq);
	}
	return 0;
}

/*
 * A settings file is strict: key=value from the first column, no blanks
 * around '=' or after the value (cmdline= excepted), comments on lines of
 * their own. Each mistake is refused with what is wrong, not read as
 * something else.
 */
int settings_parse(const char *text, const char *file, struct test *d, struct uerr *e)
{
	const char *p = text;
	int first[NKEYS] = { 0 };

	for (int lineno = 1; *p; lineno++) {
		const char *nl = strchrnul(p, '\n');
		_cleanup_free_ char *line = xstrndup(p, (size_t)(nl - p));
		_cleanup_free_ char *at = xasprintf("%s:%d", file, lineno);

		p = *nl ? nl + 1 : nl;
		if (settings_line(line, at, lineno, first, d, e) < 0)
			return -1;
	}
	return 0;
}

/*
 * A suite is checked whole whenever it is loaded (named, or every suite when
 * none is): its folder's name, its settings and the names of all its test
 * files, even when only one of them was asked for, so a suite either works
 * or fails the same way however it is selected. A suite not loaded is not
 * read at all.
 */
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
	int n, r = 0;

	n = scandir(sdir, &names, NULL, alphasort);
	if (n < 0)
		return uerr_set(e, EXIT_USAGE, "unknown suite '%s'; see 'umlrun list'", suite);
	if (link_check(dir, sdir, e) < 0) {
		while (n--)
			free(names[n]);
		free(names);
		return -1;
	}
	if (!test_name_valid(suite)) {
		_cleanup_free_ char *shown = str_printable(sdir);

		r = uerr_set(e, EXIT_USAGE, "'%s': a suite folder's name %s; rename it", shown,
			     TEST_NAME_RULE);
	} else if (run_file_name(suite)) {
		r = uerr_set(e, EXIT_USAGE,
			     "'%s': a suite folder may not be named %s, as a run folder's own "
			     "file is; rename it",
			     sdir, suite);
	} else if ((r = read_file(spath, &text, NULL)) == 0) {
		r = settings_parse(text, spath, &d, e);
	} else if (r == -ENOENT) {
		r = 0; /* no settings: the defaults */
	} else {
		r = uerr_set(e, EXIT_USAGE, "%s: %s", spath, read_file_error(r));
	}
	for (int i = 0; i < n; i++) {
		const char *f = names[i]->d_name;

		if (r == 0 && is_test_file(f) && !test_name_valid(f)) {
			_cleanup_free_ char *path = xasprintf("%s/%s", sdir, f);
			_cleanup_free_ char *shown = str_printable(path);

			r = uerr_set(e, EXIT_USAGE, "'%s': a test file's name %s; rename it", shown,
				     TEST_NAME_RULE);
		} else if (r == 0 && is_test_file(f) &&
			   test_stem_run_folder_like(f, strlen(f) - 3)) {
			r = uerr_set(
			    e, EXIT_USAGE,
			    "'%s/%s': a test file's name may not end in .N or .tryN before "
			    ".sh (the folders of another's repeats, seeds and retries are "
			    "named so); rename it",
			    sdir, f);
		} else if (r == 0 && is_test_file(f)) {
			r = test_file_check(dir, sdir, f, e);
		}
		if (r == 0 && is_test_file(f) && (!only || !strcmp(only, f))) {
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
	if (r == 0 && out->n == before)
		r = uerr_set(e, EXIT_USAGE,
			     only ? "unknown test '%s/%s'; see 'umlrun list'"
				  : "suite '%s' has no test files%s",
			     suite, only ? only : "");
	return r;
}

/*
 * A path to a suite or test file below dir, as a shell completes it
 * (suites/net/t0001-a.sh, ./net): its part below dir, or NULL. The last
 * part is not resolved, so a test file that is a link keeps its name.
 */
static char *below_dir(const char *dir, const char *arg)
{
	_cleanup_free_ char *copy = xstrdup(arg);
	_cleanup_free_ char *real_dir = realpath(dir, NULL);
	_cleanup_free_ char *parent = NULL;
	char *slash, *base;
	size_t l = strlen(copy);

	while (l > 1 && copy[l - 1] == '/')
		copy[--l] = '\0';
	slash = strrchr(copy, '/');
	if (!slash || !real_dir || !path_exists(arg))
		return NULL;
	*slash = '\0';
	base = slash + 1;
	parent = realpath(*copy ? copy : "/", NULL);
	if (!parent || !path_within(parent, real_dir))
		return NULL;
	if (!strcmp(parent, real_dir))
		return xstrdup(base);
	return xasprintf("%s/%s", parent + strlen(real_dir) + 1, base);
}

static int load_arg(const char *dir, const char *arg, struct test_list *out, struct uerr *e)
{
	_cleanup_free_ char *a = below_dir(dir, arg);
	_cleanup_free_ char *file = NULL;
	char *slash;
	size_t l;

	if (!a)
		a = xstrdup(arg);
	if (!strncmp(a, "testsuites/", 11))
		memmove(a, a + 11, strlen(a + 11) + 1);
	l = strlen(a);
	while (l && a[l - 1] == '/')
		a[--l] = '\0';
	if (!*a || strstr(a, "..") || a[0] == '/' || !strcmp(a, "lib") || !strcmp(a, ".") ||
	    !strncmp(a, "./", 2))
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
		bool own_tests = false;

		if (n < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot read %s", dir);
		for (int i = 0; i < n; i++) {
			_cleanup_free_ char *p = xasprintf("%s/%s", dir, names[i]->d_name);

			if (r == 0 && names[i]->d_name[0] != '.' &&
			    strcmp(names[i]->d_name, "lib") && is_dir(p) && has_test_files(p))
				r = load_suite(dir, names[i]->d_name, NULL, out, e);
			else if (is_test_file(names[i]->d_name))
				own_tests = true;
			free(names[i]);
		}
		free(names);
		/* --suite-dir=SUITE instead of the folder above it: say so. */
		if (r == 0 && out->n == 0)
			r = uerr_set(e, EXIT_USAGE,
				     own_tests ? "%s holds test files itself: give the folder that "
						 "holds its suite folders (--suite-dir=%s/..)"
					       : "no suite folders with test files in %s",
				     dir, dir);
		return r;
	}
	for (int i = 0; i < nargs; i++)
		if (load_arg(dir, args[i], out, e) < 0)
			return -1;
	/* A test named twice (smoke smoke/t0001-pass.sh) runs once, where first named. */
	{
		size_t n = 0;

		for (size_t i = 0; i < out->n; i++) {
			size_t j = 0;

			while (j < n && strcmp(out->v[j].id, out->v[i].id))
				j++;
			if (j < n)
				test_free(&out->v[i]);
			else
				out->v[n++] = out->v[i];
		}
		out->n = n;
	}
	return 0;
}

void test_free(struct test *t)
{
	free(t->suite);
	free(t->file);
	free(t->id);
	free(t->staged_id);
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
