// SPDX-License-Identifier: MIT
/* hwsim.c - hostap's tests/hwsim cases: listed, selected, written as a suite. */
#define _GNU_SOURCE
#include "hwsim.h"

#include <dirent.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "suite.h"

static void push(struct hwsim_list *l, const char *module, const char *name, size_t len)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].module = xstrdup(module);
	l->v[l->n].name = xstrndup(name, len);
	l->n++;
}

/*
 * A case is a function run-tests.py finds as test_NAME in the module: a
 * `def test_NAME(` at the start of a line. Its name travels on the kernel
 * command line of no one (the test file holds it), but in KTAP result
 * lines and folder names: only names that are plain identifiers count.
 */
void hwsim_list_parse(const char *module, const char *text, struct hwsim_list *out)
{
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');

		if (!strncmp(p, "def test_", 9)) {
			const char *name = p + 9;
			size_t len = strspn(name, "abcdefghijklmnopqrstuvwxyz"
						  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

			if (len && name[len] == '(')
				push(out, module, name, len);
		} else if (!strncmp(p, "from Crypto.", 12) || !strncmp(p, "import Crypto", 13)) {
			/* At the start of a line: not inside a try that falls back. */
			out->crypto_alias = true;
		}
		p = *nl ? nl + 1 : nl;
	}
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int hwsim_list_read(const char *tree, struct hwsim_list *out, struct uerr *e)
{
	_cleanup_free_ char *dir = xasprintf("%s/tests/hwsim", tree);
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	memset(out, 0, sizeof(*out));
	if (n < 0)
		return uerr_sys(e, EXIT_USAGE, "--hostap=%s: cannot read %s", tree, dir);
	for (int i = 0; i < n; i++) {
		const char *f = names[i]->d_name;
		size_t len = strlen(f);

		if (!strncmp(f, "test_", 5) && len > 8 && !strcmp(f + len - 3, ".py")) {
			_cleanup_free_ char *path = xasprintf("%s/%s", dir, f);
			_cleanup_free_ char *module = xstrndup(f + 5, len - 8);
			_cleanup_free_ char *text = NULL;

			if (read_file(path, &text, NULL) == 0)
				hwsim_list_parse(module, text, out);
		}
		free(names[i]);
	}
	free(names);
	if (!out->n)
		return uerr_set(e, EXIT_USAGE,
				"--hostap=%s: tests/hwsim holds no test case (no test_*.py with a "
				"def test_NAME); give a hostap checkout",
				tree);
	return 0;
}

static bool matches(const char *pattern, const char *name)
{
	size_t l = strlen(pattern);

	if (l && pattern[l - 1] == '*')
		return !strncmp(pattern, name, l - 1);
	return !strcmp(pattern, name);
}

/* Adds all[i] to out unless taken already (taken: one flag a case). */
static void take(const struct hwsim_list *all, size_t i, bool *taken, struct hwsim_list *out)
{
	if (taken[i])
		return;
	taken[i] = true;
	push(out, all->v[i].module, all->v[i].name, strlen(all->v[i].name));
}

int hwsim_select(const struct hwsim_list *all, char *const *args, size_t nargs,
		 char *const *modules, size_t nmodules, struct hwsim_list *out, struct uerr *e)
{
	_cleanup_free_ bool *taken = xcalloc(all->n ? all->n : 1, sizeof(bool));

	memset(out, 0, sizeof(*out));
	if (!nargs && !nmodules) {
		for (size_t i = 0; i < all->n; i++)
			take(all, i, taken, out);
		return 0;
	}
	for (size_t m = 0; m < nmodules; m++) {
		const char *mod = modules[m];
		bool found = false;

		if (!strncmp(mod, "test_", 5))
			mod += 5;
		for (size_t i = 0; i < all->n; i++)
			if (!strcmp(all->v[i].module, mod)) {
				take(all, i, taken, out);
				found = true;
			}
		if (!found) {
			hwsim_list_free(out);
			return uerr_set(
			    e, EXIT_USAGE,
			    "hwsim: no test module '%s' with cases (tests/hwsim/test_%s.py); "
			    "'umlrun hwsim --list' names them",
			    modules[m], mod);
		}
	}
	for (size_t a = 0; a < nargs; a++) {
		bool found = false;

		for (size_t i = 0; i < all->n; i++)
			if (matches(args[a], all->v[i].name)) {
				take(all, i, taken, out);
				found = true;
			}
		if (!found) {
			hwsim_list_free(out);
			return uerr_set(
			    e, EXIT_USAGE,
			    "hwsim: no test case '%s' in tests/hwsim; 'umlrun hwsim --list' "
			    "names them (a prefix ends in '*')",
			    args[a]);
		}
	}
	return 0;
}

/*
 * n cases in b batches over j guests take about (n + b*S)/j case-times
 * (S: HWSIM_SETUP_CASES, a guest's start-up), and the run's end about
 * half a batch more, n/(2b), while one guest finishes alone. That is
 * least at b = sqrt(n*j/(2S)), a batch of sqrt(2*S*n/j) cases: 28 of
 * 95 cases at -j2, 150 (the bound) of the whole suite's 4,475.
 */
size_t hwsim_batch_size(size_t n, int jobs)
{
	size_t square = 2 * HWSIM_SETUP_CASES * n / (size_t)(jobs > 0 ? jobs : 1);
	size_t want = HWSIM_BATCH_MIN;

	/* The square root rounded up, within the bounds. */
	while (want < HWSIM_BATCH_MAX && want * want < square)
		want++;
	return want;
}

/*
 * Batches: a module's cases in runs of at most max, split evenly (101
 * cases, max 40: 34, 34, 33); a module of few cases joins the batch
 * before it while that stays within the bound.
 */
void hwsim_batches(const struct hwsim_list *sel, size_t max, size_t **starts, size_t *n)
{
	size_t cur = 0; /* cases in the open batch */

	*starts = NULL;
	*n = 0;
	for (size_t i = 0; i < sel->n;) {
		size_t j = i, m, parts, size;

		while (j < sel->n && !strcmp(sel->v[j].module, sel->v[i].module))
			j++;
		m = j - i;
		parts = (m + max - 1) / max;
		if (*n && parts == 1 && cur + m <= max) {
			cur += m; /* joins the open batch */
			i = j;
			continue;
		}
		for (size_t p = 0; p < parts; p++) {
			size = m / parts + (p < m % parts);
			*starts = xrealloc(*starts, (*n + 1) * sizeof(**starts));
			(*starts)[(*n)++] = i;
			i += size;
			cur = size;
		}
	}
}

char *hwsim_batch_file(const struct hwsim_list *sel, const size_t *starts, size_t nb, size_t b)
{
	size_t first = starts[b], end = b + 1 < nb ? starts[b + 1] : sel->n, part = 0;

	/* The part of its module this batch is, when the module is split. */
	for (size_t k = b; k > 0 && !strcmp(sel->v[starts[k - 1]].module, sel->v[first].module);
	     k--)
		part++;
	if (part || (end < sel->n && !strcmp(sel->v[end].module, sel->v[first].module) &&
		     !strcmp(sel->v[end - 1].module, sel->v[first].module)))
		return xasprintf("t%04zu-%s-%zu.sh", b + 1, sel->v[first].module, part + 1);
	return xasprintf("t%04zu-%s.sh", b + 1, sel->v[first].module);
}

int hwsim_suite_write(const char *suites, const struct hwsim_list *sel,
		      const struct hwsim_layout *l, struct uerr *e)
{
	_cleanup_free_ char *dir = xasprintf("%s/" HWSIM_SUITE, suites);
	_cleanup_free_ char *settings = xasprintf("%s/settings", dir);
	_cleanup_free_ size_t *starts = NULL;
	struct strbuf sb = { 0 };
	size_t nb;

	if (mkdir(dir, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", dir);
	sb_printf(&sb,
		  "# Made by umlrun hwsim (runner/run/hwsim.c): hostap's tests/hwsim,\n"
		  "# %zu cases.\n"
		  "timeout=%ld\n"
		  "wall_timeout=%g\n"
		  "mem=%s\n",
		  sel->n, l->timeout, l->wall_timeout, l->mem);
	if (sb_write_atomic(settings, &sb, e) < 0)
		return -1;
	hwsim_batches(sel, l->batch ? l->batch : HWSIM_BATCH_MAX, &starts, &nb);
	for (size_t b = 0; b < nb; b++) {
		size_t first = starts[b], end = b + 1 < nb ? starts[b + 1] : sel->n;
		_cleanup_free_ char *file = hwsim_batch_file(sel, starts, nb, b);
		_cleanup_free_ char *path = xasprintf("%s/%s", dir, file);

		if (!test_name_valid(file))
			return uerr_set(
			    e, EXIT_USAGE,
			    "hwsim: test module '%s' has a name umlrun cannot carry (it "
			    "%s)",
			    sel->v[first].module, TEST_NAME_RULE);
		sb_printf(&sb,
			  "#!/bin/sh\n"
			  "# Made by umlrun hwsim: %zu of hostap's tests/hwsim cases, from %s.\n"
			  "HWSIM_RADIOS=%d\n"
			  "%s"
			  ". ../lib/hwsim.sh\n"
			  "hwsim_cases",
			  end - first, sel->v[first].module, l->radios,
			  l->crypto_alias ? "HWSIM_PY_CRYPTO=alias\n" : "");
		for (size_t i = first; i < end; i++)
			sb_printf(&sb, " \\\n\t%s", sel->v[i].name);
		sb_adds(&sb, "\n");
		if (sb_write_atomic(path, &sb, e) < 0)
			return -1;
		if (chmod(path, 0755) < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot chmod %s", path);
	}
	return 0;
}

void hwsim_list_free(struct hwsim_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].module);
		free(l->v[i].name);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* notBefore and notAfter of the first certificate in a PEM file, Unix seconds. */
static int cert_validity(const char *path, int64_t *from, int64_t *to)
{
	FILE *f = fopen(path, "re");
	X509 *x;
	struct tm tm;
	int r = -1;

	if (!f)
		return -1;
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	if (!x)
		return -1;
	if (ASN1_TIME_to_tm(X509_get0_notBefore(x), &tm) == 1) {
		*from = (int64_t)timegm(&tm);
		if (ASN1_TIME_to_tm(X509_get0_notAfter(x), &tm) == 1) {
			*to = (int64_t)timegm(&tm);
			r = 0;
		}
	}
	X509_free(x);
	return r;
}

int hwsim_start_of(const char *tree, int64_t *secs, struct uerr *e)
{
	static const char *const certs[] = { "ca.pem", "server.pem", "user.pem" };
	int64_t from = 0, to = INT64_MAX;
	size_t seen = 0;

	for (size_t i = 0; i < sizeof(certs) / sizeof(certs[0]); i++) {
		_cleanup_free_ char *path =
		    xasprintf("%s/tests/hwsim/auth_serv/%s", tree, certs[i]);
		int64_t a, b;

		if (cert_validity(path, &a, &b) < 0)
			continue;
		seen++;
		from = a > from ? a : from;
		to = b < to ? b : to;
	}
	if (!seen)
		return uerr_set(
		    e, EXIT_USAGE,
		    "hwsim: no certificate readable in %s/tests/hwsim/auth_serv (ca.pem, "
		    "server.pem); give --start=WHEN inside their validity",
		    tree);
	/* The next midnight (UTC) a day on: a round date, inside the validity. */
	*secs = (from / 86400 + 2) * 86400;
	if (*secs >= to)
		*secs = from + (to - from) / 2;
	return 0;
}

/* The cases a batch file names: the words after its `hwsim_cases`. */
static size_t batch_cases(const char *text, char ***out)
{
	const char *p = strstr(text, "\nhwsim_cases");
	char **v = NULL;
	size_t n = 0;

	if (p)
		p += strlen("\nhwsim_cases");
	while (p && *p) {
		size_t skip = strspn(p, " \t\\\n"), len;

		p += skip;
		len = strcspn(p, " \t\\\n");
		if (!len)
			break;
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrndup(p, len);
		v[n] = NULL;
		p += len;
	}
	*out = v;
	return n;
}

/*
 * Test file name (its id's), its cases those n of cases after t's head,
 * written in both dirs under the name of its content (hwsim_follow_up).
 */
static struct test *batch_file(const char *const dirs[2], const struct test *t, const char *text,
			       const char *name, char **cases, size_t n)
{
	const char *head_end = strstr(text, "\nhwsim_cases");
	_cleanup_free_ char *staged = NULL;
	struct hasher *h;
	struct strbuf sb = { 0 };
	struct test *nt = NULL;
	char hex[65];

	if (!head_end || !test_name_valid(name))
		return NULL;
	/* The batch's head (up to its hwsim_cases), then the cases. */
	sb_add(&sb, text, (size_t)(head_end - text) + 1);
	sb_adds(&sb, "hwsim_cases");
	for (size_t i = 0; i < n; i++)
		sb_printf(&sb, " \\\n\t%s", cases[i]);
	sb_adds(&sb, "\n");
	h = hasher_new();
	hasher_add(h, sb.buf, sb.len);
	hasher_final(h, hex);
	staged = xasprintf("%.*s.%.*s.sh", (int)(strlen(name) - 3), name, HWSIM_STAGED_HASH, hex);
	for (int d = 0; d < 2; d++) {
		_cleanup_free_ char *to = xasprintf("%s/%s", dirs[d], staged);

		if (write_file_atomic(to, sb.buf, sb.len) < 0 || chmod(to, 0755) < 0) {
			sb_release(&sb);
			return NULL;
		}
	}
	sb_release(&sb);
	nt = xcalloc(1, sizeof(*nt));
	*nt = *t;
	nt->suite = xstrdup(t->suite);
	nt->file = xstrdup(name);
	nt->id = xasprintf("%s/%s", t->suite, name);
	nt->staged_id = xasprintf("%s/%s", t->suite, staged);
	nt->mem = t->mem ? xstrdup(t->mem) : NULL;
	nt->cmdline = t->cmdline ? xstrdup(t->cmdline) : NULL;
	return nt;
}

const struct test **hwsim_follow_up(const char *const dirs[2], const struct test *t, enum verdict v,
				    struct ktap *k, bool retry)
{
	/* What its guest read: a follow-up's own file, by its content. */
	const char *staged = t->staged_id ? strrchr(t->staged_id, '/') : NULL;
	_cleanup_free_ char *path = xasprintf("%s/%s", dirs[0], staged ? staged + 1 : t->file);
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *stem = NULL;
	const struct test **more = xcalloc(3, sizeof(*more));
	char **cases = NULL, **failed = NULL, *at;
	size_t n, nmore = 0, nfailed = 0, done = k->ncases + k->dropped;
	bool stuck = (v == V_TIMEOUT || v == V_CRASH) && done < SIZE_MAX;
	/*
	 * Ended with cases left and no limit hit: run-tests.py stopped (a case
	 * killed it, it ran out of memory, "Terminating early"). The guest
	 * failed the case it stopped in; the ones after go on in a fresh guest,
	 * once at least one case reported (else a guest that cannot set up
	 * would follow itself up for ever).
	 */
	bool cut = !stuck && v != V_INTERRUPTED && done > 0 && done < SIZE_MAX;

	if (read_file(path, &text, NULL) < 0)
		return more;
	n = batch_cases(text, &cases);
	stem = xstrndup(t->file, strlen(t->file) - 3);
	/* A retry's failures stay failures; its own stuck case too. */
	if (ends_with(stem, HWSIM_RETRY_SUFFIX))
		retry = false;
	if (retry)
		for (size_t i = 0; i < k->ncases; i++)
			if (k->cases[i].result == KTAP_FAIL) {
				failed = xrealloc(failed, (nfailed + 1) * sizeof(*failed));
				failed[nfailed++] = k->cases[i].title;
			}
	if (stuck && done < n) {
		/* The case it was in: a failure of its own, in the reports too. */
		_cleanup_free_ char *line = xasprintf("not ok %zu %s", done + 1, cases[done]);
		_cleanup_free_ char *name = NULL;

		ktap_feed(k,
			  "# the guest was stuck in this case (the test file's reason says how)");
		ktap_feed(k, line);
		/* tNNNN-MODULE-after-CASE.sh: named for where it picks up. */
		if (done + 1 < n) {
			_cleanup_free_ char *base = xstrdup(stem);

			if ((at = strstr(base, "-after-")))
				*at = '\0';
			name = xasprintf("%s-after-%s.sh", base, cases[done]);
			if ((more[nmore] =
				 batch_file(dirs, t, text, name, cases + done + 1, n - done - 1)))
				nmore++;
		}
	}
	if (cut && done < n) {
		_cleanup_free_ char *base = xstrdup(stem);
		_cleanup_free_ char *name = NULL;

		if ((at = strstr(base, "-after-")))
			*at = '\0';
		name = xasprintf("%s-after-%s.sh", base, cases[done - 1]);
		if ((more[nmore] = batch_file(dirs, t, text, name, cases + done, n - done)))
			nmore++;
	}
	if (nfailed) {
		_cleanup_free_ char *name = xasprintf("%s" HWSIM_RETRY_SUFFIX ".sh", stem);

		if ((more[nmore] = batch_file(dirs, t, text, name, failed, nfailed)))
			nmore++;
	}
	free(failed);
	strv_free(cases);
	return more;
}

/* The titles of the failed cases of r, ", "-separated, or NULL for none. */
static char *failed_titles(const struct record *r, size_t *n)
{
	struct strbuf sb = { 0 };

	*n = 0;
	for (size_t i = 0; i < r->ktap.ncases; i++)
		if (r->ktap.cases[i].result == KTAP_FAIL) {
			sb_printf(&sb, "%s%s", *n ? ", " : "", r->ktap.cases[i].title);
			(*n)++;
		}
	return sb.len ? sb_detach(&sb) : NULL;
}

static bool passed_in(const struct record *r, const char *title)
{
	for (size_t i = 0; i < r->ktap.ncases; i++)
		if (!strcmp(r->ktap.cases[i].title, title))
			return r->ktap.cases[i].result == KTAP_PASS;
	return false;
}

void hwsim_flaky(struct record *rec, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *file = rec[i].test->file;
		_cleanup_free_ char *orig = NULL;
		size_t len = strlen(file), tail = strlen(HWSIM_RETRY_SUFFIX ".sh");

		if (!ends_with(file, HWSIM_RETRY_SUFFIX ".sh"))
			continue;
		orig = xasprintf("%.*s.sh", (int)(len - tail), file);
		for (size_t j = 0; j < n; j++) {
			struct record *o = &rec[j];
			_cleanup_free_ char *names = NULL;
			size_t nf, again = 0;

			/* Its own run's retry: the same seed (--seeds), the same run (--repeat). */
			if (o->verdict != V_FAIL || o->attempt != rec[i].attempt ||
			    strcmp(o->test->file, orig) ||
			    strcmp(o->test->suite, rec[i].test->suite))
				continue;
			names = failed_titles(o, &nf);
			for (size_t c = 0; c < o->ktap.ncases; c++)
				again += o->ktap.cases[c].result == KTAP_FAIL &&
					 !passed_in(&rec[i], o->ktap.cases[c].title);
			if (!nf || again)
				continue;
			o->verdict = V_FLAKY;
			free(o->reason);
			o->reason =
			    xasprintf("flaky: %s failed, then passed alone in %s", names, file);
		}
	}
}
