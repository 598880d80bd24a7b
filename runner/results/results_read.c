// SPDX-License-Identifier: MIT
/*
 * results_read.c - results.json back into records (see results_read.h).
 *
 * Every field is checked for presence and type as it is read, and the
 * first problem ends the load with the path and where in the file it is:
 * a merged report must not quietly drop or invent a test.
 */
#define _GNU_SOURCE
#include "results_read.h"
#include "suite.h"

#include <ctype.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#define RESULTS_FORMAT "umlrun-results-1"

/*
 * Bounds no run reaches: --repeat and --retry stay far below ATTEMPT_MAX,
 * and the longest simulated timeout (TEST_TIMEOUT_MAX, a century) below
 * SECONDS_MAX. Past them a number is made up, and printed back it would
 * only mislead.
 */
#define ATTEMPT_MAX 1000000
#define SECONDS_MAX 10000000000LL
_Static_assert(TEST_TIMEOUT_MAX < SECONDS_MAX, "a run's own durations must read back");

/* Where in which file: for error messages. */
struct ctx {
	const char *path;
	char where[96]; /* "tests[3]" or "tests[3].subtests[1]", or "" */
	struct uerr *e;
};

static int bad(struct ctx *c, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
static int bad(struct ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return uerr_set(c->e, EXIT_USAGE, "%s: %s%s%s", c->path, c->where, c->where[0] ? ": " : "",
			msg);
}

static const char *type_word(json_type t)
{
	switch (t) {
	case json_type_double:
		return "a number";
	case json_type_int:
		return "an integer";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	case json_type_boolean:
		return "true or false";
	default:
		return "a string";
	}
}

/*
 * The member key of o, of type t (a double may also be written as an
 * integer). *out is NULL when it is absent and not required.
 */
static int member(struct ctx *c, json_object *o, const char *key, json_type t, bool required,
		  json_object **out)
{
	json_object *v = NULL;
	json_type got;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (required)
			return bad(c, "no \"%s\"", key);
		return 0;
	}
	got = json_object_get_type(v);
	if (got != t && !(t == json_type_double && got == json_type_int))
		return bad(c, "\"%s\" is not %s", key, type_word(t));
	*out = v;
	return 0;
}

/* Whether str_shown() would change s. */
static bool needs_showing(const char *s)
{
	_cleanup_free_ char *t = str_shown(s);

	return strcmp(s, t) != 0;
}

/* A copy of the string member, or NULL when it is absent and optional. */
static int get_str(struct ctx *c, json_object *o, const char *key, bool required, char **out)
{
	json_object *v;

	*out = NULL;
	if (member(c, o, key, json_type_string, required, &v) < 0)
		return -1;
	if (v)
		*out = xstrdup(json_object_get_string(v));
	return 0;
}

/* Whether path has a step that is empty, "." or "..": "." is the run folder itself. */
static bool has_dot_step(const char *p)
{
	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

/*
 * A test's folder inside the run folder: merge copies it and the report
 * links to it, so a results.json from another machine must not name a
 * place outside (an absolute path, a .. step).
 */
static int get_run_path(struct ctx *c, json_object *o, const char *key, char **out)
{
	const char *p;

	if (get_str(c, o, key, true, out) < 0)
		return -1;
	p = *out;
	if (!*p || *p == '/' || has_dot_step(p) || strchr(p, '\n')) {
		_cleanup_free_ char *shown = str_shown(p);

		free(steal_ptr(out));
		return bad(
		    c,
		    "\"%s\" must be a folder inside the run folder (SUITE/tNNNN-name), not \"%s\"",
		    key, shown);
	}
	/* A run names its test folders after test files: ASCII (suite.c). */
	if (needs_showing(p)) {
		free(steal_ptr(out));
		return bad(c, "\"%s\" holds a control character", key);
	}
	return 0;
}

/*
 * get_str for the text that goes back into a KTAP line (ids, reasons,
 * subtest names and directives), junit.xml or a message: ktap.c reads one
 * line per result, so none of these can hold a line break, and one read
 * here would break a merged ktap.txt into made-up result lines. Other
 * control characters come back as str_shown() shows them, as the run that
 * printed them would have written them.
 */
static int get_line(struct ctx *c, json_object *o, const char *key, bool required, char **out)
{
	char *raw;

	if (get_str(c, o, key, required, out) < 0)
		return -1;
	if (*out && strchr(*out, '\n')) {
		free(steal_ptr(out));
		return bad(c, "\"%s\" holds a line break", key);
	}
	if (*out) {
		raw = steal_ptr(out);
		*out = str_shown(raw);
		free(raw);
	}
	return 0;
}

/* An optional array of strings: a NULL-terminated copy, or NULL when absent. */
static int get_str_array(struct ctx *c, json_object *o, const char *key, char ***out, size_t *n)
{
	json_object *v;

	*out = NULL;
	*n = 0;
	if (member(c, o, key, json_type_array, false, &v) < 0)
		return -1;
	if (!v)
		return 0;
	*n = json_object_array_length(v);
	*out = xcalloc(*n + 1, sizeof(char *));
	for (size_t i = 0; i < *n; i++) {
		json_object *s = json_object_array_get_idx(v, i);

		if (!json_object_is_type(s, json_type_string))
			return bad(c, "%s[%zu] is not a string", key, i);
		(*out)[i] = xstrdup(json_object_get_string(s));
	}
	return 0;
}

/* Leaves *out alone when the member is absent and optional. */
static int get_int(struct ctx *c, json_object *o, const char *key, bool required, long long *out)
{
	json_object *v;

	if (member(c, o, key, json_type_int, required, &v) < 0)
		return -1;
	if (v)
		*out = (long long)json_object_get_int64(v);
	return 0;
}

static int get_small_int(struct ctx *c, json_object *o, const char *key, bool required, int *out)
{
	long long v = *out;

	if (get_int(c, o, key, required, &v) < 0)
		return -1;
	if (v < INT_MIN || v > INT_MAX)
		return bad(c, "\"%s\" is out of range: %lld", key, v);
	*out = (int)v;
	return 0;
}

/* Every number of this type in results.json is a duration in seconds. */
static int get_seconds(struct ctx *c, json_object *o, const char *key, bool required, double *out)
{
	json_object *v;
	double d;

	if (member(c, o, key, json_type_double, required, &v) < 0)
		return -1;
	if (!v)
		return 0;
	/* json-c reads NaN and Infinity, which report.c could not write back. */
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > (double)SECONDS_MAX)
		return bad(c, "\"%s\" is not a number of seconds from 0 to %lld: %g", key,
			   SECONDS_MAX, d);
	*out = d;
	return 0;
}

/* The names report.c writes, back to their enums. */
static int parse_verdict(const char *s, enum verdict *out)
{
	for (int v = V_PASS; v <= V_INTERRUPTED; v++) {
		if (!strcmp(s, verdict_name((enum verdict)v))) {
			*out = (enum verdict)v;
			return 0;
		}
	}
	return -1;
}

static int parse_end(const char *s, enum guest_end *out)
{
	for (int v = GUEST_REPORTED; v <= GUEST_INIT_ERROR; v++) {
		if (!strcmp(s, guest_end_name((enum guest_end)v))) {
			*out = (enum guest_end)v;
			return 0;
		}
	}
	return -1;
}

static int parse_ktap_result(const char *s, enum ktap_result *out)
{
	for (int v = KTAP_PASS; v <= KTAP_XPASS; v++) {
		if (!strcmp(s, ktap_result_name((enum ktap_result)v))) {
			*out = (enum ktap_result)v;
			return 0;
		}
	}
	return -1;
}

static int parse_case(struct ctx *c, json_object *o, struct ktap_case *kc)
{
	_cleanup_free_ char *result = NULL;
	long long n = 0;

	if (!json_object_is_type(o, json_type_object))
		return bad(c, "not an object");
	if (get_int(c, o, "n", true, &n) < 0 || get_line(c, o, "name", true, &kc->title) < 0 ||
	    get_line(c, o, "result", true, &result) < 0 ||
	    get_line(c, o, "directive", false, &kc->directive) < 0 ||
	    get_str(c, o, "diag", false, &kc->diag) < 0)
		return -1;
	if (n < 0 || n > INT_MAX)
		return bad(c, "\"n\" is out of range: %lld", n);
	kc->number = (int)n;
	if (!kc->directive)
		kc->directive = xstrdup("");
	/* As ktap.c keeps it, whatever a crafted file holds. */
	if (kc->diag && strlen(kc->diag) > KTAP_DIAG_MAX)
		kc->diag[KTAP_DIAG_MAX] = '\0';
	if (parse_ktap_result(result, &kc->result) < 0)
		return bad(c, "unknown subtest result \"%s\"", result);
	return 0;
}

/* The subtests of test i, as if their KTAP lines had been fed. */
static int parse_cases(struct ctx *c, json_object *o, size_t i, struct ktap *k)
{
	json_object *arr;
	size_t n;

	ktap_init(k);
	k->saw_version = true;
	if (member(c, o, "subtests", json_type_array, false, &arr) < 0)
		return -1;
	n = arr ? json_object_array_length(arr) : 0;
	if (n > KTAP_MAX_CASES)
		return bad(c, "%zu subtests: a run keeps at most %d of a test file", n,
			   KTAP_MAX_CASES);
	k->cases = xcalloc(n ? n : 1, sizeof(*k->cases));
	for (size_t j = 0; j < n; j++) {
		struct ktap_case *kc = &k->cases[j];

		snprintf(c->where, sizeof(c->where), "tests[%zu].subtests[%zu]", i, j);
		k->ncases = j + 1; /* so that ktap_free releases a half-read case */
		if (parse_case(c, json_object_array_get_idx(arr, j), kc) < 0)
			return -1;
		k->counts[kc->result]++;
	}
	k->planned = (int)n;
	snprintf(c->where, sizeof(c->where), "tests[%zu]", i);
	return 0;
}

/* "SUITE/tNNNN-x.sh" into the test's suite and file. */
static void test_from_id(struct test *t, char *id)
{
	const char *slash = strchr(id, '/');

	t->id = id;
	t->suite = slash ? xasprintf("%.*s", (int)(slash - id), id) : xstrdup("");
	t->file = xstrdup(slash ? slash + 1 : id);
}

/*
 * SUITE/FILE, as suite.c names a test: a name each, neither "." nor "..",
 * so that an id is no path out of where its suite would be.
 */
static bool id_valid(const struct test *t)
{
	return strchr(t->id, '/') && test_name_valid(t->suite) && test_name_valid(t->file) &&
	       strcmp(t->suite, ".") && strcmp(t->suite, "..") && strcmp(t->file, ".") &&
	       strcmp(t->file, "..");
}

/* "cost" is optional, and so are its guest counters (-1 when absent). */
static int parse_cost(struct ctx *c, json_object *o, struct guest_cost *cost)
{
	json_object *v;

	cost->guest_forks = cost->guest_page_faults = -1;
	if (member(c, o, "cost", json_type_object, false, &v) < 0)
		return -1;
	if (!v)
		return 0;
	if (get_int(c, v, "guest_forks", false, &cost->guest_forks) < 0 ||
	    get_int(c, v, "guest_page_faults", false, &cost->guest_page_faults) < 0 ||
	    get_seconds(c, v, "host_user_seconds", true, &cost->host_user_seconds) < 0 ||
	    get_seconds(c, v, "host_system_seconds", true, &cost->host_system_seconds) < 0 ||
	    get_int(c, v, "host_page_faults", true, &cost->host_page_faults) < 0 ||
	    get_int(c, v, "host_context_switches", true, &cost->host_context_switches) < 0)
		return -1;
	if (cost->guest_forks < -1 || cost->guest_page_faults < -1 || cost->host_page_faults < 0 ||
	    cost->host_context_switches < 0)
		return bad(c, "a \"cost\" count is negative");
	return 0;
}

static int parse_outcome(struct ctx *c, json_object *o, struct guest_outcome *out)
{
	_cleanup_free_ char *end = NULL;

	if (parse_cost(c, o, &out->cost) < 0)
		return -1;
	if (get_line(c, o, "end", true, &end) < 0 ||
	    get_small_int(c, o, "exit", true, &out->job_exit) < 0 ||
	    get_seconds(c, o, "sim_seconds", true, &out->sim_seconds) < 0 ||
	    get_seconds(c, o, "wall_seconds", true, &out->wall_seconds) < 0 ||
	    get_small_int(c, o, "stall_breaker", false, &out->stall_breaks) < 0)
		return -1;
	if (out->stall_breaks < 0)
		return bad(c, "\"stall_breaker\" must not be negative");
	if (parse_end(end, &out->end) < 0)
		return bad(c, "unknown \"end\" \"%s\"", end);
	return 0;
}

/* A file skipped as a whole (1..0 # SKIP why) has no cases: say so again. */
static void restore_skip_all(struct record *r)
{
	if (r->verdict != V_SKIP || r->ktap.ncases)
		return;
	r->ktap.skip_all = true;
	r->ktap.planned = 0;
	if (r->reason)
		r->ktap.skip_reason =
		    xstrdup(strncmp(r->reason, "SKIP ", 5) ? r->reason : r->reason + 5);
}

static int parse_record(struct ctx *c, json_object *o, size_t i, struct test *t, struct record *r)
{
	_cleanup_free_ char *result = NULL;
	char *id = NULL;

	snprintf(c->where, sizeof(c->where), "tests[%zu]", i);
	ktap_init(&r->ktap);
	if (!json_object_is_type(o, json_type_object))
		return bad(c, "not an object");
	if (get_line(c, o, "id", true, &id) < 0)
		return -1;
	test_from_id(t, id);
	r->test = t;
	if (!id[0])
		return bad(c, "\"id\" is empty");
	if (!id_valid(t)) {
		_cleanup_free_ char *shown = str_shown(id);

		return bad(c, "\"id\" \"%s\" is not SUITE/FILE, each a name a run gives (%s)",
			   shown, TEST_NAME_RULE);
	}
	if (get_small_int(c, o, "attempt", true, &r->attempt) < 0 ||
	    get_line(c, o, "result", true, &result) < 0 ||
	    get_line(c, o, "reason", false, &r->reason) < 0 ||
	    get_line(c, o, "lost", false, &r->lost) < 0 ||
	    get_small_int(c, o, "failed_attempts", false, &r->failed_attempts) < 0 ||
	    get_run_path(c, o, "dir", &r->dir) < 0 || parse_outcome(c, o, &r->outcome) < 0)
		return -1;
	if (r->attempt < 1 || r->attempt > ATTEMPT_MAX)
		return bad(c, "\"attempt\" must be from 1 to %d, not %d", ATTEMPT_MAX, r->attempt);
	if (r->failed_attempts < 0 || r->failed_attempts > ATTEMPT_MAX)
		return bad(c, "\"failed_attempts\" must be from 0 to %d, not %d", ATTEMPT_MAX,
			   r->failed_attempts);
	{
		/* --seeds: the guest random seed of this run, kept through a merge. */
		long long seed = -1;

		if (get_int(c, o, "seed", false, &seed) < 0)
			return -1;
		if (seed >= 0) {
			r->seeded = true;
			r->seed = seed;
		}
	}
	if (parse_verdict(result, &r->verdict) < 0)
		return bad(c, "unknown \"result\" \"%s\"", result);
	/* report_write_json writes a missing reason as "". */
	if (r->reason && !r->reason[0])
		free(steal_ptr(&r->reason));
	if (parse_cases(c, o, i, &r->ktap) < 0)
		return -1;
	restore_skip_all(r);
	return 0;
}

/* Records (ctx: the array) ordered by id and attempt, then by their place in the file. */
static int cmp_by_id(const void *a, const void *b, void *ctx)
{
	const struct record *rec = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int d = strcmp(rec[i].test->id, rec[j].test->id);

	if (d)
		return d;
	if (rec[i].attempt != rec[j].attempt)
		return rec[i].attempt < rec[j].attempt ? -1 : 1;
	return i < j ? -1 : 1;
}

static int cmp_by_dir(const void *a, const void *b, void *ctx)
{
	const struct record *rec = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int d = strcmp(rec[i].dir, rec[j].dir);

	if (d)
		return d;
	return i < j ? -1 : 1;
}

/*
 * A run lists each test and attempt once, each in a folder of its own: a
 * test twice in one file would count twice in a merge, and two records of
 * one folder would share (and hide) each other's logs.
 */
static int check_unique(struct ctx *c, const struct loaded_run *lr)
{
	_cleanup_free_ size_t *idx = xcalloc(lr->n ? lr->n : 1, sizeof(*idx));

	for (size_t i = 0; i < lr->n; i++)
		idx[i] = i;
	qsort_r(idx, lr->n, sizeof(*idx), cmp_by_id, lr->rec);
	for (size_t i = 1; i < lr->n; i++) {
		const struct record *a = &lr->rec[idx[i - 1]], *b = &lr->rec[idx[i]];

		if (!strcmp(a->test->id, b->test->id) && a->attempt == b->attempt) {
			snprintf(c->where, sizeof(c->where), "tests[%zu]", idx[i]);
			return bad(c,
				   "%s (attempt %d) is listed twice, also as tests[%zu]: a run "
				   "lists each test once",
				   b->test->id, b->attempt, idx[i - 1]);
		}
	}
	qsort_r(idx, lr->n, sizeof(*idx), cmp_by_dir, lr->rec);
	for (size_t i = 1; i < lr->n; i++) {
		const struct record *a = &lr->rec[idx[i - 1]], *b = &lr->rec[idx[i]];

		if (!strcmp(a->dir, b->dir)) {
			snprintf(c->where, sizeof(c->where), "tests[%zu]", idx[i]);
			return bad(c,
				   "\"dir\" %s is also tests[%zu]'s: a run gives each test a "
				   "folder of its own",
				   b->dir, idx[i - 1]);
		}
	}
	return 0;
}

/* The subtests of every test, counted before any is read: the memory bound. */
static int check_total(struct ctx *c, json_object *arr, size_t n)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(arr, i), *sub;

		if (json_object_is_type(t, json_type_object) &&
		    json_object_object_get_ex(t, "subtests", &sub) &&
		    json_object_is_type(sub, json_type_array))
			total += json_object_array_length(sub);
	}
	if (total > RESULTS_SUBTESTS_MAX)
		return bad(c,
			   "%zu subtests in all: umlrun reads at most %d from one file (its "
			   "memory bound)",
			   total, RESULTS_SUBTESTS_MAX);
	return 0;
}

static int parse_tests(struct ctx *c, json_object *root, struct loaded_run *lr)
{
	json_object *arr;
	size_t n;

	if (member(c, root, "tests", json_type_array, true, &arr) < 0)
		return -1;
	n = json_object_array_length(arr);
	if (check_total(c, arr, n) < 0)
		return -1;
	/* n set first: results_free releases every (zeroed or half-read) record. */
	lr->tests = xcalloc(n ? n : 1, sizeof(*lr->tests));
	lr->rec = xcalloc(n ? n : 1, sizeof(*lr->rec));
	lr->n = n;
	for (size_t i = 0; i < n; i++)
		if (parse_record(c, json_object_array_get_idx(arr, i), i, &lr->tests[i],
				 &lr->rec[i]) < 0)
			return -1;
	if (check_unique(c, lr) < 0)
		return -1;
	c->where[0] = '\0';
	return 0;
}

static int parse_info(struct ctx *c, json_object *root, struct loaded_run *lr)
{
	struct run_info *ri = &lr->info;
	_cleanup_free_ char *format = NULL;
	long long start = LLONG_MIN;

	if (get_line(c, root, "format", true, &format) < 0)
		return -1;
	if (strcmp(format, RESULTS_FORMAT))
		return bad(c, "format \"%s\" is not %s", format, RESULTS_FORMAT);
	if (get_str(c, root, "mode", false, &lr->mode) < 0 ||
	    get_str(c, root, "kernel", false, &lr->kernel) < 0 ||
	    get_str(c, root, "kernel_key", false, &lr->kernel_key) < 0 ||
	    get_str(c, root, "cmdline", false, &lr->cmdline) < 0 ||
	    get_line(c, root, "shard", false, &lr->shard) < 0 ||
	    get_str(c, root, "confinement", false, &lr->confinement) < 0 ||
	    get_str(c, root, "kernel_release", false, &lr->kernel_release) < 0 ||
	    get_str(c, root, "userspace", false, &lr->userspace) < 0 ||
	    get_str(c, root, "host_cpu", false, &lr->host_cpu) < 0 ||
	    get_line(c, root, "cpu_cost", false, &lr->cpu_cost) < 0 ||
	    get_line(c, root, "selection", false, &lr->selection) < 0 ||
	    get_int(c, root, "start", false, &start) < 0 ||
	    get_int(c, root, "seed", false, &ri->seed) < 0 ||
	    get_int(c, root, "random_seed", false, &ri->random_seed) < 0 ||
	    get_seconds(c, root, "wall_seconds", false, &ri->wall_seconds) < 0 ||
	    get_small_int(c, root, "exit_code", false, &ri->exit_code) < 0)
		return -1;
	/* An exit status: 0 to 255 (a crafted 256 made merge exit 0). */
	if (ri->exit_code < 0 || ri->exit_code > 255)
		return bad(c, "\"exit_code\" is not an exit status from 0 to 255: %d",
			   ri->exit_code);
	ri->has_start = start != LLONG_MIN;
	ri->start = ri->has_start ? start : 0;
	ri->mode = lr->mode;
	ri->kernel = lr->kernel;
	ri->kernel_key = lr->kernel_key;
	ri->cmdline_example = lr->cmdline;
	ri->shard = lr->shard;
	ri->confinement = lr->confinement;
	ri->kernel_release = lr->kernel_release;
	ri->userspace = lr->userspace;
	ri->host_cpu = lr->host_cpu;
	ri->cpu_cost = lr->cpu_cost;
	ri->selection = lr->selection;
	if (get_str_array(c, root, "overlays", &lr->overlays, &ri->noverlays) < 0 ||
	    get_str_array(c, root, "not_run", &lr->not_run, &ri->nnot_run) < 0)
		return -1;
	ri->overlays = lr->overlays;
	ri->not_run = lr->not_run;
	return 0;
}

/* The whole text as one JSON object, or NULL with the error set. */
static json_object *parse_text(struct ctx *c, const char *text, size_t len)
{
	struct json_tokener *tok;
	json_object *root;
	enum json_tokener_error jerr;
	size_t end;

	if (len > INT_MAX) {
		bad(c, "too large to be a results file");
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		uerr_set(c->e, EXIT_INFRA, "out of memory");
		return NULL;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!root) {
		bad(c, "not valid JSON: %s",
		    jerr == json_tokener_continue ? "the text ends early (was the run cut short?)"
						  : json_tokener_error_desc(jerr));
		return NULL;
	}
	while (end < len && isspace((unsigned char)text[end]))
		end++;
	if (end < len)
		bad(c, "not valid JSON: text after the end, at byte %zu", end);
	else if (!json_object_is_type(root, json_type_object))
		bad(c, "not a JSON object");
	else
		return root;
	json_object_put(root);
	return NULL;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

int results_parse(const char *text, size_t len, const char *name, struct loaded_run *lr,
		  struct uerr *e)
{
	struct ctx c = { .path = name, .e = e };
	json_object *root;
	int r;

	memset(lr, 0, sizeof(*lr));
	root = parse_text(&c, text, len);
	if (!root)
		return -1;
	r = parse_info(&c, root, lr) < 0 || parse_tests(&c, root, lr) < 0 ? -1 : 0;
	json_object_put(root);
	if (r < 0)
		results_free(lr);
	return r;
}

/*
 * The text of path; with nofollow, only when its last component is a
 * regular file and not a symbolic link (0, or -1 with e set).
 */
static int load_text(const char *path, bool nofollow, char **text, size_t *len, struct uerr *e)
{
	_cleanup_close_ int fd = -1;
	struct strbuf sb = { 0 };
	struct stat st;
	char buf[65536];
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0 && nofollow && errno == ELOOP)
		return uerr_set(e, EXIT_USAGE, "%s is a symbolic link: a run folder has none",
				path);
	if (fd < 0 || fstat(fd, &st) < 0)
		return uerr_sys(e, EXIT_USAGE, "cannot read %s", path);
	/* Given by the user (--durations FILE) it may be a link, never a fifo or a device. */
	if (!S_ISREG(st.st_mode))
		return uerr_set(e, EXIT_USAGE, "%s is not a regular file", path);
	if (st.st_size > RESULTS_FILE_MAX)
		return uerr_set(e, EXIT_USAGE,
				"%s is larger than umlrun reads back (%d MiB, its memory bound): "
				"not a results.json a run writes",
				path, (int)(RESULTS_FILE_MAX >> 20));
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sb_release(&sb);
			return uerr_sys(e, EXIT_USAGE, "cannot read %s", path);
		}
		sb_add(&sb, buf, (size_t)n);
	}
	*len = sb.len;
	*text = sb_detach(&sb);
	return 0;
}

static int load(const char *json_path, bool nofollow, struct loaded_run *lr, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;

	memset(lr, 0, sizeof(*lr));
	if (load_text(json_path, nofollow, &text, &len, e) < 0 ||
	    results_parse(text, len, json_path, lr, e) < 0)
		return -1;
	lr->dir = dir_of(json_path);
	return 0;
}

int results_load_file(const char *json_path, struct loaded_run *lr, struct uerr *e)
{
	return load(json_path, false, lr, e);
}

int results_load(const char *run_dir, struct loaded_run *lr, struct uerr *e)
{
	_cleanup_free_ char *path = xasprintf("%s/results.json", run_dir);
	int r = load(path, true, lr, e);

	if (r == 0) {
		free(lr->dir);
		lr->dir = xstrdup(run_dir);
	}
	return r;
}

void results_free(struct loaded_run *lr)
{
	for (size_t i = 0; i < lr->n; i++) {
		free(lr->tests[i].suite);
		free(lr->tests[i].file);
		free(lr->tests[i].id);
		free(lr->rec[i].dir);
		free(lr->rec[i].reason);
		free(lr->rec[i].lost);
		ktap_free(&lr->rec[i].ktap);
	}
	free(lr->tests);
	free(lr->rec);
	free(lr->dir);
	free(lr->mode);
	free(lr->kernel);
	free(lr->kernel_key);
	free(lr->cmdline);
	free(lr->shard);
	free(lr->confinement);
	free(lr->kernel_release);
	free(lr->userspace);
	free(lr->host_cpu);
	free(lr->cpu_cost);
	free(lr->selection);
	strv_free(lr->overlays);
	strv_free(lr->not_run);
	memset(lr, 0, sizeof(*lr));
}
