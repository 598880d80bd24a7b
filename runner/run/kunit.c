// SPDX-License-Identifier: MIT
/* kunit.c - read KUnit's KTAP from a guest's console; one record per suite. */
#define _GNU_SOURCE
#include "kunit.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

int kunitconfig_resolve(const char *arg, const char *tree, const char *project, char **path,
			struct uerr *e)
{
	_cleanup_free_ char *in_tree = NULL;
	_cleanup_free_ char *in_project = NULL;
	const char *bases[3] = { arg, NULL, NULL };
	size_t n = 1;

	*path = NULL;
	if (arg[0] != '/' && tree)
		bases[n++] = in_tree = xasprintf("%s/%s", tree, arg);
	if (arg[0] != '/' && project)
		bases[n++] = in_project = xasprintf("%s/%s", project, arg);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *file = NULL;

		if (!path_exists(bases[i]))
			continue;
		file = is_dir(bases[i]) ? xasprintf("%s/" KUNITCONFIG_NAME, bases[i])
					: xstrdup(bases[i]);
		*path = realpath(file, NULL);
		if (*path && !is_dir(*path))
			return 0;
		free(*path);
		*path = NULL;
		return uerr_set(e, EXIT_USAGE,
				"--kunitconfig=%s: %s has no " KUNITCONFIG_NAME
				"; give the file itself or a folder that has one",
				arg, bases[i]);
	}
	return uerr_set(e, EXIT_USAGE,
			"--kunitconfig=%s: no such file or folder, here, in the kernel tree %s or "
			"in umlrun's own folder %s",
			arg, tree ? tree : "(none)", project ? project : "(none)");
}

bool kunit_glob_valid(const char *glob)
{
	if (!*glob)
		return false;
	for (const char *p = glob; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.*?[]!:", *p))
			return false;
	return true;
}

/* One ATTR OP VALUE filter, blanks after it allowed: its length, or 0. */
static size_t filter_item(const char *p)
{
	static const char word[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
	size_t name = strspn(p, word);
	size_t op = strspn(p + name, "<>!=");
	size_t value;

	if (!name || !op || op > 2 || (op == 2 && p[name + 1] != '='))
		return 0;
	if (op == 1 && p[name] == '!')
		return 0;
	value = strspn(p + name + op,
		       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
	return value ? name + op + value : 0;
}

char *kunit_filter_param(char *const *filters, size_t n)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; i < n; i++) {
		const char *p = filters[i];

		for (;;) {
			size_t len;

			p += strspn(p, " ");
			len = filter_item(p);
			if (!len) {
				sb_release(&sb);
				return NULL;
			}
			sb_printf(&sb, "%s%.*s", sb.len ? "," : "", (int)len, p);
			p += len;
			p += strspn(p, " ");
			if (!*p)
				break;
			if (*p++ != ',') {
				sb_release(&sb);
				return NULL;
			}
		}
	}
	return sb_detach(&sb);
}

void kunit_log_init(struct kunit_log *k)
{
	memset(k, 0, sizeof(*k));
	k->planned = -1;
	k->last_sim = -1;
}

const char *kunit_strip_time(const char *line, double *secs)
{
	const char *p = line;
	char *end;
	double v;

	*secs = -1;
	if (*p++ != '[')
		return line;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return line;
	v = strtod(p, &end);
	if (end == p || *end != ']')
		return line;
	*secs = v;
	return end[1] == ' ' ? end + 2 : end + 1;
}

/* Whether text (less its indentation) is a line of KTAP syntax. */
static bool ktap_syntax(const char *t)
{
	return !strncmp(t, "KTAP version ", 13) || !strncmp(t, "TAP version ", 12) ||
	       !strncmp(t, "1..", 3) || !strncmp(t, "ok ", 3) || !strncmp(t, "not ok ", 7) ||
	       !strncmp(t, "# ", 2) || !strcmp(t, "#");
}

static struct kunit_suite *suite_open(struct kunit_log *k, double sim, double wall)
{
	struct kunit_suite *s;

	k->suites = xrealloc(k->suites, (k->n + 1) * sizeof(*k->suites));
	s = &k->suites[k->n++];
	memset(s, 0, sizeof(*s));
	ktap_init(&s->ktap);
	s->sim_start = s->sim_end = sim;
	s->wall_start = s->wall_end = wall;
	/* It starts inside an episode: its simulated times are not deterministic either. */
	s->stall_breaks = k->stalled;
	k->open = true;
	return s;
}

/* A suite's name as one folder name: no '/', no leading '.'. */
static char *folder_name(const char *name)
{
	char *f = xstrdup(name && *name ? name : "unnamed");

	for (char *p = f; *p; p++)
		if (*p == '/' || (*p == '.' && p == f) || (unsigned char)*p < 0x20)
			*p = '_';
	return f;
}

/* "ok 3 name # SKIP why" at the top level: the open suite's end. */
static void suite_result(struct kunit_log *k, const char *t, double sim, double wall)
{
	bool ok = !strncmp(t, "ok ", 3);
	const char *p = t + (ok ? 3 : 7);
	struct kunit_suite *s = k->open ? &k->suites[k->n - 1] : suite_open(k, sim, wall);
	const char *cut;
	size_t len;

	p += strspn(p, "0123456789");
	p += strspn(p, " ");
	if (*p == '-' && p[1] == ' ') /* TAP's "ok 1 - name" */
		p += 2;
	cut = strstr(p, " # ");
	len = cut ? (size_t)(cut - p) : strlen(p);
	free(s->name);
	s->name = xstrndup(p, len);
	s->ok = ok;
	free(s->reason);
	s->reason = cut ? xstrdup(cut + 3) : NULL;
	s->ended = true;
	k->open = false;
}

/* SUITE.CASE as kunit.py's _list_tests keeps it: ^[^\s.]+\.[^\s.]+$ */
static bool test_name(const char *t)
{
	size_t suite = strcspn(t, ". \t\n\v\f\r");
	size_t name;

	if (!suite || t[suite] != '.')
		return false;
	name = strcspn(t + suite + 1, ". \t\n\v\f\r");
	return name && !t[suite + 1 + name];
}

/*
 * A line of kunit.action=list or list_attr: a suite's name, SUITE.CASE,
 * or an attribute ("# speed: slow", "# case.speed: slow"); one word
 * or a comment, so the kernel's other messages stay out.
 */
static void listed(struct kunit_log *k, const char *t)
{
	if (strchr(t, ' ') && strncmp(t, "# ", 2))
		return;
	if (!strncmp(t, "# ", 2) && (!strchr(t, ':') || !strncmp(t, "# Subtest:", 10)))
		return;
	sb_adds(&k->listed, t);
	sb_adds(&k->listed, "\n");
}

void kunit_log_feed(struct kunit_log *k, const char *line, double wall)
{
	double sim;
	const char *t = kunit_strip_time(line, &sim);
	size_t indent = strspn(t, " ");
	struct kunit_suite *s = k->open ? &k->suites[k->n - 1] : NULL;
	const char *body = t + indent;
	bool stall_begins = strstr(line, STALL_BREAKER_MARK);

	if (sim >= 0)
		k->last_sim = sim;
	if (stall_begins)
		k->stalled = true;
	else if (strstr(line, STALL_BREAKER_OFF_MARK))
		k->stalled = false;
	if (s) {
		sb_adds(&s->console, line);
		sb_adds(&s->console, "\n");
		if (sim >= 0)
			s->sim_end = sim;
		s->wall_end = wall;
		/* Its simulated times are not deterministic: the suite's own record says so. */
		if (stall_begins)
			s->stall_breaks++;
	}
	if (!k->started) {
		k->started = indent == 0 &&
			     (!strncmp(t, "KTAP version ", 13) || !strncmp(t, "TAP version ", 12));
		return;
	}
	/* Not KUnit's: another part of the kernel speaking meanwhile. */
	if (indent % 4 || !ktap_syntax(body)) {
		/* kunit.action=list prints "suite.case" after its version line. */
		if (indent == 0 && k->planned < 0 && !s)
			listed(k, t);
		if (indent == 0 && k->planned < 0 && test_name(t)) {
			sb_adds(&k->list, t);
			sb_adds(&k->list, "\n");
		}
		return;
	}
	if (indent == 0) {
		/* list_attr's "# speed: slow" lines. */
		if (k->planned < 0 && !s && !strncmp(t, "# ", 2))
			listed(k, t);
		if (!strncmp(t, "1..", 3) && k->planned < 0 && !s) {
			k->planned = atoi(t + 3);
		} else if (!strncmp(t, "ok ", 3) || !strncmp(t, "not ok ", 7)) {
			suite_result(k, t, sim, wall);
			s = &k->suites[k->n - 1];
			if (!s->console.len) { /* a result line with no suite before it */
				sb_adds(&s->console, line);
				sb_adds(&s->console, "\n");
			}
		} else if (s) {
			/* "# suite: pass:1 fail:0 ...": the suite's summary */
			sb_adds(&s->text, t);
			sb_adds(&s->text, "\n");
		}
		return;
	}
	/* Indented: a suite's own lines; the first one opens it. */
	if (!s) {
		s = suite_open(k, sim, wall);
		sb_adds(&s->console, line);
		sb_adds(&s->console, "\n");
	}
	if (!s->name && !strncmp(body, "# Subtest: ", 11) && indent == 4) {
		_cleanup_free_ char *f = folder_name(body + 11);

		s->name = xstrdup(body + 11);
		/*
		 * Named as its result line names it (KTAP: a subtest's name is
		 * its parent's), or the kernel's kunit.py parse reads a crash.
		 */
		sb_printf(&s->text, "# Subtest: " KUNIT_SUITE "/%s\n", f);
		ktap_feed(&s->ktap, t + 4);
		return;
	}
	sb_adds(&s->text, t + 4);
	sb_adds(&s->text, "\n");
	ktap_feed(&s->ktap, t + 4);
}

void kunit_log_console(struct kunit_log *k, const char *data, size_t len, double wall)
{
	sb_add(&k->console, data, len);
	for (size_t i = 0; i < len; i++) {
		if (data[i] == '\r')
			continue;
		if (data[i] != '\n') {
			sb_add(&k->partial, data + i, 1);
			continue;
		}
		kunit_log_feed(k, k->partial.buf ? k->partial.buf : "", wall);
		k->partial.len = 0;
		if (k->partial.buf)
			k->partial.buf[0] = '\0';
	}
}

void kunit_log_append(struct kunit_log *into, struct kunit_log *from)
{
	into->started |= from->started;
	if (from->planned >= 0)
		into->planned = (into->planned > 0 ? into->planned : 0) + from->planned;
	into->suites = xrealloc(into->suites, (into->n + from->n + 1) * sizeof(*into->suites));
	memcpy(into->suites + into->n, from->suites, from->n * sizeof(*from->suites));
	into->n += from->n;
	into->open = from->open;
	into->stalled = from->stalled;
	if (from->last_sim >= 0)
		into->last_sim = from->last_sim;
	sb_add(&into->console, from->console.buf ? from->console.buf : "", from->console.len);
	free(from->suites);
	from->suites = NULL;
	from->n = 0;
	from->open = false;
}

char **kunit_list_lines(const char *list)
{
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0;

	for (const char *p = list ? list : ""; *p;) {
		size_t len = strcspn(p, "\n");

		if (len) {
			v = xrealloc(v, (n + 2) * sizeof(char *));
			v[n++] = xstrndup(p, len);
			v[n] = NULL;
		}
		p += len + (p[len] == '\n');
	}
	return v;
}

char **kunit_list_suites(const char *list)
{
	char **v = kunit_list_lines(list);
	size_t n = 0;

	for (size_t i = 0; v[i]; i++) {
		char *dot = strchr(v[i], '.');

		if (dot)
			*dot = '\0';
		if (n && !strcmp(v[n - 1], v[i])) {
			free(v[i]);
			continue;
		}
		v[n++] = v[i];
	}
	v[n] = NULL;
	return v;
}

void kunit_suite_rename(struct kunit_suite *s, const char *name)
{
	_cleanup_free_ char *old = folder_name(s->name);
	_cleanup_free_ char *new = folder_name(name);
	_cleanup_free_ char *from = xasprintf("# Subtest: " KUNIT_SUITE "/%s\n", old);
	const char *text = s->text.buf ? s->text.buf : "";
	const char *at = strstr(text, from);
	struct strbuf sb = { 0 };

	if (at) {
		sb_add(&sb, text, (size_t)(at - text));
		sb_printf(&sb, "# Subtest: " KUNIT_SUITE "/%s\n", new);
		sb_adds(&sb, at + strlen(from));
		sb_release(&s->text);
		s->text = sb;
	}
	free(s->name);
	s->name = xstrdup(name);
}

bool kunit_log_complete(const struct kunit_log *k)
{
	size_t ended = 0;

	for (size_t i = 0; i < k->n; i++)
		ended += k->suites[i].ended;
	return k->started && k->planned >= 0 && !k->open && ended >= (size_t)k->planned;
}

void kunit_log_free(struct kunit_log *k)
{
	for (size_t i = 0; i < k->n; i++) {
		struct kunit_suite *s = &k->suites[i];

		free(s->name);
		free(s->reason);
		free(s->cmdline);
		ktap_free(&s->ktap);
		sb_release(&s->text);
		sb_release(&s->console);
	}
	free(k->suites);
	sb_release(&k->list);
	sb_release(&k->listed);
	sb_release(&k->console);
	sb_release(&k->partial);
	kunit_log_init(k);
}

static struct test *add_test(struct test_list *tests, const char *name)
{
	struct test *t;

	tests->v = xrealloc(tests->v, (tests->n + 1) * sizeof(*tests->v));
	t = &tests->v[tests->n++];
	memset(t, 0, sizeof(*t));
	t->suite = xstrdup(KUNIT_SUITE);
	t->file = folder_name(name);
	t->id = xasprintf(KUNIT_SUITE "/%s", t->file);
	return t;
}

static struct record *add_record(struct record **rec, size_t *n, const struct guest_outcome *o)
{
	struct record *r;

	*rec = xrealloc(*rec, (*n + 1) * sizeof(**rec));
	r = &(*rec)[(*n)++];
	memset(r, 0, sizeof(*r));
	r->attempt = 1;
	r->outcome = *o;
	ktap_init(&r->ktap);
	return r;
}

/* A copy of ktap (cases, plan, counts), for a record of its own. */
static void ktap_copy(struct ktap *to, const struct ktap *from)
{
	*to = *from;
	/* Nothing of from's stays shared: each is freed with its own owner. */
	memset(&to->pending, 0, sizeof(to->pending));
	to->skip_reason = from->skip_reason ? xstrdup(from->skip_reason) : NULL;
	to->cases = xcalloc(from->ncases + 1, sizeof(*to->cases));
	for (size_t i = 0; i < from->ncases; i++) {
		to->cases[i] = from->cases[i];
		to->cases[i].title = xstrdup(from->cases[i].title);
		to->cases[i].directive = xstrdup(from->cases[i].directive);
		to->cases[i].diag = from->cases[i].diag ? xstrdup(from->cases[i].diag) : NULL;
	}
}

/* A suite that ended: its own outcome, as if init had reported it. */
static void judge_suite(struct record *r, const struct kunit_suite *s)
{
	struct guest_outcome *o = &r->outcome;

	o->end = GUEST_REPORTED;
	o->job_exit = s->ok ? 0 : 1;
	o->job_signal = 0;
	o->detail[0] = '\0';
	/*
	 * KUnit judges its own: KASAN's tests provoke reports on purpose, and
	 * kunit.py does not fail a suite for a report either.
	 */
	o->kernel_report[0] = '\0';
	/* The host's counters are the whole boot's: no suite's own. */
	memset(&o->cost, 0, sizeof(o->cost));
	o->cost.guest_forks = o->cost.guest_page_faults = -1;
	o->sim_seconds =
	    s->sim_start >= 0 && s->sim_end >= s->sim_start ? s->sim_end - s->sim_start : 0;
	o->wall_seconds = s->wall_end - s->wall_start;
	r->verdict = verdict_of(o, &r->ktap, &r->reason);
	/* The suite's own word: a skipped suite says why; a "not ok" one fails. */
	if (s->reason && !strncasecmp(s->reason, "SKIP", 4) && s->ok) {
		size_t len = strlen(s->reason);

		free(r->reason);
		r->verdict = V_SKIP;
		/* "ok 10 kunit_fault # SKIP " gives no reason: no blank after SKIP either. */
		while (len && (s->reason[len - 1] == ' ' || s->reason[len - 1] == '\t'))
			len--;
		r->reason = xstrndup(s->reason, len);
	} else if (!s->ok && r->verdict == V_PASS) {
		r->verdict = V_FAIL;
	}
	if (r->verdict == V_FAIL && !r->reason && !r->ktap.counts[KTAP_FAIL])
		r->reason = xasprintf("ERROR the suite reported not ok%s%s", s->reason ? ": " : "",
				      s->reason ? s->reason : "");
}

void kunit_records(const struct kunit_log *k, const struct guest_outcome *guest,
		   struct test_list *tests, struct record **rec, size_t *n)
{
	struct guest_outcome g = *guest;
	size_t started = 0;

	*rec = NULL;
	*n = 0;
	memset(tests, 0, sizeof(*tests));
	g.cost.guest_forks = g.cost.guest_page_faults = -1;
	/*
	 * kunit_shutdown=poweroff ends the kernel without init: once every
	 * planned suite has ended, that is the end it should have.
	 */
	if (g.end == GUEST_CRASH && !g.kernel_report[0] && kunit_log_complete(k) &&
	    WIFEXITED(g.uml_status) && WEXITSTATUS(g.uml_status) == 0) {
		g.end = GUEST_REPORTED;
		g.job_exit = 0;
		g.detail[0] = '\0';
	}
	if (k->last_sim >= 0 && !g.sim_seconds)
		g.sim_seconds = k->last_sim;
	for (size_t i = 0; i < k->n; i++) {
		const struct kunit_suite *s = &k->suites[i];
		struct record *r = add_record(rec, n, &g);

		add_test(tests, s->name);
		ktap_copy(&r->ktap, &s->ktap);
		/* The boot's episodes belong to the suites they came in. */
		r->outcome.stall_breaks = s->stall_breaks;
		started++;
		if (s->ended) {
			judge_suite(r, s);
			continue;
		}
		/* The guest ended in the middle of it. */
		r->outcome.sim_seconds = s->sim_start >= 0 ? s->sim_end - s->sim_start : 0;
		r->outcome.wall_seconds = s->wall_end - s->wall_start;
		if (r->outcome.end == GUEST_REPORTED) {
			r->outcome.end = GUEST_CRASH;
			snprintf(r->outcome.detail, sizeof(r->outcome.detail),
				 "the kernel stopped before the suite ended");
		}
		r->verdict = verdict_of(&r->outcome, &r->ktap, &r->reason);
	}
	if (!k->started || k->planned < 0) {
		struct record *r = add_record(rec, n, &g);

		add_test(tests, "boot");
		if (r->outcome.end == GUEST_REPORTED || r->outcome.end == GUEST_CRASH) {
			r->outcome.end = GUEST_CRASH;
			if (!r->outcome.detail[0] || g.end == GUEST_REPORTED)
				snprintf(r->outcome.detail, sizeof(r->outcome.detail),
					 "the kernel printed no KUnit KTAP (is CONFIG_KUNIT on?)");
		}
		r->verdict = verdict_of(&r->outcome, &r->ktap, &r->reason);
	} else if ((size_t)k->planned > started) {
		struct record *r = add_record(rec, n, &g);

		add_test(tests, "not-run");
		if (r->outcome.end == GUEST_REPORTED)
			r->outcome.end = GUEST_CRASH;
		snprintf(r->outcome.detail, sizeof(r->outcome.detail),
			 "%zu of the %d planned suites never started%s%.180s",
			 (size_t)k->planned - started, k->planned, guest->detail[0] ? ": " : "",
			 guest->detail);
		r->outcome.sim_seconds = r->outcome.wall_seconds = 0;
		r->verdict = verdict_of(&r->outcome, &r->ktap, &r->reason);
	}
	/* The records point into tests, which no longer moves. */
	for (size_t i = 0; i < *n; i++) {
		(*rec)[i].test = &tests->v[i];
		(*rec)[i].dir = xstrdup(tests->v[i].id);
	}
}

void kunit_records_free(struct test_list *tests, struct record *rec, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ktap_free(&rec[i].ktap);
		free(rec[i].dir);
		free(rec[i].reason);
		free(rec[i].lost);
	}
	free(rec);
	tests_free(tests);
}

static int write_in(const char *dir, const char *name, const char *text, size_t len, struct uerr *e)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);
	int r = write_file_atomic(path, text ? text : "", text ? len : 0);

	if (r < 0) {
		errno = -r;
		return uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
	}
	return 0;
}

int kunit_write_dirs(const char *run_dir, const struct kunit_log *k, const char *cmdline,
		     const struct record *rec, size_t n, struct uerr *e)
{
	_cleanup_free_ char *cmd = xasprintf("%s\n", cmdline);

	if (write_in(run_dir, "console.log", k->console.buf, k->console.len, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *dir = xasprintf("%s/%s", run_dir, rec[i].dir);
		const struct kunit_suite *s = i < k->n ? &k->suites[i] : NULL;

		if (mkdir_p(dir, 0755) < 0)
			return uerr_sys(e, EXIT_INFRA, "cannot create %s", dir);
		_cleanup_free_ char *own = s && s->cmdline ? xasprintf("%s\n", s->cmdline) : NULL;

		if (write_in(dir, "cmdline.txt", own ? own : cmd, strlen(own ? own : cmd), e) < 0 ||
		    write_in(dir, "ktap.log", s ? s->text.buf : NULL, s ? s->text.len : 0, e) < 0 ||
		    write_in(dir, "console.log", s ? s->console.buf : k->console.buf,
			     s ? s->console.len : k->console.len, e) < 0)
			return -1;
	}
	return 0;
}

char *kunit_run_ktap(const struct kunit_log *k, const struct record *rec, size_t n,
		     enum kunit_lines lines)
{
	struct strbuf sb = { 0 };

	sb_printf(&sb, "KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct kunit_suite *s = i < k->n ? &k->suites[i] : NULL;
		bool show = lines == KUNIT_LINES_ALL ||
			    (lines == KUNIT_LINES_FAILED && !verdict_passed(rec[i].verdict));

		for (const char *p = s && show ? s->text.buf : NULL; p && *p;) {
			size_t len = strcspn(p, "\n");

			sb_printf(&sb, "    %.*s\n", (int)len, p);
			p += len + (p[len] == '\n');
		}
		record_result_line(&sb, &rec[i], i + 1);
	}
	return sb_detach(&sb);
}
