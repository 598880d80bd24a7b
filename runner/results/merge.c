// SPDX-License-Identifier: MIT
/*
 * merge.c - one run folder from the shards' run folders (see merge.h).
 *
 * The phases: load every shard, check that they are the N distinct
 * shards of one split, order the records by id, then build the folder
 * beside OUT (test folders first, reports last) and rename it into place.
 * Any failure removes the temporary folder: OUT is never half-written.
 */
#define _GNU_SOURCE
#include "merge.h"
#include "supervise.h"

#include <dirent.h>
#include <signal.h>
#include <libgen.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "html.h"
#include "report.h"
#include "results_read.h"
#include "shard_spec.h"

struct shards {
	struct loaded_run *runs; /* as given */
	size_t nruns;
	int n;	     /* N, the number of shards */
	size_t *idx; /* idx[k - 1]: the run that is shard k */
};

static void shards_free(struct shards *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		results_free(&s->runs[i]);
	free(s->runs);
	free(s->idx);
}

/* Every shard's records; their subtests held to one file's bound in all (memory). */
static int load_all(char *const *dirs, size_t ndirs, struct shards *s, struct uerr *e)
{
	size_t subtests = 0;

	s->runs = xcalloc(ndirs, sizeof(*s->runs));
	for (size_t i = 0; i < ndirs; i++) {
		if (results_load(dirs[i], &s->runs[i], e) < 0)
			return -1;
		s->nruns = i + 1;
		for (size_t j = 0; j < s->runs[i].n; j++)
			subtests += s->runs[i].rec[j].ktap.ncases;
		if (subtests > RESULTS_SUBTESTS_MAX)
			return uerr_set(e, EXIT_USAGE,
					"the shards up to %s hold more than %d subtests in all, "
					"what umlrun merges at most (its memory bound)",
					dirs[i], RESULTS_SUBTESTS_MAX);
	}
	return 0;
}

/* ---- are these the N shards of one run? ---- */

static int shard_of(const struct loaded_run *lr, int *k, int *n, struct uerr *e)
{
	struct uerr why;

	if (!lr->info.shard)
		return uerr_set(e, EXIT_USAGE,
				"%s is not a shard's run: its results.json has no \"shard\" "
				"(run it with --shard K/N)",
				lr->dir);
	if (shard_parse(lr->info.shard, k, n, &why) < 0)
		return uerr_set(e, EXIT_USAGE, "%s: %s", lr->dir, why.msg);
	return 0;
}

/* Two strings, either maybe NULL, equal. */
static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const char *str_or(const char *s, const char *none)
{
	return s ? s : none;
}

/* Two --overlay lists alike by the folders' names: each runner has its checkout elsewhere. */
static bool overlays_alike(char *const *a, size_t na, char *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		const char *x = strrchr(a[i], '/'), *y = strrchr(b[i], '/');

		if (strcmp(x ? x + 1 : a[i], y ? y + 1 : b[i]))
			return false;
	}
	return true;
}

/*
 * What the merged results.json says of the whole run, shard 1's: every
 * shard must have run under it, or the record would misstate how some
 * tests ran (their clock's start, random numbers, simulated system call
 * cost, programs laid over the root). --shuffle's seed orders a shard's
 * own tests, not the split: shards of different seeds merge, and the
 * merged run names none.
 */
static int same_settings(const struct loaded_run *a, const struct loaded_run *b, struct uerr *e)
{
	const struct run_info *x = &a->info, *y = &b->info;
	const char *what = NULL;
	_cleanup_free_ char *xs = NULL;
	_cleanup_free_ char *ys = NULL;

	if (x->has_start != y->has_start || x->start != y->start) {
		what = "--start";
		xs = x->has_start ? xasprintf("%lld", x->start) : xstrdup("(none)");
		ys = y->has_start ? xasprintf("%lld", y->start) : xstrdup("(none)");
	} else if (x->random_seed != y->random_seed) {
		what = "--random-seed";
		xs = xasprintf("%lld", x->random_seed);
		ys = xasprintf("%lld", y->random_seed);
	} else if (!str_eq(x->cpu_cost, y->cpu_cost)) {
		what = "--cpu-cost";
		xs = xstrdup(str_or(x->cpu_cost, "(none)"));
		ys = xstrdup(str_or(y->cpu_cost, "(none)"));
	} else if (!overlays_alike(x->overlays, x->noverlays, y->overlays, y->noverlays)) {
		what = "--overlay";
		xs = x->noverlays ? xstrdup(x->overlays[0]) : xstrdup("(none)");
		ys = y->noverlays ? xstrdup(y->overlays[0]) : xstrdup("(none)");
		if (x->noverlays && y->noverlays && !strcmp(xs, ys)) {
			free(xs);
			free(ys);
			xs = xasprintf("%zu folders", x->noverlays);
			ys = xasprintf("%zu, or others", y->noverlays);
		}
	}
	/* One split: shards that chose other test files lose some between them. */
	if (!what && x->selection && y->selection && strcmp(x->selection, y->selection))
		return uerr_set(e, EXIT_USAGE,
				"%s split the test files %s (count:hash) but %s split %s: not "
				"shards of one run (give every shard the same suites, --filter, "
				"--exclude and --durations)",
				a->dir, x->selection, b->dir, y->selection);
	if (!what)
		return 0;
	return uerr_set(e, EXIT_USAGE, "%s ran with %s %s but %s with %s: not shards of one run",
			a->dir, what, xs, b->dir, ys);
}

static int check_shards(struct shards *s, struct uerr *e)
{
	const struct loaded_run *first = &s->runs[0];
	int k, n;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct loaded_run *lr = &s->runs[i];

		if (shard_of(lr, &k, &n, e) < 0)
			return -1;
		if (i == 0) {
			s->n = n;
			s->idx = xcalloc((size_t)n, sizeof(*s->idx));
			for (int j = 0; j < n; j++)
				s->idx[j] = SIZE_MAX;
		} else if (n != s->n) {
			return uerr_set(
			    e, EXIT_USAGE,
			    "%s is shard %s but %s is shard %s: not shards of one split",
			    first->dir, first->info.shard, lr->dir, lr->info.shard);
		}
		if (s->idx[k - 1] != SIZE_MAX)
			return uerr_set(e, EXIT_USAGE, "%s and %s are both shard %d/%d",
					s->runs[s->idx[k - 1]].dir, lr->dir, k, n);
		/* The merged run names one mode and one kernel: every shard's. */
		if (!str_eq(lr->info.mode, first->info.mode))
			return uerr_set(
			    e, EXIT_USAGE,
			    "%s ran under time travel %s but %s under %s: not shards of "
			    "one run",
			    first->dir, str_or(first->info.mode, "(none)"), lr->dir,
			    str_or(lr->info.mode, "(none)"));
		if (!str_eq(lr->info.kernel_key, first->info.kernel_key))
			return uerr_set(e, EXIT_USAGE,
					"%s ran kernel %s but %s kernel %s: not shards of one run",
					first->dir, str_or(first->info.kernel_key, "(none)"),
					lr->dir, str_or(lr->info.kernel_key, "(none)"));
		if (str_eq(lr->info.selection, SELECTION_RERUN))
			return uerr_set(
			    e, EXIT_USAGE,
			    "%s is a --rerun-failed run: it holds only what its shard's "
			    "run before it failed; merge every shard's complete run (its "
			    "run folder, not latest)",
			    lr->dir);
		if (same_settings(first, lr, e) < 0)
			return -1;
		s->idx[k - 1] = i;
	}
	for (int j = 0; j < s->n; j++)
		if (s->idx[j] == SIZE_MAX)
			return uerr_set(
			    e, EXIT_USAGE,
			    "shard %d/%d is missing: give the run folder of every shard", j + 1,
			    s->n);
	return 0;
}

/* ---- the merged records ---- */

struct entry {
	struct record rec; /* a shallow copy: the loaded run owns its strings */
	size_t run;	   /* which shard's run */
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->rec.test->id, y->rec.test->id);

	if (c)
		return c;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return x->rec.attempt - y->rec.attempt;
}

/* Every record, ordered by id; a test that ran in two shards is refused. */
static int collect(const struct shards *s, struct entry **out, size_t *nout, struct uerr *e)
{
	size_t n = 0, total = 0;
	struct entry *v;

	for (size_t i = 0; i < s->nruns; i++)
		total += s->runs[i].n;
	v = xcalloc(total ? total : 1, sizeof(*v));
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t j = 0; j < s->runs[i].n; j++)
			v[n++] = (struct entry){ s->runs[i].rec[j], i };
	qsort(v, n, sizeof(*v), cmp_entry);
	for (size_t i = 1; i < n; i++) {
		const struct loaded_run *a = &s->runs[v[i - 1].run], *b = &s->runs[v[i].run];

		if (v[i].run != v[i - 1].run && !strcmp(v[i].rec.test->id, v[i - 1].rec.test->id)) {
			uerr_set(e, EXIT_USAGE, "test %s ran in two shards: %s (%s) and %s (%s)",
				 v[i].rec.test->id, a->info.shard, a->dir, b->info.shard, b->dir);
			free(v);
			return -1;
		}
	}
	*out = v;
	*nout = n;
	return 0;
}

/* ---- the test folders ---- */

/*
 * A shard's folder may come from a machine nobody here trusts, and so may
 * what is below it. Below the folder given (which may itself be a link,
 * such as results/latest), everything is opened by descriptor and never
 * through a symbolic link: a link anywhere refuses the shard, since no run
 * writes one (sched.c removes those a guest made). The merged folder is
 * written below a descriptor of the temporary folder in the same way, so
 * nothing lands outside it.
 */

/* openat without following a link; -1 with e set, naming path. */
static int open_at(int dfd, const char *name, int flags, const char *path, struct uerr *e)
{
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ELOOP)
		return uerr_set(e, EXIT_USAGE,
				"%s is a symbolic link: merge neither follows nor copies one",
				path);
	if (fd < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", path);
	return fd;
}

static int copy_file(int in, const char *src, int ddir, const char *name, mode_t mode,
		     struct uerr *e)
{
	/* No set-user-ID copy of someone else's file: the permission bits only. */
	_cleanup_close_ int out =
	    openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
	char buf[65536];
	ssize_t r;
	int w;

	if (out < 0 && errno == EEXIST)
		return uerr_set(e, EXIT_USAGE, "%s: another shard has this file too", src);
	if (out < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create the copy of %s", src);
	while ((r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot read %s", src);
		if ((w = write_all(out, buf, (size_t)r)) < 0) {
			errno = -w;
			return uerr_sys(e, EXIT_INFRA, "cannot write the copy of %s", src);
		}
	}
	if (close(steal_fd(&out)) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot write the copy of %s", src);
	return 0;
}

/*
 * A hard link costs nothing; across filesystems, a copy. The file is
 * opened first and the link checked to be that file: a name swapped for a
 * link after it was looked at is not linked in its place.
 */
static int link_or_copy(int sdir, int ddir, const char *name, const char *src, struct uerr *e)
{
	_cleanup_close_ int in = open_at(sdir, name, O_RDONLY | O_NONBLOCK, src, e);
	struct stat st, got;

	if (in < 0)
		return -1;
	if (fstat(in, &st) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", src);
	if (!S_ISREG(st.st_mode))
		return uerr_set(e, EXIT_USAGE, "%s changed while it was merged", src);
	if (linkat(sdir, name, ddir, name, 0) == 0) {
		if (fstatat(ddir, name, &got, AT_SYMLINK_NOFOLLOW) == 0 &&
		    got.st_dev == st.st_dev && got.st_ino == st.st_ino)
			return 0;
		unlinkat(ddir, name, 0);
		return uerr_set(e, EXIT_USAGE, "%s changed while it was merged", src);
	}
	if (errno == EEXIST)
		return uerr_set(e, EXIT_USAGE, "%s: another shard has this file too", src);
	if (errno != EXDEV && errno != EPERM && errno != EMLINK && errno != ENOTSUP)
		return uerr_sys(e, EXIT_INFRA, "cannot link %s", src);
	return copy_file(in, src, ddir, name, st.st_mode, e);
}

static int copy_tree(int sdir, int ddir, const char *src, struct uerr *e);

/* The folder name in sdir into ddir: folders merge, two shards may both have SUITE/. */
static int copy_dir(int sdir, int ddir, const char *name, const char *src, struct uerr *e)
{
	_cleanup_close_ int from = open_at(sdir, name, O_RDONLY | O_DIRECTORY, src, e);
	_cleanup_close_ int to = -1;

	if (from < 0)
		return -1;
	if (mkdirat(ddir, name, 0755) < 0 && errno != EEXIST)
		return uerr_sys(e, EXIT_INFRA, "cannot create the folder for %s", src);
	/* What is there, merge made: a folder, or a file (never a link). */
	to = openat(ddir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (to < 0 && (errno == ENOTDIR || errno == ELOOP))
		return uerr_set(e, EXIT_USAGE, "%s: another shard has this file too", src);
	if (to < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot open the folder for %s", src);
	return copy_tree(from, to, src, e);
}

/* One entry of a folder; sockets and fifos are not logs and are left out. */
static int copy_entry(int sdir, int ddir, const char *name, const char *src, struct uerr *e)
{
	struct stat st;

	if (fstatat(sdir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read %s", src);
	if (S_ISLNK(st.st_mode))
		return uerr_set(e, EXIT_USAGE,
				"%s is a symbolic link: merge neither follows nor copies one", src);
	if (S_ISDIR(st.st_mode))
		return copy_dir(sdir, ddir, name, src, e);
	if (S_ISREG(st.st_mode))
		return link_or_copy(sdir, ddir, name, src, e);
	return 0;
}

/*
 * The names in the folder sdir, without "." and "..", and those starting
 * with a dot when hidden is false; read whole before anything is copied,
 * so that a deep tree holds two descriptors per level, not three.
 */
static char **list_dir(int sdir, bool hidden, const char *src, struct uerr *e)
{
	int fd = dup(sdir);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	char **v = xcalloc(1, sizeof(*v));
	size_t n = 0;

	if (!d) {
		uerr_sys(e, EXIT_INFRA, "cannot read %s", src);
		if (fd >= 0)
			close(fd);
		free(v);
		return NULL;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    (!hidden && de->d_name[0] == '.'))
			continue;
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = xstrdup(de->d_name);
		v[n] = NULL;
	}
	closedir(d);
	return v;
}

static int copy_tree(int sdir, int ddir, const char *src, struct uerr *e)
{
	char **names = list_dir(sdir, true, src, e);
	int r = names ? 0 : -1;

	for (size_t i = 0; r == 0 && names[i]; i++) {
		_cleanup_free_ char *from = xasprintf("%s/%s", src, names[i]);

		r = copy_entry(sdir, ddir, names[i], from, e);
	}
	strv_free(names);
	return r;
}

/*
 * A signal umlrun blocks (cmd_merge) and that has come: merge stops between
 * two test folders, and the half-made folder goes.
 */
static int interrupted(struct uerr *e)
{
	int sig = supervise_pending_signal();

	if (sig)
		return uerr_set(e, EXIT_SIGNAL_BASE + sig, "merge interrupted by %s",
				sigabbrev_np(sig));
	return 0;
}

/*
 * Every folder at the top of a shard's run folder holds test folders;
 * its files are the shard's reports, which the merge writes anew.
 */
static int copy_test_dirs(const struct loaded_run *lr, int out, struct uerr *e)
{
	_cleanup_close_ int top = open(lr->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names;
	int r = 0;

	if (top < 0)
		return uerr_sys(e, EXIT_USAGE, "cannot read %s", lr->dir);
	names = list_dir(top, false, lr->dir, e);
	if (!names)
		return -1;
	for (size_t i = 0; r == 0 && names[i]; i++) {
		_cleanup_free_ char *from = xasprintf("%s/%s", lr->dir, names[i]);
		struct stat st;

		if ((r = interrupted(e)) < 0)
			break;
		if (fstatat(top, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			r = uerr_sys(e, EXIT_INFRA, "cannot read %s", from);
		else if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))
			r = copy_entry(top, out, names[i], from, e);
	}
	strv_free(names);
	return r;
}

/* ---- the reports ---- */

static const char *directive_word(enum ktap_result r)
{
	return r == KTAP_SKIP ? "SKIP" : r == KTAP_XFAIL || r == KTAP_XPASS ? "TODO" : NULL;
}

static void ktap_case_line(struct strbuf *sb, const struct ktap_case *c)
{
	const char *word = directive_word(c->result);
	bool passed = c->result != KTAP_FAIL && c->result != KTAP_XFAIL;

	sb_printf(sb, "    %sok %d %s", passed ? "" : "not ", c->number, c->title);
	if (word)
		sb_printf(sb, " # %s%s%s", word, c->directive[0] ? " " : "", c->directive);
	sb_adds(sb, "\n");
}

/* Record i of n as sched.c prints it: a header, the subtests, the result. */
static void ktap_record(struct strbuf *sb, const struct record *r, size_t i, size_t n)
{
	const struct record *t = &r[i];
	bool repeated = t->attempt > 1 || (i + 1 < n && !strcmp(r[i + 1].test->id, t->test->id));

	if (repeated)
		sb_printf(sb, "# %s (run %d)\n", t->test->id, t->attempt);
	else
		sb_printf(sb, "# %s\n", t->test->id);
	/* A nested block as KTAP has it: its version line, its name, its plan. */
	sb_printf(sb, "    KTAP version 1\n    # Subtest: %s\n", t->test->id);
	if (t->ktap.skip_all)
		sb_printf(sb, "    1..0 # SKIP %s\n",
			  t->ktap.skip_reason ? t->ktap.skip_reason : "");
	else if (t->ktap.planned >= 0)
		sb_printf(sb, "    1..%d\n", t->ktap.planned);
	for (size_t j = 0; j < t->ktap.ncases; j++)
		ktap_case_line(sb, &t->ktap.cases[j]);
	record_result_line(sb, t, i + 1);
}

/* The ktap.txt one machine running every shard's tests would have written. */
static int write_ktap(const char *path, const struct record *r, size_t n, struct uerr *e)
{
	struct strbuf sb = { 0 };

	sb_printf(&sb, "KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++)
		ktap_record(&sb, r, i, n);
	return sb_write_atomic(path, &sb, e);
}

/* Shard 1's run information; the longest wall time; the exit code. */
static struct run_info merged_info(const struct shards *s, const struct record *r, size_t n)
{
	struct run_info ri = s->runs[s->idx[0]].info;
	int interrupted = 0;

	ri.shard = NULL;
	ri.wall_seconds = 0;
	/* Every shard's tests that never started (the array is the caller's to free). */
	ri.nnot_run = 0;
	for (int k = 0; k < s->n; k++)
		ri.nnot_run += s->runs[s->idx[k]].info.nnot_run;
	{
		char **nr = xcalloc(ri.nnot_run + 1, sizeof(char *));
		size_t m = 0;

		for (int k = 0; k < s->n; k++)
			for (size_t j = 0; j < s->runs[s->idx[k]].info.nnot_run; j++)
				nr[m++] = s->runs[s->idx[k]].info.not_run[j];
		ri.not_run = nr;
	}
	for (int k = 0; k < s->n; k++) {
		const struct run_info *si = &s->runs[s->idx[k]].info;

		if (si->wall_seconds > ri.wall_seconds)
			ri.wall_seconds = si->wall_seconds;
		/* 128+N: umlrun ended by signal N (results_load keeps it below 256). */
		if (!interrupted && si->exit_code > EXIT_SIGNAL_BASE)
			interrupted = si->exit_code;
		/* Shards confined differently: no one word is true of the whole run. */
		if (ri.confinement && (!si->confinement || strcmp(si->confinement, ri.confinement)))
			ri.confinement = "mixed (see each shard's results.json)";
		if (ri.userspace && (!si->userspace || strcmp(si->userspace, ri.userspace)))
			ri.userspace = "mixed (see each shard's results.json)";
		/* Shards of other hosts: timings compare only within one (docs/guest.md). */
		if ((ri.host_cpu || si->host_cpu) &&
		    (!ri.host_cpu || !si->host_cpu || strcmp(si->host_cpu, ri.host_cpu)))
			ri.host_cpu = "mixed (see each shard's results.json)";
		if (si->seed != ri.seed)
			ri.seed = 0; /* no one seed replays the whole run's order */
	}
	ri.exit_code = interrupted ? interrupted : exit_code_of(r, n);
	return ri;
}

static int write_reports(const struct shards *s, const char *tmp, const struct record *r, size_t n,
			 struct uerr *e)
{
	_cleanup_free_ char *json = xasprintf("%s/results.json", tmp);
	_cleanup_free_ char *junit = xasprintf("%s/junit.xml", tmp);
	_cleanup_free_ char *ktap = xasprintf("%s/ktap.txt", tmp);
	_cleanup_free_ char *html = xasprintf("%s/report.html", tmp);
	struct run_info ri = merged_info(s, r, n);
	int ret = 0;

	if (report_write_json(json, &ri, r, n, e) < 0 ||
	    report_write_junit(junit, &ri, r, n, e) < 0 || write_ktap(ktap, r, n, e) < 0 ||
	    report_write_html(html, tmp, &ri, r, n, e) < 0)
		ret = -1;
	free((void *)ri.not_run);
	return ret;
}

/* ---- putting it together ---- */

/* OUT must be new (or an empty folder, which rename(2) replaces). */
static int check_out(const char *out_dir, struct uerr *e)
{
	DIR *d;
	struct dirent *de;
	bool empty = true;

	if (!path_exists(out_dir))
		return 0;
	d = is_dir(out_dir) ? opendir(out_dir) : NULL;
	while (d && (de = readdir(d)))
		empty &= !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	if (d && empty)
		return 0;
	return uerr_set(e, EXIT_USAGE, "%s already exists: merge into a new folder", out_dir);
}

/*
 * Whether a record's folder is its test's own: the id without ".sh"
 * (SUITE/tNNNN-name), or that and ".K" (a repeat, a seed, a try). A crafted
 * "dir" naming another folder (the suite's) would pass for the test's.
 */
static bool own_dir(const struct record *r)
{
	const char *id = r->test->id;
	size_t n = strlen(id);

	if (n > 3 && !strcmp(id + n - 3, ".sh"))
		n -= 3;
	return !strncmp(r->dir, id, n) && (r->dir[n] == '\0' || r->dir[n] == '.');
}

static int build(const struct shards *s, const char *tmp, const char *out_dir, struct uerr *e)
{
	_cleanup_close_ int out_fd = -1;
	struct entry *v = NULL;
	struct record *r;
	char **lost = NULL;
	size_t n = 0;
	int ret = -1;

	if (collect(s, &v, &n, e) < 0)
		return -1;
	r = xcalloc(n ? n : 1, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = v[i].rec;
	/* mkdir_p makes OUT's parents; tmp itself must be new, and a folder. */
	if (mkdir_p(tmp, 0755) < 0 ||
	    (out_fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot create %s", tmp);
		goto out;
	}
	for (size_t i = 0; i < s->nruns; i++)
		if (copy_test_dirs(&s->runs[i], out_fd, e) < 0)
			goto out;
	/*
	 * A test whose folder a shard no longer has (its logs deleted, a
	 * partial copy between machines): the merged run has its result but
	 * not its files, which is what "lost" says, and what exits 3.
	 */
	lost = xcalloc(n ? n : 1, sizeof(*lost));
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (r[i].lost || !r[i].dir ||
		    (own_dir(&r[i]) && fstatat(out_fd, r[i].dir, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		     S_ISDIR(st.st_mode)))
			continue;
		lost[i] = xasprintf("its folder %s was not in %s when merged", r[i].dir,
				    s->runs[v[i].run].dir);
		r[i].lost = lost[i];
	}
	/* The last moment a signal can still leave nothing behind. */
	if (write_reports(s, tmp, r, n, e) < 0 || interrupted(e) < 0)
		goto out;
	if (rename(tmp, out_dir) < 0) {
		uerr_sys(e, errno == ENOTEMPTY || errno == EEXIST ? EXIT_USAGE : EXIT_INFRA,
			 "cannot move the merged run to %s", out_dir);
		goto out;
	}
	ret = 0;
out:
	for (size_t i = 0; lost && i < n; i++)
		free(lost[i]);
	free(lost);
	free(v);
	free(r);
	return ret;
}

/*
 * OUT.merging-PID.nsINODE folders of merges into out whose process is gone
 * (SIGKILL): at once when it was of this PID namespace, else after an hour.
 */
static void sweep_merging(const char *out)
{
	_cleanup_free_ char *for_dir = xstrdup(out);
	_cleanup_free_ char *for_base = xstrdup(out);
	const char *parent = dirname(for_dir);
	_cleanup_free_ char *prefix = xasprintf("%s.merging-", basename(for_base));
	DIR *d = opendir(parent);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		_cleanup_free_ char *as_tmp = NULL;
		_cleanup_free_ char *p = NULL;
		struct stat st;
		int stale;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		/* PID[.nsINODE]: judged as a cache entry's name is (util.h, tmp_staleness). */
		as_tmp = xasprintf("x.tmp-%s", de->d_name + strlen(prefix));
		stale = tmp_staleness(as_tmp);
		p = xasprintf("%s/%s", parent, de->d_name);
		if (stale == TMP_STALE ||
		    (stale && lstat(p, &st) == 0 && st.st_mtime < time(NULL) - STALE_TMP_AGE))
			rm_rf(p);
	}
	if (d)
		closedir(d);
}

int merge_runs(char *const *dirs, size_t ndirs, const char *out_dir, struct uerr *e)
{
	struct shards s = { 0 };
	_cleanup_free_ char *out = xstrdup(out_dir);
	_cleanup_free_ char *tmp = NULL;
	size_t len = strlen(out);
	int ret = -1;

	/* "out/" would put the temporary folder inside out. */
	while (len > 1 && out[len - 1] == '/')
		out[--len] = '\0';
	if (!ndirs)
		return uerr_set(e, EXIT_USAGE,
				"nothing to merge: give the run folder of each shard");
	if (!len)
		return uerr_set(e, EXIT_USAGE, "merge: the output folder name is empty");
	if (check_out(out, e) < 0)
		return -1;
	if (load_all(dirs, ndirs, &s, e) < 0 || check_shards(&s, e) < 0)
		goto out;
	sweep_merging(out);
	{
		/* OUT.merging-PID.nsINODE, for sweep_merging. */
		_cleanup_free_ char *suffix = tmp_suffix();

		tmp = xasprintf("%s.merging-%s", out, suffix);
	}
	rm_rf(tmp);
	ret = build(&s, tmp, out, e);
	if (ret < 0)
		rm_rf(tmp);
out:
	shards_free(&s);
	return ret;
}
