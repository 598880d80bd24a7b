// SPDX-License-Identifier: MIT
/*
 * html.c - report.html: one function per section of the page (see html.h).
 *
 * The page is built in one strbuf and written with write_file_atomic, so
 * a reader never sees half a page. Only the write can fail: a log that
 * cannot be read or an artifacts folder that cannot be scanned is shown
 * as such on the page. Files are read and linked only when they are
 * regular files reached through no symbolic link below the run folder
 * (open_parent): a test's folder came from a guest, or for a merge from
 * another machine.
 */
#define _GNU_SOURCE
#include "html.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define EXCERPT_LINES 30
/* What of a console.log an excerpt reads (a panic above the last lines) and shows. */
#define EXCERPT_READ_MAX  ((size_t)1 << 20)
#define EXCERPT_SHOWN_MAX ((size_t)64 << 10)
#define ARTIFACT_DEPTH	  8 /* folders below artifacts/ that are scanned */

/* The chart's geometry, in SVG user units (the SVG scales to the page). */
#define CH_WIDTH 1000
#define CH_X0	 12  /* where the bars start */
#define CH_PLOT	 700 /* the bars' full length */
#define CH_TOP	 56  /* legend and decade labels above the first bar */
#define CH_ROW	 50  /* one test: its name, then two bars */

static const char page_style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
    "color:#1f2328;background:#f6f8fa;margin:0}\n"
    "main{max-width:1160px;margin:0 auto;padding:20px 24px 40px}\n"
    "h1{font-size:22px;margin:0 0 12px}h2{font-size:17px;margin:28px 0 10px}\n"
    "h3{font-size:15px;margin:0 0 6px}\n"
    ".card{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:14px 18px}\n"
    "dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:0}\n"
    "dl.meta dt{color:#59636e}dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
    "code,pre{font:12.5px/1.4 ui-monospace,'DejaVu Sans Mono',Menlo,monospace}\n"
    ".totals{display:flex;flex-wrap:wrap;gap:8px;margin:14px 0 0}\n"
    ".count{padding:3px 10px;border-radius:12px}.count b{margin-left:4px}\n"
    ".count.zero{opacity:.45}\n"
    "table.tests{border-collapse:collapse;width:100%;background:#fff;"
    "border:1px solid #d0d7de}\n"
    "table.tests th{background:#eef1f4;text-align:left;font-weight:600}\n"
    "table.tests th,table.tests td{padding:6px 10px;vertical-align:top}\n"
    "tr.test td{border-top:1px solid #d0d7de}\n"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "td.id{font-weight:600;white-space:nowrap}\n"
    "td.links a{margin-right:10px;white-space:nowrap;display:inline-block}\n"
    "tr.subtests td{padding-top:0;color:#59636e;font-size:13px}\n"
    "summary{cursor:pointer}ul.cases{list-style:none;margin:4px 0 6px;padding-left:18px}\n"
    "ul.cases .n{display:inline-block;min-width:2.2em;color:#59636e}\n"
    ".verdict,.r{display:inline-block;padding:0 8px;border-radius:10px;font-weight:600;"
    "font-size:12.5px}\n"
    ".v-pass,.r-pass,.r-xpass{background:#dafbe1;color:#1a7f37}\n"
    ".v-fail,.r-fail{background:#ffebe9;color:#cf222e}\n"
    ".v-skip,.r-skip,.r-xfail{background:#eaeef2;color:#59636e}\n"
    ".v-flaky{background:#fff8c5;color:#9a6700}\n"
    ".v-timeout{background:#fbefff;color:#8250df}\n"
    ".v-crash{background:#a40e26;color:#fff}\n"
    ".v-interrupted{background:#ddf4ff;color:#0969da}\n"
    "a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}\n"
    "svg.chart{display:block;width:100%;height:auto;background:#fff;"
    "border:1px solid #d0d7de;border-radius:6px}\n"
    "svg.chart text{font:12px system-ui,sans-serif;fill:#1f2328}\n"
    "svg.chart text.name{font-weight:600}svg.chart text.tick{fill:#59636e;font-size:11px}\n"
    "svg.chart text.val,svg.chart tspan.val{fill:#59636e;font-size:11px;font-weight:400}\n"
    "svg.chart line.grid{stroke:#d0d7de;stroke-dasharray:3 3}\n"
    "svg.chart .sim{fill:#2da44e}svg.chart .wall{fill:#8c959f}\n"
    "section.excerpt{margin:0 0 16px}\n"
    "section.excerpt pre{background:#161b22;color:#e6edf3;padding:10px 12px;"
    "border-radius:6px;overflow-x:auto;margin:6px 0 0}\n"
    "pre .gap{color:#8c959f}p.reason{margin:0;color:#59636e}\n";

/* HTML-escapes s, dropping the control characters a console may carry. */
static void esc_n(struct strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '&')
			sb_adds(sb, "&amp;");
		else if (c == '<')
			sb_adds(sb, "&lt;");
		else if (c == '>')
			sb_adds(sb, "&gt;");
		else if (c == '"')
			sb_adds(sb, "&quot;");
		else if (c == '\'')
			sb_adds(sb, "&#39;");
		else if (c >= 0x80) {
			/* UTF-8 only (a page is one encoding), and no reordering of the text. */
			const unsigned char *p = (const unsigned char *)&s[i];
			size_t n = utf8_valid_len(p);

			if (n == 0 || i + n > len || unicode_control(p, n)) {
				sb_adds(sb, "\xef\xbf\xbd");
				n = n && i + n <= len ? n : 1;
			} else {
				sb_add(sb, p, n);
			}
			i += n - 1;
		} else if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t')
			sb_add(sb, &s[i], 1);
	}
}

static void esc(struct strbuf *sb, const char *s)
{
	if (s)
		esc_n(sb, s, strlen(s));
}

/* Percent-encodes a relative path: the result needs no HTML escaping. */
static void url_esc(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			sb_add(sb, p, 1);
		else
			sb_printf(sb, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
}

/* A duration for people: 0 s, 3.33 µs, 106 ms, 3600 s. */
static void sb_dur(struct strbuf *sb, double s)
{
	if (s <= 0)
		sb_adds(sb, "0 s");
	else if (s < 1e-3)
		sb_printf(sb, "%.3g µs", s * 1e6);
	else if (s < 1)
		sb_printf(sb, "%.3g ms", s * 1e3);
	else if (s < 1e4)
		sb_printf(sb, "%.4g s", s);
	else
		sb_printf(sb, "%.0f s", s);
}

/* The test's id, and its seed (--seeds) or its attempt when it ran more than once. */
static void html_id(struct strbuf *sb, const struct record *t)
{
	esc(sb, t->test->id);
	if (t->seeded)
		sb_printf(sb, "@%lld", t->seed);
	else if (t->attempt > 1)
		sb_printf(sb, " #%d", t->attempt);
}

static void html_verdict(struct strbuf *sb, enum verdict v)
{
	sb_printf(sb, "<span class=\"verdict v-%s\">%s</span>", verdict_name(v), verdict_name(v));
}

static void html_head(struct strbuf *sb, const char *name)
{
	sb_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		    "style-src 'unsafe-inline'\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>umlrun ");
	esc(sb, name);
	sb_printf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", page_style);
}

static const char *exit_meaning(int code)
{
	switch (code) {
	case EXIT_PASS:
		return "everything passed";
	case EXIT_TESTFAIL:
		return "a test failed";
	case EXIT_USAGE:
		return "usage error";
	case EXIT_INFRA:
		return "infrastructure: a build, boot or guest crash";
	case EXIT_TIMEOUT:
		return "a timeout";
	}
	if (code > EXIT_SIGNAL_BASE)
		return strsignal(code - EXIT_SIGNAL_BASE);
	return "";
}

static void html_start(struct strbuf *sb, const struct run_info *ri)
{
	time_t t = (time_t)ri->start;
	struct tm tm;
	char when[64];

	if (!ri->has_start || !gmtime_r(&t, &tm)) {
		sb_adds(sb, "not set");
		return;
	}
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	sb_printf(sb, "%s (%lld)", when, ri->start);
}

/* One <dt>/<dd> pair; the value is escaped. */
static void meta(struct strbuf *sb, const char *term, const char *value)
{
	sb_printf(sb, "<dt>%s</dt><dd>", term);
	esc(sb, value);
	sb_adds(sb, "</dd>\n");
}

static void html_totals(struct strbuf *sb, const struct record *r, size_t n)
{
	int counts[V_INTERRUPTED + 1] = { 0 };

	for (size_t i = 0; i < n; i++)
		counts[r[i].verdict]++;
	sb_adds(sb, "<div class=\"totals\">\n");
	for (int v = V_PASS; v <= V_INTERRUPTED; v++)
		sb_printf(sb,
			  "<span class=\"count v-%s%s\" data-verdict=\"%s\">%s<b>%d</b></span>\n",
			  verdict_name((enum verdict)v), counts[v] ? "" : " zero",
			  verdict_name((enum verdict)v), verdict_name((enum verdict)v), counts[v]);
	sb_adds(sb, "</div>\n");
}

static void html_header(struct strbuf *sb, const char *name, const struct run_info *ri,
			const struct record *r, size_t n)
{
	double sim = 0, wall = 0;

	for (size_t i = 0; i < n; i++) {
		sim += r[i].outcome.sim_seconds;
		wall += r[i].outcome.wall_seconds;
	}
	sb_adds(sb, "<header class=\"card\">\n<h1>umlrun ");
	esc(sb, name);
	sb_adds(sb, "</h1>\n<dl class=\"meta\">\n");
	meta(sb, "mode", ri->mode);
	sb_adds(sb, "<dt>start</dt><dd>");
	html_start(sb, ri);
	sb_adds(sb, "</dd>\n<dt>kernel</dt><dd><code>");
	esc(sb, ri->kernel);
	sb_adds(sb, "</code>");
	if (ri->kernel_release) {
		sb_adds(sb, " <span class=\"kernel-release\">");
		esc(sb, ri->kernel_release);
		if (ri->userspace) {
			sb_adds(sb, ", ");
			esc(sb, ri->userspace);
		}
		if (ri->cpu_cost) {
			sb_adds(sb, ", cpu cost ");
			esc(sb, ri->cpu_cost);
		}
		sb_adds(sb, "</span>");
	}
	sb_adds(sb, "</dd>\n");
	if (ri->host_cpu)
		meta(sb, "host", ri->host_cpu);
	if (ri->shard)
		meta(sb, "shard", ri->shard);
	if (ri->seed)
		sb_printf(sb, "<dt>shuffle seed</dt><dd>%lld</dd>\n", ri->seed);
	/* --seeds: each run's own, named on its line; the run's 0 is none of them. */
	{
		long long lo = 0, hi = 0;
		bool seeded = false;

		for (size_t i = 0; i < n; i++)
			if (r[i].seeded) {
				lo = seeded && lo < r[i].seed ? lo : r[i].seed;
				hi = seeded && hi > r[i].seed ? hi : r[i].seed;
				seeded = true;
			}
		if (seeded)
			sb_printf(sb,
				  "<dt>random seed</dt><dd class=\"random-seed\">each run its own, "
				  "%lld to %lld (--seeds)</dd>\n",
				  lo, hi);
		else
			sb_printf(sb, "<dt>random seed</dt><dd class=\"random-seed\">%lld</dd>\n",
				  ri->random_seed);
	}
	if (ri->confinement) {
		sb_adds(sb, "<dt>confinement</dt><dd class=\"confinement\">");
		esc(sb, ri->confinement);
		if (!strcmp(ri->confinement, "none"))
			sb_adds(sb, " (the guest could reach the host's files)");
		sb_adds(sb, "</dd>\n");
	}
	for (size_t i = 0; i < ri->noverlays; i++) {
		sb_adds(sb, "<dt>overlay</dt><dd class=\"overlay\"><code>");
		esc(sb, ri->overlays[i]);
		sb_adds(sb, "</code></dd>\n");
	}
	sb_printf(sb, "<dt>exit code</dt><dd class=\"exit\">%d ", ri->exit_code);
	esc(sb, exit_meaning(ri->exit_code));
	sb_printf(sb,
		  "</dd>\n<dt>time</dt><dd><span class=\"sim-total\">%.6f</span> s simulated, "
		  "<span class=\"wall-total\">%.3f</span> s wall (the guests together: %.3f s "
		  "wall)</dd>\n",
		  sim, ri->wall_seconds, wall);
	sb_adds(sb, "</dl>\n");
	html_totals(sb, r, n);
	if (ri->cmdline_example) {
		sb_adds(sb, "<details><summary>kernel command line</summary><pre>");
		esc(sb, ri->cmdline_example);
		sb_adds(sb, "</pre></details>\n");
	}
	sb_adds(sb, "</header>\n");
}

static void link_to(struct strbuf *sb, const char *rel, const char *label)
{
	sb_adds(sb, "<a href=\"");
	url_esc(sb, rel);
	sb_adds(sb, "\">");
	esc(sb, label);
	sb_adds(sb, "</a>\n");
}

/*
 * The folder holding rel's last component, opened below run_dir without
 * following a symbolic link on the way (run_dir itself is the caller's):
 * a descriptor and *leaf pointing into rel, or -1. A test's folder came
 * from a guest, or from a shard's machine for a merge: a link in it must
 * not bring another file onto the page.
 */
static int open_parent(const char *run_dir, const char *rel, const char **leaf)
{
	int dfd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *p = rel, *slash;

	while (dfd >= 0 && (slash = strchr(p, '/'))) {
		_cleanup_free_ char *name = xstrndup(p, (size_t)(slash - p));
		int next = -1;

		/* Never up: results_read.c refuses a "dir" with a .. step, too. */
		if (!*name || !strcmp(name, "."))
			next = dup(dfd);
		else if (strcmp(name, ".."))
			next = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(dfd);
		dfd = next;
		p = slash + 1;
	}
	*leaf = p;
	return dfd;
}

/* Whether rel is a regular file below run_dir, reached through no link. */
static bool regular_file(const char *run_dir, const char *rel)
{
	const char *leaf;
	_cleanup_close_ int dfd = open_parent(run_dir, rel, &leaf);
	struct stat st;

	return dfd >= 0 && fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

/*
 * The end of the regular file rel below run_dir, reached through no link:
 * its last max bytes at most.
 */
static int read_regular_tail(const char *run_dir, const char *rel, size_t max, char **out,
			     size_t *len)
{
	const char *leaf;
	_cleanup_close_ int dfd = open_parent(run_dir, rel, &leaf);
	_cleanup_close_ int fd = -1;
	struct strbuf sb = { 0 };
	struct stat st;
	char buf[65536];
	ssize_t n;

	if (dfd < 0)
		return -1;
	fd = openat(dfd, leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	if ((size_t)st.st_size > max && lseek(fd, st.st_size - (off_t)max, SEEK_SET) < 0)
		return -1;
	while (sb.len < max && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sb_release(&sb);
			return -1;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	*len = sb.len;
	*out = sb_detach(&sb);
	return 0;
}

/* A link to DIR/NAME when it is a file: an interrupted test may lack some. */
static void link_file(struct strbuf *sb, const char *run_dir, const char *dir, const char *name)
{
	_cleanup_free_ char *rel = xasprintf("%s/%s", dir, name);

	if (regular_file(run_dir, rel))
		link_to(sb, rel, name);
}

static bool is_artifact(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && !strcmp(name + n - 5, ".pcap")) ||
	       (n > 4 && !strcmp(name + n - 4, ".log"));
}

/*
 * Links to every *.pcap and *.log in the folder dfd (rel below the run
 * folder; closes dfd), sorted, labelled by their path below artifacts/
 * (label_at). The guest wrote these folders: symlinks are not followed and
 * the depth is bounded.
 */
static void link_artifacts(struct strbuf *sb, int dfd, const char *rel, size_t label_at, int depth)
{
	struct dirent **ents;
	int n = dfd >= 0 ? scandirat(dfd, ".", &ents, NULL, alphasort) : -1;

	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		_cleanup_free_ char *sub = xasprintf("%s/%s", rel, name);
		struct stat st;

		if (strcmp(name, ".") && strcmp(name, "..") &&
		    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISDIR(st.st_mode) && depth < ARTIFACT_DEPTH)
				link_artifacts(
				    sb,
				    openat(dfd, name,
					   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
				    sub, label_at, depth + 1);
			else if (S_ISREG(st.st_mode) && is_artifact(name))
				link_to(sb, sub, sub + label_at);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	if (dfd >= 0)
		close(dfd);
}

/* The folder art below run_dir (a test's artifacts/), opened through no link, or -1. */
static int open_artifacts(const char *run_dir, const char *art)
{
	const char *leaf;
	_cleanup_close_ int dfd = open_parent(run_dir, art, &leaf);

	return dfd < 0 ? -1 : openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static void html_links(struct strbuf *sb, const char *run_dir, const struct record *t, size_t i)
{
	_cleanup_free_ char *art = xasprintf("%s/artifacts", t->dir);

	link_file(sb, run_dir, t->dir, "console.log");
	link_file(sb, run_dir, t->dir, "ktap.log");
	link_file(sb, run_dir, t->dir, "cmdline.txt");
	/* --trace-event: the kernel's trace buffer (docs/debugging.md). */
	link_file(sb, run_dir, art, "trace.txt");
	link_artifacts(sb, open_artifacts(run_dir, art), art, strlen(art) + 1, 0);
	if (t->verdict != V_PASS)
		sb_printf(sb, "<a href=\"#log-%zu\">excerpt</a>\n", i + 1);
}

static void html_row(struct strbuf *sb, const char *run_dir, const struct record *t, size_t i)
{
	const struct guest_outcome *o = &t->outcome;

	sb_printf(sb, "<tr class=\"test\" id=\"test-%zu\" data-verdict=\"%s\">\n<td class=\"id\">",
		  i + 1, verdict_name(t->verdict));
	html_id(sb, t);
	sb_adds(sb, "</td>\n<td>");
	html_verdict(sb, t->verdict);
	sb_printf(sb, "</td>\n<td class=\"num\">%.6f</td>\n<td class=\"num\">%.3f</td>\n",
		  o->sim_seconds, o->wall_seconds);
	if (o->wall_seconds > 0)
		sb_printf(sb, "<td class=\"num\">%.3g×</td>\n", o->sim_seconds / o->wall_seconds);
	else
		sb_adds(sb, "<td class=\"num\">–</td>\n");
	sb_adds(sb, "<td class=\"reason\">");
	esc(sb, t->reason);
	if (t->failed_attempts)
		sb_printf(sb, " (after %d failed attempts)", t->failed_attempts);
	if (o->stall_breaks)
		sb_printf(sb,
			  "<p class=\"reason\">time advanced by the stall breaker %d times: "
			  "not deterministic</p>",
			  o->stall_breaks);
	if (t->lost) {
		sb_adds(sb, "<p class=\"reason lost\">lost: ");
		esc(sb, t->lost);
		sb_adds(sb, "</p>");
	}
	sb_adds(sb, "</td>\n<td class=\"links\">\n");
	html_links(sb, run_dir, t, i);
	sb_adds(sb, "</td>\n</tr>\n");
}

static void html_case(struct strbuf *sb, const struct ktap_case *c)
{
	const char *r = ktap_result_name(c->result);

	sb_printf(sb,
		  "<li class=\"case\"><span class=\"n\">%d</span><span class=\"r r-%s\">%s</span> ",
		  c->number, r, r);
	esc(sb, c->title);
	if (c->directive && c->directive[0]) {
		sb_adds(sb, " <i># ");
		esc(sb, c->directive);
		sb_adds(sb, "</i>");
	}
	sb_adds(sb, "</li>\n");
}

/* "3 subtests: 2 pass, 1 fail", or why there are none. */
static void html_case_summary(struct strbuf *sb, const struct ktap *k)
{
	bool first = true;

	sb_printf(sb, "%zu subtest%s", k->ncases, k->ncases == 1 ? "" : "s");
	if (k->planned >= 0 && (size_t)k->planned != k->ncases)
		sb_printf(sb, " of %d planned", k->planned);
	for (int r = KTAP_PASS; r <= KTAP_XPASS; r++) {
		if (!k->counts[r])
			continue;
		sb_printf(sb, "%s%d %s", first ? ": " : ", ", k->counts[r],
			  ktap_result_name((enum ktap_result)r));
		first = false;
	}
	if (k->skip_all) {
		sb_adds(sb, "; the whole file skipped: ");
		esc(sb, k->skip_reason);
	}
}

/* The KTAP subtests, under their file's row; open when it did not pass. */
static void html_subtests(struct strbuf *sb, const struct record *t)
{
	const struct ktap *k = &t->ktap;

	sb_adds(sb, "<tr class=\"subtests\"><td colspan=\"7\">");
	if (!k->ncases) {
		html_case_summary(sb, k);
		sb_adds(sb, "</td></tr>\n");
		return;
	}
	sb_printf(sb, "<details%s><summary>", t->verdict == V_PASS ? "" : " open");
	html_case_summary(sb, k);
	sb_adds(sb, "</summary>\n<ul class=\"cases\">\n");
	for (size_t j = 0; j < k->ncases; j++)
		html_case(sb, &k->cases[j]);
	sb_adds(sb, "</ul></details></td></tr>\n");
}

static void html_table(struct strbuf *sb, const char *run_dir, const struct record *r, size_t n)
{
	sb_adds(sb,
		"<h2>Test files</h2>\n<table class=\"tests\">\n<thead><tr><th>test file</th>"
		"<th>verdict</th><th class=\"num\">simulated s</th><th class=\"num\">wall s</th>"
		"<th class=\"num\">sim/wall</th><th>reason</th><th>logs</th></tr></thead>\n"
		"<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		html_row(sb, run_dir, &r[i], i);
		html_subtests(sb, &r[i]);
	}
	sb_adds(sb, "</tbody>\n</table>\n");
}

/*
 * log10 without libm, which the build does not link: whole decades by
 * division, the rest by ln v = 2 atanh((v-1)/(v+1)), ample for pixels.
 */
static double lg(double v)
{
	double d = 0, z, z2, term, sum = 0;

	/* Not a number, infinite or out of any run's range: the scale's ends. */
	if (!(v > 1e-12))
		return -12;
	if (!(v < 1e12))
		return 12;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	while (v < 1) {
		v *= 10;
		d--;
	}
	z = (v - 1) / (v + 1);
	z2 = z * z;
	term = z;
	for (int k = 1; k < 400 && term > 1e-12; k += 2) {
		sum += term / k;
		term *= z2;
	}
	return d + 2 * sum / 2.302585092994046;
}

static double pow10i(int e)
{
	double v = 1;

	for (; e > 0; e--)
		v *= 10;
	for (; e < 0; e++)
		v /= 10;
	return v;
}

/* The chart's decades: 10^lo below the smallest value, 10^hi at or above the largest. */
struct scale {
	int lo, hi;
};

static struct scale scale_of(const struct record *r, size_t n)
{
	double min = 0, max = 0;
	struct scale s = { -9, -8 };

	for (size_t i = 0; i < 2 * n; i++) {
		double v = i % 2 ? r[i / 2].outcome.wall_seconds : r[i / 2].outcome.sim_seconds;

		if (v > 0 && (min == 0 || v < min))
			min = v;
		if (v > max)
			max = v;
	}
	if (max <= 0)
		return (struct scale){ -3, 0 };
	/* Nanoseconds are the clock's grain: nothing smaller is shown. */
	while (s.lo < 9 && pow10i(s.lo + 1) < min)
		s.lo++;
	s.hi = s.lo + 1;
	while (s.hi < 12 && pow10i(s.hi) < max)
		s.hi++;
	return s;
}

static double scale_x(const struct scale *s, double v)
{
	double f;

	if (v <= 0)
		return 0;
	f = (lg(v) - s->lo) / (s->hi - s->lo);
	return (f < 0 ? 0 : f > 1 ? 1 : f) * CH_PLOT;
}

/* The legend, and a dashed line and a label at every decade. */
static void chart_axis(struct strbuf *sb, const struct scale *s, int height)
{
	int every = (s->hi - s->lo + 9) / 10;

	sb_printf(sb,
		  "<rect class=\"sim\" x=\"%d\" y=\"8\" width=\"12\" height=\"12\"/>"
		  "<text x=\"%d\" y=\"18\">simulated</text>\n"
		  "<rect class=\"wall\" x=\"%d\" y=\"8\" width=\"12\" height=\"12\"/>"
		  "<text x=\"%d\" y=\"18\">wall</text>\n"
		  "<text class=\"tick\" x=\"%d\" y=\"18\" text-anchor=\"end\">log scale</text>\n",
		  CH_X0, CH_X0 + 18, CH_X0 + 100, CH_X0 + 118, CH_X0 + CH_PLOT);
	for (int e = s->lo; e <= s->hi; e++) {
		double x = CH_X0 + (double)(e - s->lo) / (s->hi - s->lo) * CH_PLOT;

		sb_printf(sb,
			  "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x,
			  CH_TOP - 10, x, height - 6);
		if ((e - s->lo) % every)
			continue;
		sb_printf(sb, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">", x,
			  CH_TOP - 16, e == s->lo ? "start" : "middle");
		sb_dur(sb, pow10i(e));
		sb_adds(sb, "</text>\n");
	}
}

/* One bar and its value label; kind is "sim" or "wall". */
static void chart_bar(struct strbuf *sb, const struct scale *s, const char *kind, double v, int y)
{
	double w = scale_x(s, v);

	if (v > 0 && w < 2)
		w = 2; /* at the scale's floor, still visible */
	sb_printf(sb,
		  "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" rx=\"2\"/>"
		  "<text class=\"val\" x=\"%.1f\" y=\"%d\">%s ",
		  kind, CH_X0, y, w, CH_X0 + w + 6, y + 10, kind);
	sb_dur(sb, v);
	sb_adds(sb, "</text>\n");
}

static void chart_bars(struct strbuf *sb, const struct scale *s, const struct record *t, size_t i)
{
	sb_adds(sb, "<g class=\"bar\" data-test=\"");
	html_id(sb, t);
	sb_printf(sb, "\" transform=\"translate(0,%zu)\">\n<title>", CH_TOP + i * CH_ROW);
	html_id(sb, t);
	sb_adds(sb, ": simulated ");
	sb_dur(sb, t->outcome.sim_seconds);
	sb_adds(sb, ", wall ");
	sb_dur(sb, t->outcome.wall_seconds);
	sb_printf(sb, "</title>\n<text class=\"name\" x=\"%d\" y=\"12\">", CH_X0);
	html_id(sb, t);
	sb_adds(sb, " <tspan class=\"val\">");
	sb_adds(sb, verdict_name(t->verdict));
	sb_adds(sb, "</tspan></text>\n");
	chart_bar(sb, s, "sim", t->outcome.sim_seconds, 17);
	chart_bar(sb, s, "wall", t->outcome.wall_seconds, 32);
	sb_adds(sb, "</g>\n");
}

static void html_chart(struct strbuf *sb, const struct record *r, size_t n)
{
	struct scale s = scale_of(r, n);
	int height = CH_TOP + (int)n * CH_ROW + 8;

	sb_printf(sb,
		  "<h2>Simulated and wall time</h2>\n"
		  "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		  "role=\"img\" aria-label=\"simulated and wall time per test, log scale\">\n",
		  CH_WIDTH, height);
	chart_axis(sb, &s, height);
	for (size_t i = 0; i < n; i++)
		chart_bars(sb, &s, &r[i], i);
	sb_adds(sb, "</svg>\n");
}

/* Where the last `lines` lines of text begin. */
static size_t tail_start(const char *text, size_t len, int lines)
{
	size_t i = len;

	if (i && text[i - 1] == '\n')
		i--; /* the final newline ends the last line */
	for (; i > 0; i--) {
		if (text[i - 1] == '\n' && --lines == 0)
			return i;
	}
	return 0;
}

/*
 * A panic or oops message scrolls out of the excerpt behind its stack
 * trace: when the first such line is above the last lines, show it first,
 * then how many lines were left out.
 */
static void excerpt_panic(struct strbuf *sb, const char *text, size_t start)
{
	const char *best = guest_crash_mark(text, start), *end;
	size_t gap = 0;

	if (!best)
		return;
	while (best > text && best[-1] != '\n')
		best--;
	end = memchr(best, '\n', (size_t)(text + start - best));
	end = end ? end + 1 : text + start;
	esc_n(sb, best, (size_t)(end - best));
	for (const char *p = end; p < text + start; p++)
		gap += *p == '\n';
	if (gap)
		sb_printf(sb, "<span class=\"gap\">[… %zu lines …]</span>\n", gap);
}

static void html_excerpt(struct strbuf *sb, const char *run_dir, const struct record *t, size_t i)
{
	_cleanup_free_ char *rel = xasprintf("%s/console.log", t->dir);
	_cleanup_free_ char *text = NULL;
	size_t len = 0, start;

	sb_printf(sb, "<section class=\"excerpt card\" id=\"log-%zu\" data-verdict=\"%s\">\n<h3>",
		  i + 1, verdict_name(t->verdict));
	html_id(sb, t);
	sb_adds(sb, " ");
	html_verdict(sb, t->verdict);
	sb_adds(sb, "</h3>\n");
	if (t->reason && t->reason[0]) {
		sb_adds(sb, "<p class=\"reason\">");
		esc(sb, t->reason);
		sb_adds(sb, "</p>\n");
	}
	if (read_regular_tail(run_dir, rel, EXCERPT_READ_MAX, &text, &len) < 0) {
		sb_adds(sb, "<p>console.log could not be read.</p>\n</section>\n");
		return;
	}
	start = tail_start(text, len, EXCERPT_LINES);
	/* Thirty lines, or the last EXCERPT_SHOWN_MAX bytes of longer ones. */
	if (len - start > EXCERPT_SHOWN_MAX)
		start = len - EXCERPT_SHOWN_MAX;
	sb_printf(sb, "<p>The last %d lines of ", EXCERPT_LINES);
	link_to(sb, rel, "console.log");
	sb_adds(sb, "</p>\n<pre class=\"log\">");
	excerpt_panic(sb, text, start);
	esc_n(sb, text + start, len - start);
	sb_adds(sb, "</pre>\n</section>\n");
}

static void html_excerpts(struct strbuf *sb, const char *run_dir, const struct record *r, size_t n)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		if (r[i].verdict == V_PASS)
			continue;
		if (!any)
			sb_adds(sb, "<h2>Logs of the tests that did not pass</h2>\n");
		any = true;
		html_excerpt(sb, run_dir, &r[i], i);
	}
}

int report_write_html(const char *path, const char *run_dir, const struct run_info *ri,
		      const struct record *r, size_t n, struct uerr *e)
{
	struct strbuf sb = { 0 };
	const char *name = strrchr(run_dir, '/') ? strrchr(run_dir, '/') + 1 : run_dir;

	html_head(&sb, name);
	html_header(&sb, name, ri, r, n);
	html_table(&sb, run_dir, r, n);
	/* What an interrupted or failed run never started, as results.json's not_run. */
	if (ri->nnot_run) {
		sb_printf(&sb,
			  "<section class=\"card\" id=\"not-run\"><h2>Not run (%zu)</h2>\n<ul>\n",
			  ri->nnot_run);
		for (size_t i = 0; i < ri->nnot_run; i++) {
			sb_adds(&sb, "<li><code>");
			esc(&sb, ri->not_run[i]);
			sb_adds(&sb, "</code></li>\n");
		}
		sb_adds(&sb, "</ul>\n<p class=\"reason\">the run ended before these started: "
			     "<code>--rerun-failed</code> runs them</p></section>\n");
	}
	html_chart(&sb, r, n);
	html_excerpts(&sb, run_dir, r, n);
	sb_adds(&sb, "</main>\n</body>\n</html>\n");
	return sb_write_atomic(path, &sb, e);
}
