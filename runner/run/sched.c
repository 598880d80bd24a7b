// SPDX-License-Identifier: MIT
/* sched.c - the queue, the guest slots, the one poll loop, progress. */
#define _GNU_SOURCE
#include "sched.h"

#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>

#include "ktap.h"
#include "supervise.h"
#include "trace.h"

struct job {
	const struct test *t;
	int attempt;	 /* 1..repeat */
	int tries;	 /* runs so far of this attempt (--retry) */
	int first;	 /* the run the others are compared with: 1, or a follow-up's first */
	char *first_out; /* run first's output (--check-determinism) */
	char *first_err;
	uint64_t first_hash[2]; /* run first's output and stderr, whole */
};

/*
 * What one test may push at the host, whatever it prints: a line of its
 * output longer than LINE_MAX_BYTES is cut there; console.log stops at
 * CONSOLE_MAX_BYTES; --check-determinism keeps the first KEEP_MAX_BYTES
 * of each stream to show a difference, and a hash of all of it.
 */
#define LINE_MAX_BYTES	  (64 * 1024)
#define CONSOLE_MAX_BYTES ((size_t)64 << 20)
#define KEEP_MAX_BYTES	  ((size_t)16 << 20)
/* ktap.log stops at KTAP_LOG_MAX_BYTES; stdout and ktap.txt show SHOWN_MAX_BYTES of it. */
#define KTAP_LOG_MAX_BYTES ((size_t)256 << 20)
#define SHOWN_MAX_BYTES	   ((size_t)16 << 20)

/* Bytes of a guest's output that may begin a sequence shown as \\xHH (escape_byte). */
struct esc_wait {
	unsigned char p[3];
	size_t n;
};

/*
 * The -v copy of one stream that console.log holds: the kernel's console
 * or the job's stderr. The host reads the two from two pipes, in no fixed
 * order, so each has its own unfinished line and escape state: a kernel
 * line that comes in the middle of the job's line cuts neither.
 */
enum { COPY_KERNEL, COPY_STDERR };
struct copy_chan {
	struct esc_wait c2; /* the first bytes of a control sequence, maybe */
	struct strbuf line; /* with copy_tag: the unfinished line */
};

/* What a test's guest streams, and where it goes as it arrives. */
struct test_io {
	const struct sched_opts *so;
	struct ktap *ktap;
	FILE *ktap_log;
	int console_fd;
	int console_err;	  /* the first failed write to console.log */
	bool live;		  /* print at once (one slot) or keep for the end */
	struct strbuf block;	  /* the test's lines, when not live */
	struct strbuf kblock;	  /* with -q: ktap.txt's, which -q does not shorten */
	struct strbuf partial;	  /* an unfinished result line */
	bool line_cut;		  /* partial reached LINE_MAX_BYTES */
	struct esc_wait c2;	  /* the first bytes of a control sequence, maybe (escape_byte) */
	const char *copy_tag;	  /* -v with several guests: "[ID] " before each line */
	struct copy_chan copy[2]; /* the -v copy, by stream (COPY_*) */
	int log_err;		  /* the first error writing ktap.log, as errno had it */
	bool console_cut;	  /* console.log reached CONSOLE_MAX_BYTES */
	size_t console_len;	  /* bytes written to console.log */
	size_t log_len;		  /* bytes of lines written to ktap.log */
	size_t shown_len;	  /* bytes of lines shown on stdout and in ktap.txt */
	const char *id;		  /* the test's id, the block's name */
	int order;		  /* where the test's KTAP block is (ORDER_*) */
	struct strbuf held;	  /* the block from its version line, until the test ends */
	size_t held_version;	  /* the version line's bytes at held's start */
	char *plan;		  /* the block's plan, which goes after the version line */
	struct strbuf out_all;	  /* guest-visible output, for --check-determinism */
	struct strbuf err_all;
	uint64_t hash[2]; /* FNV-1a of the whole output and stderr */
};

struct slot {
	int index; /* STAGE/gINDEX */
	struct guest *g;
	struct job job;
	struct guest_spec spec;
	struct test_io io;
	struct guest_io gio; /* the guest keeps a pointer to it */
	int npf;	     /* its fds in this round of poll */
	struct ktap ktap;
	char *dir; /* relative to the run folder */
	char *abs;
	double started;
	size_t results; /* the results seen so far (for so->result_wall_timeout) */
};

/* A follow-up queued, and the run it follows. */
struct queued_follow {
	const char *id;
	int attempt;
};

struct sched {
	const struct sched_opts *so;
	struct sched_result *res;
	struct job *queue;
	size_t qhead, qlen;
	struct slot *slots;
	size_t total, done, passed, failed;
	struct queued_follow *queued; /* the follow-ups queued so far (follow_queued) */
	size_t nqueued;
	double t0, wall_sum;
	int drawn; /* progress lines on screen */
};

static void enqueue(struct sched *s, struct job j)
{
	s->queue = xrealloc(s->queue, (s->qlen + 1) * sizeof(*s->queue));
	s->queue[s->qlen++] = j;
}

/* ---- output ---- */

/*
 * The progress lines go to the terminal on stderr through its queue (util.h),
 * never drawn while the terminal has not taken the last ones (^S): a
 * terminal that stops reading must not stop the run.
 */
/*
 * The progress lines' queue: stdout's when stdout and stderr are the same
 * terminal, so that an erase and the result line after it keep their order.
 */
static struct outq *progress_q(void)
{
	static struct outq *q;
	struct stat a, b;

	if (!q)
		q = fstat(STDOUT_FILENO, &a) == 0 && fstat(STDERR_FILENO, &b) == 0 &&
			    S_ISCHR(a.st_mode) && S_ISCHR(b.st_mode) && a.st_rdev == b.st_rdev
			? &outq_stdout
			: &outq_stderr;
	return q;
}

static void erase_progress(struct sched *s)
{
	if (s->drawn) {
		outq_printf(progress_q(), "\033[%dA\033[J", s->drawn);
		s->drawn = 0;
	}
}

static void draw_progress(struct sched *s)
{
	const struct sched_opts *so = s->so;
	double t = monotonic_now();
	size_t left = s->total - s->done;
	double eta = s->done ? s->wall_sum / (double)s->done * (double)left / so->jobs : 0;
	char bar[31];
	size_t fill = s->total ? s->done * 30 / s->total : 0;

	/* Not while the terminal has not taken what came before. */
	if (!so->progress || outq_backlog(&outq_stderr) || outq_backlog(&outq_stdout))
		return;
	erase_progress(s);
	for (int i = 0; i < so->jobs; i++) {
		const struct slot *sl = &s->slots[i];

		if (!sl->g)
			continue;
		outq_printf(progress_q(), "  [g%d] %-50.50s %6.1fs\n", sl->index, sl->job.t->id,
			    t - sl->started);
		s->drawn++;
	}
	memset(bar, '#', fill);
	memset(bar + fill, '.', 30 - fill);
	bar[30] = '\0';
	/* The cases within the files (hostap's batches): ended, and running. */
	{
		size_t c[KTAP_XPASS + 1] = { 0 };

		for (size_t r = 0; r < s->res->nrec; r++)
			for (int k = 0; k <= KTAP_XPASS; k++)
				c[k] += (size_t)s->res->rec[r].ktap.counts[k];
		for (int i = 0; i < so->jobs; i++)
			for (int k = 0; s->slots[i].g && k <= KTAP_XPASS; k++)
				c[k] += (size_t)s->slots[i].ktap.counts[k];
		if (c[KTAP_PASS] + c[KTAP_FAIL] + c[KTAP_SKIP] > s->res->nrec + (size_t)so->jobs) {
			outq_printf(progress_q(), "  cases: %zu passed, %zu skipped, %zu failed\n",
				    c[KTAP_PASS] + c[KTAP_XFAIL] + c[KTAP_XPASS], c[KTAP_SKIP],
				    c[KTAP_FAIL]);
			s->drawn++;
		}
	}
	if (s->done)
		outq_printf(progress_q(), "[%s] %zu passed, %zu failed, %zu remaining, ETA %.0fs\n",
			    bar, s->passed, s->failed, left, eta);
	else
		outq_printf(progress_q(), "[%s] %zu remaining, %.0fs so far\n", bar, left,
			    t - s->t0);
	s->drawn++;
}

/*
 * The first error of a write to stdout or to the run's ktap.txt, as errno
 * then had it: stdio keeps only that one happened (sched_write_errors).
 */
static int out_errno, ktap_errno;

static void put(FILE *f, const char *text, int *err)
{
	if ((fputs(text, f) < 0 || fflush(f) != 0) && !*err)
		*err = errno ? errno : EIO;
}

/*
 * The result lines on stdout go through its queue (util.h): a reader that
 * stops reading must not stop the run, its time limits or its signals.
 */
static void put_out(const char *text)
{
	outq_add(&outq_stdout, text, strlen(text));
}

void sched_write_errors(int *out, int *ktap)
{
	*out = out_errno ? out_errno : outq_stdout.err;
	*ktap = ktap_errno;
}

/*
 * A test's block is held from its version line until the test ends, and
 * then shown whole (block_end): in KTAP's order, the plan just after the
 * version line (the harness prints it last, having counted its tests), and
 * only for the try that gives the file its result line (--retry).
 */
enum { ORDER_START, ORDER_HELD, ORDER_DONE };

/*
 * A line for stdout and the run's ktap.txt, at once (live) or kept for the
 * end; a detail (the test's own KTAP, its header and summary) goes to
 * ktap.txt only under -q, which shortens stdout alone.
 */
static void vemit(struct test_io *io, bool detail, const char *fmt, va_list ap)
{
	_cleanup_free_ char *line = xvasprintf(NULL, fmt, ap);
	bool shown = !detail || !io->so->quiet;

	if (detail && io->order == ORDER_HELD) {
		sb_adds(&io->held, line);
		return;
	}

	if (io->live) {
		if (io->so->out && shown)
			put_out(line);
		put(io->so->run_ktap, line, &ktap_errno);
		return;
	}
	if (shown)
		sb_adds(&io->block, line);
	if (io->so->quiet)
		sb_adds(&io->kblock, line);
}

static void emit(struct test_io *io, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
static void emit(struct test_io *io, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(io, false, fmt, ap);
	va_end(ap);
}

static void emit_detail(struct test_io *io, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
static void emit_detail(struct test_io *io, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(io, true, fmt, ap);
	va_end(ap);
}

static bool ktap_like(const char *l)
{
	return !strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7) ||
	       !strncmp(l, "KTAP version", 12) || !strncmp(l, "TAP version", 11) ||
	       !strncmp(l, "1..", 3) || l[0] == '#' || l[0] == ' ' || !l[0];
}

static bool is_version_line(const char *l)
{
	return !strncmp(l, "KTAP version", 12) || !strncmp(l, "TAP version", 11);
}

/* A line of the test's block: the first version line starts holding it; its plan is kept aside. */
static void block_line(struct test_io *io, const char *text, const char *l)
{
	if (io->order == ORDER_START && is_version_line(l)) {
		io->order = ORDER_HELD;
		sb_adds(&io->held, text);
		io->held_version = io->held.len;
		return;
	}
	if (io->order == ORDER_HELD && !io->plan && !strncmp(l, "1..", 3)) {
		io->plan = xstrdup(text);
		return;
	}
	emit_detail(io, "%s", text);
}

/*
 * The test is over: its held block is shown, the plan after the version
 * line; or, when the test will be tried again (shown), dropped: a failed
 * try's lines stay in its folder, not in the run's KTAP.
 */
static void block_end(struct test_io *io, bool shown)
{
	bool held = io->order == ORDER_HELD;

	io->order = ORDER_DONE;
	if (held && shown) {
		emit_detail(io, "%.*s", (int)io->held_version, io->held.buf);
		/* Its name, as KUnit gives it: a parser finds the block's end by it without a plan.
		 */
		if (io->id)
			emit_detail(io, "    # Subtest: %s\n", io->id);
		if (io->plan)
			emit_detail(io, "%s", io->plan);
		emit_detail(io, "%s", io->held.buf + io->held_version);
	}
	sb_release(&io->held);
	free(io->plan);
	io->plan = NULL;
}

static void result_line(struct test_io *io, const char *l)
{
	/* Only KTAP goes on the result channel; anything else is a diagnostic. */
	const char *pre = ktap_like(l) ? "" : "# ";
	size_t len = strlen(l) + 1;

	if (io->log_len < KTAP_LOG_MAX_BYTES) {
		io->log_len += len;
		/* stdio keeps only that it failed: the reason (ENOSPC) is kept here. */
		if (fprintf(io->ktap_log, "%s\n",
			    io->log_len < KTAP_LOG_MAX_BYTES
				? l
				: "[umlrun: ktap.log cut here, at 256 MiB]") < 0 &&
		    !io->log_err)
			io->log_err = errno ? errno : EIO;
	}
	ktap_feed(io->ktap, l);
	if (io->shown_len >= SHOWN_MAX_BYTES)
		return;
	io->shown_len += len;
	if (io->shown_len < SHOWN_MAX_BYTES) {
		_cleanup_free_ char *text = xasprintf("    %s%s\n", pre, l);

		block_line(io, text, l);
	} else
		emit_detail(
		    io, "    # umlrun: the rest of this test's output is only in its ktap.log\n");
}

/* --check-determinism: the stream's hash, and its first KEEP_MAX_BYTES. */
static void keep(struct test_io *io, int which, const char *data, size_t len)
{
	struct strbuf *sb = which ? &io->err_all : &io->out_all;

	if (!io->so->check_determinism)
		return;
	if (!io->hash[which])
		io->hash[which] = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++)
		io->hash[which] = (io->hash[which] ^ (unsigned char)data[i]) * 0x100000001b3ULL;
	if (sb->len < KEEP_MAX_BYTES)
		sb_add(sb, data, len < KEEP_MAX_BYTES - sb->len ? len : KEEP_MAX_BYTES - sb->len);
}

/*
 * One byte of a guest's output on its way to a terminal or a result file,
 * added to sb: control characters are shown as \\xHH, so a guest's escape
 * sequences cannot redraw the user's terminal or hide a line in ktap.txt.
 * That is C0 but a tab (and, where keep_lines, a newline and a CR) and
 * DEL, C1 as UTF-8 encodes it (0xc2 0x80-0x9f: many terminals take U+009B
 * for ESC [), the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069: they reorder the text around them) and the
 * line and paragraph separators (U+2028, U+2029: a line break to many
 * readers), as util/text.c's str_shown shows them. The first bytes of such a sequence wait
 * in *w for the rest, which may come in the next read; escape_end adds
 * what waits when the output ends.
 */
static bool starts_shown(const unsigned char *p, size_t n)
{
	if (n == 1)
		return p[0] == 0xc2 || p[0] == 0xd8 || p[0] == 0xe2;
	return n == 2 && p[0] == 0xe2 && (p[1] == 0x80 || p[1] == 0x81);
}

static void escape_byte(struct strbuf *sb, struct esc_wait *w, unsigned char c, bool keep_lines)
{
	if (w->n || starts_shown(&c, 1)) {
		w->p[w->n++] = c;
		if ((w->n == 2 && w->p[0] == 0xc2 && c >= 0x80 && c <= 0x9f) ||
		    unicode_control(w->p, w->n)) {
			for (size_t i = 0; i < w->n; i++)
				sb_printf(sb, "\\x%02x", w->p[i]);
			w->n = 0;
			return;
		}
		if (starts_shown(w->p, w->n))
			return; /* the next byte decides */
		/* Not one of them: the bytes as they came, the last maybe starting another. */
		c = w->p[--w->n];
		sb_add(sb, w->p, w->n);
		w->n = 0;
		if (starts_shown(&c, 1)) {
			w->p[w->n++] = c;
			return;
		}
	}
	if ((c < 0x20 && c != '\t' && !(keep_lines && (c == '\n' || c == '\r'))) || c == 0x7f)
		sb_printf(sb, "\\x%02x", c);
	else
		sb_add(sb, &c, 1);
}

static void escape_end(struct strbuf *sb, struct esc_wait *w)
{
	sb_add(sb, w->p, w->n);
	w->n = 0;
}

/* One byte of a result line: escaped, the line cut at LINE_MAX_BYTES. */
static void line_byte(struct test_io *io, unsigned char c)
{
	if (io->line_cut)
		return;
	if (io->partial.len >= LINE_MAX_BYTES) {
		sb_printf(&io->partial, " [umlrun: line cut at %d bytes]", LINE_MAX_BYTES);
		io->line_cut = true;
		return;
	}
	escape_byte(&io->partial, &io->c2, c, false);
}

/* Bytes that waited at the end of the line were just that (past a cut, dropped). */
static void line_end(struct test_io *io)
{
	if (io->line_cut)
		io->c2.n = 0;
	escape_end(&io->partial, &io->c2);
}

static void on_out(void *ctx, const char *data, size_t len)
{
	struct test_io *io = ctx;

	keep(io, 0, data, len);
	for (size_t i = 0; i < len; i++) {
		if (data[i] == '\r')
			continue;
		if (data[i] != '\n') {
			line_byte(io, (unsigned char)data[i]);
			continue;
		}
		line_end(io);
		result_line(io, io->partial.buf ? io->partial.buf : "");
		io->partial.len = 0;
		io->line_cut = false;
		if (io->partial.buf)
			io->partial.buf[0] = '\0';
	}
}

static void copy_write(struct test_io *io, struct strbuf *sb)
{
	int fd = io->so->console_copy;

	/* A courtesy copy (console.log has it all), queued as the results are. */
	if (sb->len && (fd == STDOUT_FILENO || fd == STDERR_FILENO))
		outq_add(fd == STDOUT_FILENO ? &outq_stdout : &outq_stderr, sb->buf, sb->len);
	else if (sb->len && write(fd, sb->buf, sb->len) < 0) {
		/* nowhere else to say it */
	}
	sb_release(sb);
}

/*
 * The -v copy's line, tagged, into sb: at its end, or cut at LINE_MAX_BYTES
 * (then a 0xc2 waiting for the next byte keeps waiting: it may start a C1
 * control, escaped once that byte comes).
 */
static void copy_flush(struct test_io *io, struct copy_chan *ch, struct strbuf *sb, bool at_end)
{
	if (at_end)
		escape_end(&ch->line, &ch->c2);
	sb_printf(sb, "%s%s\n", io->copy_tag, ch->line.buf ? ch->line.buf : "");
	ch->line.len = 0;
	if (ch->line.buf)
		ch->line.buf[0] = '\0';
}

static void to_console_bytes(struct test_io *io, int stream, const char *data, size_t len)
{
	if (write(io->console_fd, data, len) != (ssize_t)len) {
		if (!io->console_err)
			io->console_err = errno ? errno : ENOSPC;
		return;
	}
	if (io->so->console_copy >= 0) {
		/* The copy goes to a terminal: no escape sequences from the guest. */
		struct strbuf sb = { 0 };
		struct copy_chan *ch = &io->copy[stream];

		for (size_t i = 0; i < len; i++) {
			if (!io->copy_tag) {
				escape_byte(&sb, &ch->c2, (unsigned char)data[i], true);
				continue;
			}
			/* Several guests: whole lines, each naming its test. */
			if (data[i] != '\n' && ch->line.len < LINE_MAX_BYTES) {
				escape_byte(&ch->line, &ch->c2, (unsigned char)data[i], true);
				continue;
			}
			copy_flush(io, ch, &sb, data[i] == '\n');
			if (data[i] != '\n')
				escape_byte(&ch->line, &ch->c2, (unsigned char)data[i], true);
		}
		copy_write(io, &sb);
	}
}

static void to_console(struct test_io *io, int stream, const char *data, size_t len)
{
	static const char cut[] = "\n[umlrun: console.log cut here, at 64 MiB]\n";

	size_t room = CONSOLE_MAX_BYTES - io->console_len;

	if (len > room) {
		/* The first bytes past the limit: what fits, then the mark, once. */
		if (!io->console_cut) {
			to_console_bytes(io, stream, data, room);
			to_console_bytes(io, stream, cut, sizeof(cut) - 1);
			io->console_cut = true;
			io->console_len = CONSOLE_MAX_BYTES;
		}
		return;
	}
	io->console_len += len;
	to_console_bytes(io, stream, data, len);
}

static void on_err(void *ctx, const char *data, size_t len)
{
	struct test_io *io = ctx;

	keep(io, 1, data, len);
	to_console(io, COPY_STDERR, data, len);
}

static void on_console(void *ctx, const char *data, size_t len)
{
	to_console(ctx, COPY_KERNEL, data, len);
}

/*
 * A line of a guest's output in a message (the result line, stdout): at
 * most 200 bytes, control and non-ASCII bytes as \xNN.
 */
static char *excerpt(const char *p, size_t len)
{
	_cleanup_free_ char *part = xstrndup(p, len < 200 ? len : 200);
	char *shown = str_printable(part);

	if (len <= 200)
		return shown;
	{
		char *r = xasprintf("%s...", shown);

		free(shown);
		return r;
	}
}

char *first_difference(const char *a, const char *b, const char *what)
{
	int line = 1;
	const char *pa = a, *pb = b;

	while (*pa && *pb) {
		const char *ea = strchrnul(pa, '\n'), *eb = strchrnul(pb, '\n');

		if (ea - pa != eb - pb || memcmp(pa, pb, (size_t)(ea - pa))) {
			_cleanup_free_ char *la = excerpt(pa, (size_t)(ea - pa));
			_cleanup_free_ char *lb = excerpt(pb, (size_t)(eb - pb));

			return xasprintf("%s line %d: '%s' then '%s'", what, line, la, lb);
		}
		pa = *ea ? ea + 1 : ea;
		pb = *eb ? eb + 1 : eb;
		line++;
	}
	if (*pa || *pb)
		return xasprintf("%s line %d: one run's output ends here, the other's goes on",
				 what, line);
	return NULL;
}

/* ---- one test in one slot ---- */

static int slot_start(struct sched *s, struct slot *sl, struct job job, struct uerr *e)
{
	const struct sched_opts *so = s->so;
	const struct test *t = job.t;
	_cleanup_free_ char *base =
	    xasprintf("%s/%.*s", t->suite, (int)(strlen(t->file) - 3), t->file);
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char *cmdline = NULL;
	/* --seeds: the guests' random seed of this run, A + attempt - 1. */
	uint64_t seed = so->seed0 + (uint64_t)job.attempt - 1;
	char **argv;

	sl->job = job;
	/* --seeds: named by the seed, which the replay command gives. */
	if (so->seeds)
		sl->dir = xasprintf("%s.%llu", base, (unsigned long long)seed);
	else
		sl->dir = so->repeat > 1 ? xasprintf("%s.%d", base, job.attempt) : xstrdup(base);
	sl->abs = xasprintf("%s/%s", so->run_dir, sl->dir);
	if (mkdir_p(sl->abs, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", sl->abs);
	if (stage_guest_dir(so->base.stage, sl->index, e) < 0)
		return -1;
	sl->spec = so->base;
	sl->spec.index = sl->index;
	/* What a run added, under the name it was staged as (sched_opts.follow_up). */
	sl->spec.test = t->staged_id ? t->staged_id : t->id;
	if (so->seeds)
		sl->spec.random_seed = seed;
	sl->spec.sim_timeout = so->timeout ? so->timeout : t->timeout;
	sl->spec.mem = so->mem ? so->mem : t->mem;
	sl->spec.extra = t->cmdline;
	sl->spec.test_shell = t->shell;
	sl->spec.try = job.tries + 1;
	/* Built once: what cmdline.txt says is what linux gets. */
	argv = guest_cmdline(&sl->spec, e);
	if (!argv)
		return -1;
	cmdline = strv_join(argv);

	ktap_init(&sl->ktap);
	memset(&sl->io, 0, sizeof(sl->io));
	sl->io.so = so;
	sl->io.ktap = &sl->ktap;
	sl->io.live = so->jobs == 1;
	sl->io.id = t->id;
	if (so->jobs > 1 && so->console_copy >= 0)
		sl->io.copy_tag = xasprintf("[%s] ", sl->dir);
	path = xasprintf("%s/cmdline.txt", sl->abs);
	{
		_cleanup_free_ char *text = xasprintf("%s\n", cmdline);
		int r = write_file_atomic(path, text, strlen(text));

		if (r < 0) {
			errno = -r;
			uerr_sys(e, EXIT_INFRA, "cannot write %s", path);
			strv_free(argv);
			return -1;
		}
	}
	free(path);
	path = xasprintf("%s/ktap.log", sl->abs);
	sl->io.ktap_log = fopen(path, "we");
	/* Line by line: a SIGKILL to umlrun loses none of what was shown. */
	if (sl->io.ktap_log)
		setvbuf(sl->io.ktap_log, NULL, _IOLBF, 0);
	free(path);
	path = xasprintf("%s/console.log", sl->abs);
	sl->io.console_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!sl->io.ktap_log || sl->io.console_fd < 0) {
		uerr_sys(e, EXIT_INFRA, "cannot write the logs in %s", sl->abs);
		strv_free(argv);
		return -1;
	}
	dprintf(sl->io.console_fd, "# %s\n", cmdline);
	if (sl->io.live)
		erase_progress(s);
	if (so->seeds)
		emit_detail(&sl->io, "# %s (seed %llu)\n", t->id,
			    (unsigned long long)sl->spec.random_seed);
	else if (so->repeat > 1)
		emit_detail(&sl->io, "# %s (run %d)\n", t->id, job.attempt);
	else
		emit_detail(&sl->io, "# %s\n", t->id);
	sl->gio = (struct guest_io){ on_out, on_err, on_console, &sl->io };
	sl->started = monotonic_now();
	sl->results = 0;
	/* A hostap batch's limits are its cases' (result_wall_timeout), whatever the mode. */
	return guest_start(&sl->spec, argv, &sl->gio,
			   so->result_wall_timeout > 0
			       ? (so->wall_timeout ? so->wall_timeout : t->wall_timeout)
			       : sched_wall_limit(so->base.mode, so->wall_timeout, t->wall_timeout,
						  sl->spec.sim_timeout),
			   &sl->g, e);
}

double sched_wall_limit(enum tt_mode mode, double wall, double settings_wall, long sim_timeout)
{
	double follows = (double)sim_timeout + SCHED_WALL_MARGIN;

	if (wall > 0)
		return wall;
	if (mode == TT_INF_CPU || sim_timeout <= 0 || settings_wall >= follows)
		return settings_wall;
	return follows;
}

static size_t sanitize_artifacts(const char *dir);

/*
 * Moves what the guest wrote under /results into the test's folder; a
 * copy when the stage is on another file system. The guest made these
 * files: cp -a copies symbolic links as links, never what they point at,
 * and they are made readable first (a mode-000 file stopped a copy made
 * as another user than root). A copy cut short stays, defused, unless
 * the disk it went to is full: then it is dropped, since the reports need
 * that room. Returns why it failed, or NULL; *removed counts what the
 * defusing before a copy removed (sanitize_artifacts).
 */
static char *collect_artifacts(const struct sched_opts *so, const struct slot *sl, size_t *removed)
{
	_cleanup_free_ char *from = xasprintf("%s/g%d/results", so->base.stage->dir, sl->index);
	_cleanup_free_ char *to = xasprintf("%s/artifacts", sl->abs);
	struct statvfs vfs;
	int null_fd, st;
	char *why;

	if (rename(from, to) == 0)
		return NULL;
	if (errno != EXDEV)
		return xasprintf("cannot move %s to %s: %s", from, to, strerror(errno));
	*removed = sanitize_artifacts(from);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	{
		char *argv[] = { "cp", "-a", "--no-dereference", from, to, NULL };

		st = run_argv(argv, null_fd);
	}
	closep(&null_fd);
	if (st == 0)
		return NULL;
	why = xasprintf("cannot copy %s to %s (cp %s %d)", from, to,
			st < 0 ? "could not start:" : "exit status",
			st < 0		? -st
			: WIFEXITED(st) ? WEXITSTATUS(st)
					: -1);
	if (!path_exists(to))
		return why;
	sanitize_artifacts(to);
	/* Less than 1 MiB left: the disk is full, and the copy is what filled it. */
	if (statvfs(sl->abs, &vfs) == 0 &&
	    (unsigned long long)vfs.f_bavail * vfs.f_frsize < (1 << 20)) {
		char *more = xasprintf("%s; the disk is full: what was copied is %s", why,
				       rm_rf(to) == 0 ? "removed" : "partly removed");

		free(why);
		return more;
	}
	return why;
}

/*
 * What a guest leaves in its artifacts is made safe to read and share.
 * Removed: anything neither a file nor a folder (a symbolic link could
 * point anywhere on the host, and a user or a CI job's artifact upload
 * would follow it; a FIFO would block a reader). Cleared: set-user-ID,
 * set-group-ID and sticky bits and write access for others (a program the
 * guest made set-user-ID would run as the user guests run as). Landlock
 * refuses links, FIFOs and devices in the first place; this is the second
 * line, and the only one where Landlock is missing.
 *
 * The walk goes by file descriptors, so no path length limits it (a guest
 * can nest folders past PATH_MAX by renaming them into one another). It
 * holds one per level: guest_results_full dropped any /results deeper
 * than 256 levels before, and SANITIZE_DEPTH stops it regardless.
 */
#define SANITIZE_DEPTH 300

/* ctx counts the links, FIFOs, devices and sockets removed. */
static enum walk_step defuse(int dfd, const char *name, const struct stat *st, int depth, void *ctx)
{
	size_t *removed = ctx;

	/*
	 * As root the guest wrote as nobody: its files become the run's own,
	 * or any process of that user could change them later.
	 */
	if ((S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)) && geteuid() == 0 &&
	    (st->st_uid != 0 || st->st_gid != getegid()))
		(void)!fchownat(dfd, name, 0, getegid(), AT_SYMLINK_NOFOLLOW);
	if (S_ISREG(st->st_mode)) {
		/*
		 * A file whose bits cannot be cleared does not stay. Owner rw:
		 * a mode-000 file broke merge, cp -R and tar of the run folder.
		 */
		if (((st->st_mode & (S_ISUID | S_ISGID | S_ISVTX | S_IWGRP | S_IWOTH)) ||
		     (st->st_mode & 0600) != 0600) &&
		    fchmodat(dfd, name, (st->st_mode & 0755) | 0600, 0) < 0)
			*removed += unlinkat(dfd, name, 0) == 0;
		return WALK_NEXT;
	}
	if (!S_ISDIR(st->st_mode)) {
		*removed += unlinkat(dfd, name, 0) == 0;
		return WALK_NEXT;
	}
	/* Owner rwx: whoever runs umlrun can walk, read and delete it. */
	if (fchmodat(dfd, name, (st->st_mode & 0755) | 0700, 0) < 0)
		return WALK_NEXT; /* not ours: left as it is, and not entered */
	return depth < SANITIZE_DEPTH ? WALK_ENTER : WALK_NEXT;
}

static size_t sanitize_artifacts(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	size_t removed = 0;

	if (fd >= 0 && geteuid() == 0)
		(void)!fchown(fd, 0, getegid()); /* the folder itself, as defuse does below */
	if (fd >= 0)
		walk_at(fd, defuse, &removed);
	return removed;
}

/* Closes the test's logs; returns what could not be written, or NULL. */
static char *close_logs(struct test_io *io)
{
	int ktap_err = io->log_err ? io->log_err : ferror(io->ktap_log) ? EIO : 0;

	if (fclose(io->ktap_log) != 0 && !ktap_err)
		ktap_err = errno;
	if (close(io->console_fd) < 0 && !io->console_err)
		io->console_err = errno;
	if (ktap_err)
		return xasprintf("cannot write ktap.log: %s", strerror(ktap_err));
	if (io->console_err)
		return xasprintf("cannot write console.log: %s", strerror(io->console_err));
	return NULL;
}

/* --check-determinism: compare with the job's run first; returns the difference or NULL. */
static char *compare_runs(struct slot *sl)
{
	const char *out = sl->io.out_all.buf ? sl->io.out_all.buf : "";
	const char *err = sl->io.err_all.buf ? sl->io.err_all.buf : "";
	char *d;

	if (sl->job.attempt == sl->job.first) {
		free(sl->job.first_out);
		free(sl->job.first_err);
		sl->job.first_out = xstrdup(out);
		sl->job.first_err = xstrdup(err);
		memcpy(sl->job.first_hash, sl->io.hash, sizeof(sl->io.hash));
		return NULL;
	}
	d = first_difference(sl->job.first_out, out, "result output");
	if (!d)
		d = first_difference(sl->job.first_err, err, "console (stderr)");
	if (!d && memcmp(sl->job.first_hash, sl->io.hash, sizeof(sl->io.hash)))
		d = xasprintf("%s after its first %zu MiB",
			      sl->job.first_hash[0] != sl->io.hash[0] ? "result output"
								      : "console (stderr)",
			      KEEP_MAX_BYTES >> 20);
	return d;
}

static bool is_failure(enum verdict v)
{
	return v == V_FAIL || v == V_TIMEOUT || v == V_CRASH;
}

/* A failed try with retries left: keep its folder aside and queue another. */
static void retry(struct sched *s, struct slot *sl, const char *reason)
{
	_cleanup_free_ char *aside = NULL;
	struct job j = sl->job;

	aside = xasprintf("%s.try%d", sl->abs, sl->job.tries);
	rm_rf(aside);
	if (rename(sl->abs, aside) < 0) {
		emit(&sl->io, "# cannot keep the failed try's folder %s: %s\n", sl->abs,
		     strerror(errno));
		free(aside);
		aside = xstrdup(sl->abs); /* its lines stay there, until the next try */
	}
	/* j.tries already counts the run that just failed. */
	emit(&sl->io, "# %s failed%s%s%s; retrying (%d of %d); its lines are in %s/ktap.log\n",
	     j.t->id, reason ? " (" : "", reason ? reason : "", reason ? ")" : "", j.tries,
	     s->so->retry, aside);
	enqueue(s, j);
	/* The queued try owns its first run's output now. */
	sl->job.first_out = sl->job.first_err = NULL;
}

/*
 * Whether follow-up t of run attempt is queued already, else noted as
 * queued now. Each runs once in each run it follows, however many tests
 * or tries name it (its folder is named by the run), and under
 * --check-determinism once for them all: its first run queues the next
 * in turn, as an ordinary file's does, for them to be compared with it.
 */
static bool follow_queued(struct sched *s, const struct test *t, int attempt)
{
	for (size_t i = 0; i < s->nqueued; i++)
		if (!strcmp(s->queued[i].id, t->id) &&
		    (s->queued[i].attempt == attempt || s->so->check_determinism))
			return true;
	s->queued = xrealloc(s->queued, (s->nqueued + 1) * sizeof(*s->queued));
	s->queued[s->nqueued++] = (struct queued_follow){ t->id, attempt };
	return false;
}

static void print_block(struct sched *s, struct slot *sl)
{
	const struct strbuf *k = s->so->quiet ? &sl->io.kblock : &sl->io.block;

	if (sl->io.live)
		return;
	if (sl->io.block.len) {
		erase_progress(s);
		if (s->so->out)
			put_out(sl->io.block.buf);
	}
	if (k->len)
		put(s->so->run_ktap, k->buf, &ktap_errno);
}

static void slot_finish(struct sched *s, struct slot *sl)
{
	const struct sched_opts *so = s->so;
	struct guest_outcome o;
	struct record *r;
	char *reason = NULL, *diff = NULL, *lost, *lost_art;
	bool followed = false;
	size_t removed = 0;
	enum verdict v;

	guest_results_full(sl->g, GUEST_RESULTS_MAX_BYTES, true);
	guest_finish(sl->g, &o);
	sl->g = NULL;
	line_end(&sl->io);
	if (sl->io.partial.len)
		result_line(&sl->io, sl->io.partial.buf);
	for (size_t i = 0; i < sizeof(sl->io.copy) / sizeof(sl->io.copy[0]); i++) {
		struct copy_chan *ch = &sl->io.copy[i];
		struct strbuf sb = { 0 };

		if (sl->io.copy_tag && (ch->line.len || ch->c2.n))
			copy_flush(&sl->io, ch, &sb, true);
		else if (ch->c2.n)
			escape_end(&sb, &ch->c2);
		copy_write(&sl->io, &sb);
	}
	lost = close_logs(&sl->io);
	lost_art = collect_artifacts(so, sl, &removed);
	if (!lost_art) {
		_cleanup_free_ char *art = xasprintf("%s/artifacts", sl->abs);
		size_t n = removed + sanitize_artifacts(art);

		_cleanup_free_ char *trace = xasprintf("%s/trace.txt", art);
		unsigned long long kept, written;

		if (n)
			emit_detail(
			    &sl->io,
			    "    # removed %zu symbolic link%s, FIFO%s or device%s the test left "
			    "in /results\n",
			    n, n > 1 ? "s" : "", n > 1 ? "s" : "", n > 1 ? "s" : "");
		if (so->tracing && trace_overflowed(trace, &kept, &written))
			emit_detail(
			    &sl->io,
			    "    # trace: the buffer kept the newest %llu of %llu events; a "
			    "larger one keeps more (cmdline=trace_buf_size=16M in the suite's "
			    "settings: docs/debugging.md)\n",
			    kept, written);
	}
	if (!lost)
		lost = steal_ptr(&lost_art);
	free(lost_art);
	sl->job.tries++;
	v = verdict_of(&o, &sl->ktap, &reason);
	if (so->check_determinism && v != V_INTERRUPTED && (diff = compare_runs(sl))) {
		emit_detail(&sl->io, "    # not deterministic: run %d and run %d differ at %s\n",
			    sl->job.first, sl->job.attempt, diff);
		free(reason);
		reason = xasprintf("ERROR not deterministic: runs %d and %d differ at %s",
				   sl->job.first, sl->job.attempt, diff);
		if (v == V_PASS || v == V_SKIP)
			v = V_FAIL;
		free(diff);
	}
	/* A hostap batch: its stuck case's rest, its failed cases again, in fresh guests. */
	if (is_failure(v) && so->follow_up && !s->res->host_signal) {
		size_t had = sl->ktap.ncases;
		const struct test **more = so->follow_up(so->follow_ctx, sl->job.t, v, &sl->ktap);

		/* The results it added (the case a batch was stuck in), shown too. */
		for (size_t i = had; i < sl->ktap.ncases; i++) {
			const struct ktap_case *c = &sl->ktap.cases[i];

			emit_detail(&sl->io, "    %s %d %s\n",
				    c->result == KTAP_FAIL ? "not ok" : "ok", c->number, c->title);
		}

		/*
		 * Each in the run it follows (its attempt): under --seeds its
		 * seed, which its results and the replay line name, and under
		 * --repeat its own folder, not run 1's. Under
		 * --check-determinism that run is its first, and it is
		 * compared with it in the runs after.
		 */
		for (size_t i = 0; more && more[i]; i++) {
			int a = sl->job.attempt;

			emit_detail(&sl->io, "# %s: %s follows\n", sl->job.t->id, more[i]->id);
			followed = true;
			if (follow_queued(s, more[i], a))
				continue;
			enqueue(s, (struct job){ .t = more[i], .attempt = a, .first = a });
			s->total += so->check_determinism ? (size_t)(so->repeat - a + 1) : 1;
		}
		free(more);
	}
	if (is_failure(v) && !followed && !s->res->host_signal && sl->job.tries <= so->retry) {
		block_end(&sl->io, false);
		retry(s, sl, reason);
		print_block(s, sl);
		free(reason);
		free(lost);
		ktap_free(&sl->ktap);
		goto out;
	}
	if (v == V_PASS && sl->job.tries > 1) {
		v = V_FLAKY;
		reason = xasprintf("flaky: failed %d time%s before passing", sl->job.tries - 1,
				   sl->job.tries > 2 ? "s" : "");
	}
	/* --check-determinism runs one test's repeats in turn: queue the next. */
	if (so->check_determinism && sl->job.attempt < so->repeat && !s->res->host_signal) {
		struct job next = { .t = sl->job.t,
				    .attempt = sl->job.attempt + 1,
				    .first = sl->job.first,
				    .first_out = sl->job.first_out,
				    .first_err = sl->job.first_err,
				    .first_hash = { sl->job.first_hash[0],
						    sl->job.first_hash[1] } };

		sl->job.first_out = sl->job.first_err = NULL;
		enqueue(s, next);
	}

	s->res->rec = xrealloc(s->res->rec, (s->res->nrec + 1) * sizeof(*s->res->rec));
	r = &s->res->rec[s->res->nrec++];
	*r = (struct record){ .test = sl->job.t,
			      .attempt = sl->job.attempt,
			      .seeded = so->seeds,
			      .seed = (long long)sl->spec.random_seed,
			      .dir = steal_ptr(&sl->dir),
			      .outcome = o,
			      .ktap = sl->ktap,
			      .verdict = v,
			      .reason = reason,
			      .lost = lost,
			      .failed_attempts = sl->job.tries - 1 };
	block_end(&sl->io, true);
	if (lost)
		emit(&sl->io, "# %s: %s\n", sl->job.t->id, lost);
	{
		struct strbuf line = { 0 };

		record_result_line(&line, r, s->res->nrec);
		emit(&sl->io, "%s", line.buf);
		sb_release(&line);
	}
	if (v == V_TIMEOUT && timeout_hint(&o, true))
		emit(&sl->io, "# %s: %s\n", sl->job.t->id, timeout_hint(&o, true));
	emit_detail(&sl->io, "# %s: %s, %.3f simulated s, %.3f wall s\n", sl->job.t->id,
		    verdict_name(v), o.sim_seconds, o.wall_seconds);
	if (o.stall_breaks)
		emit(&sl->io,
		     "# %s: time advanced by the stall breaker %d times: not deterministic\n",
		     sl->job.t->id, o.stall_breaks);
	print_block(s, sl);
	s->done++;
	s->wall_sum += o.wall_seconds;
	s->passed += verdict_passed(v);
	s->failed += is_failure(v);
out:
	free(sl->job.first_out);
	free(sl->job.first_err);
	memset(&sl->job, 0, sizeof(sl->job));
	free(sl->dir);
	free(sl->abs);
	sl->dir = sl->abs = NULL;
	sb_release(&sl->io.block);
	sb_release(&sl->io.kblock);
	block_end(&sl->io, false);
	sb_release(&sl->io.partial);
	for (size_t i = 0; i < sizeof(sl->io.copy) / sizeof(sl->io.copy[0]); i++)
		sb_release(&sl->io.copy[i].line);
	free((char *)sl->io.copy_tag);
	sl->io.copy_tag = NULL;
	sb_release(&sl->io.out_all);
	sb_release(&sl->io.err_all);
}

/* ---- the loop ---- */

static int fill_slots(struct sched *s, struct uerr *e)
{
	for (int i = 0; i < s->so->jobs && s->qhead < s->qlen && !s->res->host_signal; i++) {
		struct slot *sl = &s->slots[i];

		if (sl->g)
			continue;
		if (slot_start(s, sl, s->queue[s->qhead++], e) < 0)
			return -1;
	}
	return 0;
}

static bool any_running(const struct sched *s)
{
	for (int i = 0; i < s->so->jobs; i++)
		if (s->slots[i].g)
			return true;
	return false;
}

static void on_signals(struct sched *s, int sfd)
{
	int sig;

	while ((sig = supervise_read_signal(sfd)) > 0) {
		if (sig == SIGCHLD)
			continue;
		s->res->host_signal = sig;
		for (int i = 0; i < s->so->jobs; i++)
			if (s->slots[i].g)
				guest_interrupt(s->slots[i].g, sig);
	}
	for (int i = 0; i < s->so->jobs; i++)
		if (s->slots[i].g && guest_check_exit(s->slots[i].g))
			slot_finish(s, &s->slots[i]);
}

int sched_run(const struct sched_opts *so, const struct test *tests, size_t n,
	      struct sched_result *res, struct uerr *e)
{
	struct sched s = { .so = so, .res = res, .t0 = monotonic_now() };
	int sfd = supervise_signalfd(), r = -1;

	memset(res, 0, sizeof(*res));
	out_errno = ktap_errno = 0; /* compare runs twice */
	outq_stdout.err = 0;
	if (so->out)
		fflush(so->out); /* the header lines came first, through stdio */
	if (sfd < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot read signals (signalfd)");
	s.slots = xcalloc((size_t)so->jobs, sizeof(*s.slots));
	for (int i = 0; i < so->jobs; i++)
		s.slots[i].index = i;
	for (size_t i = 0; i < n; i++)
		for (int a = 1; a <= so->repeat; a++)
			if (a == 1 || !so->check_determinism)
				enqueue(&s,
					(struct job){ .t = &tests[i], .attempt = a, .first = 1 });
	s.total = n * (size_t)so->repeat;

	for (;;) {
		struct pollfd *pf;
		int np = 1, nslots = so->jobs;

		if (fill_slots(&s, e) < 0)
			break;
		if (!any_running(&s)) {
			r = 0;
			break;
		}
		draw_progress(&s);
		pf = xcalloc(3 + (size_t)nslots * GUEST_MAX_FDS, sizeof(*pf));
		pf[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (int i = 0; i < nslots; i++) {
			s.slots[i].npf = s.slots[i].g ? guest_pollfds(s.slots[i].g, pf + np) : 0;
			np += s.slots[i].npf;
		}
		/* Output waiting for its reader: woken when it takes more. */
		if (outq_waiting(&outq_stdout))
			pf[np++] = (struct pollfd){ .fd = outq_stdout.fd, .events = POLLOUT };
		if (outq_waiting(&outq_stderr))
			pf[np++] = (struct pollfd){ .fd = outq_stderr.fd, .events = POLLOUT };
		if (poll(pf, (nfds_t)np, so->progress ? 500 : 1000) < 0 && errno != EINTR) {
			free(pf);
			uerr_sys(e, EXIT_INFRA, "poll");
			break;
		}
		for (int i = 0, k = 1; i < nslots; i++) {
			if (s.slots[i].g)
				guest_handle(s.slots[i].g, pf + k, s.slots[i].npf);
			k += s.slots[i].npf;
		}
		if (pf[0].revents)
			on_signals(&s, sfd);
		free(pf);
		outq_flush(&outq_stdout);
		outq_flush(&outq_stderr);
		for (int i = 0; i < nslots; i++) {
			struct slot *sl = &s.slots[i];

			if (!sl->g)
				continue;
			guest_results_full(sl->g, GUEST_RESULTS_MAX_BYTES, false);
			if (so->result_wall_timeout > 0 &&
			    sl->ktap.ncases + sl->ktap.dropped != sl->results) {
				sl->results = sl->ktap.ncases + sl->ktap.dropped;
				guest_rearm(sl->g, so->result_wall_timeout);
			}
		}
	}
	/* On an error, no guest may outlive the loop. */
	for (int i = 0; i < so->jobs; i++) {
		if (!s.slots[i].g)
			continue;
		guest_abort(s.slots[i].g);
		while (!guest_check_exit(s.slots[i].g))
			;
		slot_finish(&s, &s.slots[i]);
	}
	erase_progress(&s);
	for (size_t i = s.qhead; i < s.qlen; i++) {
		free(s.queue[i].first_out);
		free(s.queue[i].first_err);
	}
	free(s.queue);
	free(s.queued);
	free(s.slots);
	return r;
}

void sched_result_free(struct sched_result *res)
{
	for (size_t i = 0; i < res->nrec; i++) {
		ktap_free(&res->rec[i].ktap);
		free(res->rec[i].dir);
		free(res->rec[i].reason);
		free(res->rec[i].lost);
	}
	free(res->rec);
	res->rec = NULL;
	res->nrec = 0;
}
