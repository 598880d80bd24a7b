// SPDX-License-Identifier: MIT
/* report.c - the run folder, results.json and junit.xml. */
#define _GNU_SOURCE
#include "report.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int run_dir_create(const char *results, char **run_dir, struct uerr *e)
{
	char stamp[64];
	time_t t = time(NULL);
	struct tm tm;
	_cleanup_free_ char *latest = NULL;
	_cleanup_free_ char *tmp_link = NULL;
	char *dir = NULL;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "run-%Y%m%dT%H%M%SZ", &tm);
	if (mkdir_p(results, 0755) < 0 || access(results, W_OK) < 0)
		return uerr_sys(e, EXIT_USAGE,
				"results folder %s is not writable; give another with --results",
				results);
	for (int i = 1; i < 1000; i++) {
		dir = i == 1 ? xasprintf("%s/%s", results, stamp)
			     : xasprintf("%s/%s-%d", results, stamp, i);
		if (mkdir(dir, 0755) == 0)
			break;
		if (errno != EEXIST) {
			free(dir);
			return uerr_sys(e, EXIT_USAGE, "cannot create a run folder in %s", results);
		}
		free(dir);
		dir = NULL;
	}
	if (!dir)
		return uerr_set(e, EXIT_INFRA, "too many runs in the same second in %s", results);
	/* Replace latest atomically: a new link, renamed over the old one. */
	latest = xasprintf("%s/latest", results);
	/* What a killed run left in its folder (a report half written) goes. */
	{
		_cleanup_free_ char *prev = realpath(latest, NULL);

		if (prev && is_dir(prev))
			sweep_stale_tmp(prev);
	}
	tmp_link = xasprintf("%s/.latest.%ld", results, (long)getpid());
	unlink(tmp_link);
	e->msg[0] = '\0';
	if (symlink(strrchr(dir, '/') + 1, tmp_link) < 0 || rename(tmp_link, latest) < 0) {
		uerr_sys(e, EXIT_PASS, "cannot point %s at the new run", latest);
		unlink(tmp_link);
	}
	*run_dir = dir;
	return 0;
}

static void json_str(struct strbuf *sb, const char *s)
{
	sb_adds(sb, "\"");
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(sb, "\\%c", *p);
		else if (*p == '\n')
			sb_adds(sb, "\\n");
		else if (*p == '\t')
			sb_adds(sb, "\\t");
		else if (*p < 0x20)
			sb_printf(sb, "\\u%04x", *p);
		else
			sb_add_utf8(sb, &p);
	}
	sb_adds(sb, "\"");
}

/*
 * A test's "cost" (docs/results.md), when anything of it is known: the
 * guest's counters (-1: init did not report them) and the host's rusage.
 */
static void cost_json(struct strbuf *sb, const struct guest_cost *c)
{
	if (c->guest_forks < 0 && !c->host_context_switches)
		return;
	sb_adds(sb, ", \"cost\": {");
	if (c->guest_forks >= 0)
		sb_printf(sb, "\"guest_forks\": %lld, \"guest_page_faults\": %lld, ",
			  c->guest_forks, c->guest_page_faults);
	sb_printf(sb,
		  "\"host_user_seconds\": %.3f, \"host_system_seconds\": %.3f, "
		  "\"host_page_faults\": %lld, \"host_context_switches\": %lld}",
		  c->host_user_seconds, c->host_system_seconds, c->host_page_faults,
		  c->host_context_switches);
}

/* A run-level member ",\n  \"KEY\": [\"...\", ...]": none when the array is empty. */
static void json_str_array(struct strbuf *sb, const char *key, char *const *v, size_t n)
{
	if (!n)
		return;
	sb_printf(sb, ",\n  \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		sb_adds(sb, i ? ", " : "");
		json_str(sb, v[i]);
	}
	sb_adds(sb, "]");
}

int report_write_json(const char *path, const struct run_info *ri, const struct record *r, size_t n,
		      struct uerr *e)
{
	struct strbuf sb = { 0 };
	int counts[V_INTERRUPTED + 1] = { 0 };

	sb_adds(&sb, "{\n  \"format\": \"umlrun-results-1\",\n  \"mode\": ");
	json_str(&sb, ri->mode);
	if (ri->has_start)
		sb_printf(&sb, ",\n  \"start\": %lld", ri->start);
	sb_adds(&sb, ",\n  \"kernel\": ");
	json_str(&sb, ri->kernel);
	sb_adds(&sb, ",\n  \"kernel_key\": ");
	json_str(&sb, ri->kernel_key);
	sb_adds(&sb, ",\n  \"cmdline\": ");
	json_str(&sb, ri->cmdline_example);
	if (ri->shard) {
		sb_adds(&sb, ",\n  \"shard\": ");
		json_str(&sb, ri->shard);
	}
	json_str_array(&sb, "overlays", ri->overlays, ri->noverlays);
	if (ri->seed)
		sb_printf(&sb, ",\n  \"seed\": %lld", ri->seed);
	sb_printf(&sb, ",\n  \"random_seed\": %lld", ri->random_seed);
	if (ri->confinement) {
		sb_adds(&sb, ",\n  \"confinement\": ");
		json_str(&sb, ri->confinement);
	}
	if (ri->kernel_release) {
		sb_adds(&sb, ",\n  \"kernel_release\": ");
		json_str(&sb, ri->kernel_release);
	}
	if (ri->userspace) {
		sb_adds(&sb, ",\n  \"userspace\": ");
		json_str(&sb, ri->userspace);
	}
	if (ri->host_cpu) {
		sb_adds(&sb, ",\n  \"host_cpu\": ");
		json_str(&sb, ri->host_cpu);
	}
	if (ri->selection) {
		sb_adds(&sb, ",\n  \"selection\": ");
		json_str(&sb, ri->selection);
	}
	if (ri->cpu_cost) {
		sb_adds(&sb, ",\n  \"cpu_cost\": ");
		json_str(&sb, ri->cpu_cost);
	}
	json_str_array(&sb, "not_run", ri->not_run, ri->nnot_run);
	sb_printf(&sb, ",\n  \"wall_seconds\": %.3f,\n  \"exit_code\": %d,\n  \"tests\": [",
		  ri->wall_seconds, ri->exit_code);
	for (size_t i = 0; i < n; i++) {
		const struct record *t = &r[i];

		counts[t->verdict]++;
		sb_adds(&sb, i ? ",\n    {" : "\n    {");
		sb_adds(&sb, "\"id\": ");
		json_str(&sb, t->test->id);
		sb_printf(&sb, ", \"attempt\": %d, ", t->attempt);
		if (t->seeded)
			sb_printf(&sb, "\"seed\": %lld, ", t->seed);
		sb_adds(&sb, "\"result\": ");
		json_str(&sb, verdict_name(t->verdict));
		sb_adds(&sb, ", \"reason\": ");
		json_str(&sb, t->reason);
		if (t->lost) {
			sb_adds(&sb, ", \"lost\": ");
			json_str(&sb, t->lost);
		}
		sb_adds(&sb, ", \"end\": ");
		json_str(&sb, guest_end_name(t->outcome.end));
		sb_printf(&sb, ", \"exit\": %d, \"sim_seconds\": %.9f, \"wall_seconds\": %.3f",
			  t->outcome.job_exit, t->outcome.sim_seconds, t->outcome.wall_seconds);
		if (t->failed_attempts)
			sb_printf(&sb, ", \"failed_attempts\": %d", t->failed_attempts);
		if (t->outcome.stall_breaks)
			sb_printf(&sb, ", \"stall_breaker\": %d", t->outcome.stall_breaks);
		cost_json(&sb, &t->outcome.cost);
		sb_adds(&sb, ", \"dir\": ");
		json_str(&sb, t->dir);
		sb_adds(&sb, ", \"subtests\": [");
		for (size_t j = 0; j < t->ktap.ncases; j++) {
			const struct ktap_case *c = &t->ktap.cases[j];

			sb_printf(&sb, "%s{\"n\": %d, \"name\": ", j ? ", " : "", c->number);
			json_str(&sb, c->title);
			sb_adds(&sb, ", \"result\": ");
			json_str(&sb, ktap_result_name(c->result));
			if (c->directive[0]) {
				sb_adds(&sb, ", \"directive\": ");
				json_str(&sb, c->directive);
			}
			if (c->diag) {
				sb_adds(&sb, ", \"diag\": ");
				json_str(&sb, c->diag);
			}
			sb_adds(&sb, "}");
		}
		sb_adds(&sb, "]}");
	}
	sb_adds(&sb, "\n  ],\n  \"summary\": {");
	for (int v = V_PASS; v <= V_INTERRUPTED; v++)
		sb_printf(&sb, "%s\"%s\": %d", v ? ", " : "", verdict_name((enum verdict)v),
			  counts[v]);
	sb_adds(&sb, "}\n}\n");
	return sb_write_atomic(path, &sb, e);
}

/*
 * s as XML 1.0 character data, fit for an attribute value too: markup
 * characters as entities; tab, LF and CR as character references, so that
 * a parser's attribute-value and end-of-line normalization keep them; and
 * every character XML 1.0 does not allow (the C0 controls but those
 * three, U+FFFE, U+FFFF) as U+FFFD, as a byte that is not UTF-8 is.
 */
static void xml_str(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '<':
			sb_adds(sb, "&lt;");
			break;
		case '>':
			sb_adds(sb, "&gt;");
			break;
		case '&':
			sb_adds(sb, "&amp;");
			break;
		case '"':
			sb_adds(sb, "&quot;");
			break;
		case '\t':
		case '\n':
		case '\r':
			sb_printf(sb, "&#%d;", *p);
			break;
		default:
			/* U+FFFE and U+FFFF are EF BF BE and EF BF BF. */
			if (*p < 0x20 || (p[0] == 0xef && p[1] == 0xbf && (p[2] & 0xfe) == 0xbe)) {
				sb_adds(sb, "\xef\xbf\xbd");
				p += *p < 0x20 ? 0 : 2;
			} else if (unicode_control(p, utf8_valid_len(p))) {
				/* A viewer would reorder the text around it. */
				sb_adds(sb, "\xef\xbf\xbd");
				p += utf8_valid_len(p) - 1;
			} else {
				sb_add_utf8(sb, &p);
			}
		}
	}
}

/*
 * Whether a test file gets a "(test file)" case of its own: a file-level
 * problem, so viewers show it, or a flaky pass, as the <flakyFailure> of
 * Maven Surefire's reruns (Jenkins shows it, other readers skip it).
 */
/* The kept cases of t with result r (the counts include those past KTAP_MAX_CASES). */
static int kept_cases(const struct record *t, enum ktap_result r)
{
	int n = 0;

	for (size_t i = 0; i < t->ktap.ncases; i++)
		n += t->ktap.cases[i].result == r;
	return n;
}

static bool file_case(const struct record *t)
{
	return t->verdict >= V_TIMEOUT || !t->ktap.ncases || t->verdict == V_FLAKY ||
	       (t->verdict == V_FAIL && !kept_cases(t, KTAP_FAIL));
}

/* A test file's <testcase> elements and, of them, its failures, errors and skips. */
struct junit_counts {
	int tests, failures, errors, skipped;
};

static struct junit_counts junit_count(const struct record *t)
{
	bool own = file_case(t);

	/* What the elements say: the cases kept, and the file's own. */
	/* A file whose logs were lost has a case saying so: an error (exit 3). */
	return (struct junit_counts){
		.tests = (int)t->ktap.ncases + own + (t->lost != NULL),
		.failures = kept_cases(t, KTAP_FAIL) + (own && t->verdict == V_FAIL),
		.errors = (own && t->verdict >= V_TIMEOUT) + (t->lost != NULL),
		.skipped = kept_cases(t, KTAP_SKIP) + kept_cases(t, KTAP_XFAIL) +
			   (own && t->verdict == V_SKIP),
	};
}

/* One <testsuite> per test file, one <testcase> per KTAP case. */
int report_write_junit(const char *path, const struct run_info *ri, const struct record *r,
		       size_t n, struct uerr *e)
{
	struct strbuf sb = { 0 };
	struct junit_counts all = { 0 };

	for (size_t i = 0; i < n; i++) {
		struct junit_counts c = junit_count(&r[i]);

		all.tests += c.tests;
		all.failures += c.failures;
		all.errors += c.errors;
		all.skipped += c.skipped;
	}
	/* Tests the run never started (interrupted, failed): errors, each named. */
	all.tests += (int)ri->nnot_run;
	all.errors += (int)ri->nnot_run;
	sb_printf(&sb,
		  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		  "<testsuites name=\"umlrun\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		  "skipped=\"%d\" time=\"%.3f\">\n",
		  all.tests, all.failures, all.errors, all.skipped, ri->wall_seconds);
	for (size_t i = 0; i < n; i++) {
		const struct record *t = &r[i];
		_cleanup_free_ char *name = t->seeded ? xasprintf("%s@%lld", t->test->id, t->seed)
					    : t->attempt > 1
						? xasprintf("%s#%d", t->test->id, t->attempt)
						: xstrdup(t->test->id);

		struct junit_counts k = junit_count(t);

		sb_adds(&sb, "  <testsuite name=\"");
		xml_str(&sb, name);
		sb_printf(&sb,
			  "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" "
			  "time=\"%.3f\">\n",
			  k.tests, k.failures, k.errors, k.skipped, t->outcome.wall_seconds);
		sb_printf(&sb,
			  "    <properties><property name=\"sim_seconds\" value=\"%.9f\"/>"
			  "<property name=\"result\" value=\"%s\"/>",
			  t->outcome.sim_seconds, verdict_name(t->verdict));
		sb_adds(&sb, "<property name=\"log\" value=\"");
		xml_str(&sb, t->dir);
		sb_adds(&sb, "/console.log\"/></properties>\n");
		for (size_t j = 0; j < t->ktap.ncases; j++) {
			const struct ktap_case *c = &t->ktap.cases[j];

			sb_adds(&sb, "    <testcase classname=\"");
			xml_str(&sb, name);
			sb_adds(&sb, "\" name=\"");
			xml_str(&sb, c->title);
			sb_adds(&sb, "\">");
			if (c->result == KTAP_FAIL) {
				/* What the test said of it (its failing body, a diff), then where
				 * the rest is. */
				sb_adds(&sb, "<failure message=\"failed\">");
				if (c->diag)
					xml_str(&sb, c->diag);
				sb_adds(&sb, "see ");
				xml_str(&sb, t->dir);
				sb_adds(&sb, "/console.log</failure>");
			} else if (c->result == KTAP_SKIP || c->result == KTAP_XFAIL) {
				sb_adds(&sb, "<skipped message=\"");
				xml_str(&sb,
					c->result == KTAP_XFAIL ? "known breakage" : c->directive);
				sb_adds(&sb, "\"/>");
			}
			sb_adds(&sb, "</testcase>\n");
		}
		if (file_case(t)) {
			sb_adds(&sb, "    <testcase classname=\"");
			xml_str(&sb, name);
			sb_adds(&sb, "\" name=\"(test file)\">");
			if (t->verdict == V_FLAKY) {
				sb_printf(&sb,
					  "<flakyFailure message=\"flaky: failed %d time%s, then "
					  "passed (--retry)\">see ",
					  t->failed_attempts, t->failed_attempts == 1 ? "" : "s");
				xml_str(&sb, t->dir);
				sb_adds(&sb, ".try1/console.log</flakyFailure>");
			} else if (t->verdict != V_PASS && t->verdict != V_SKIP) {
				sb_adds(&sb, t->verdict == V_FAIL ? "<failure message=\""
								  : "<error message=\"");
				xml_str(&sb, t->reason ? t->reason : verdict_name(t->verdict));
				sb_adds(&sb, t->verdict == V_FAIL ? "\"/>" : "\"/>");
			} else if (t->verdict == V_SKIP) {
				sb_adds(&sb, "<skipped message=\"");
				xml_str(&sb, t->reason);
				sb_adds(&sb, "\"/>");
			}
			sb_adds(&sb, "</testcase>\n");
		}
		if (t->lost) {
			sb_adds(&sb, "    <testcase classname=\"");
			xml_str(&sb, name);
			sb_adds(&sb, "\" name=\"(logs)\"><error message=\"lost: ");
			xml_str(&sb, t->lost);
			sb_adds(&sb, "\"/></testcase>\n");
		}
		sb_adds(&sb, "  </testsuite>\n");
	}
	if (ri->nnot_run) {
		sb_printf(&sb,
			  "  <testsuite name=\"(not run)\" tests=\"%zu\" failures=\"0\" "
			  "errors=\"%zu\" skipped=\"0\" time=\"0.000\">\n",
			  ri->nnot_run, ri->nnot_run);
		for (size_t i = 0; i < ri->nnot_run; i++) {
			sb_adds(&sb, "    <testcase classname=\"");
			xml_str(&sb, ri->not_run[i]);
			sb_adds(&sb, "\" name=\"(test file)\"><error message=\"not run: the run "
				     "ended before it started\"/></testcase>\n");
		}
		sb_adds(&sb, "  </testsuite>\n");
	}
	sb_adds(&sb, "</testsuites>\n");
	return sb_write_atomic(path, &sb, e);
}
