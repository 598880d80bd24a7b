/* SPDX-License-Identifier: MIT */
/*
 * util.h - small helpers shared by every umlrun module.
 *
 * Error contract (docs/errors.md): library-like modules never print and
 * never exit. They return 0 on success and -1 on failure after filling a
 * struct uerr with one line of text and the exit code the command layer
 * should use. Only runner/cli/umlrun.c (the command layer) prints and exits,
 * through die()/uerr_die().
 *
 * Ownership: _cleanup_free_ and _cleanup_close_ release on scope exit;
 * steal_ptr()/steal_fd() hand ownership on explicitly. -1 means "no fd".
 */
#ifndef UMLRUN_UTIL_H
#define UMLRUN_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define UMLRUN_NORETURN	    __attribute__((noreturn))
#define UMLRUN_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* The exit-code contract, documented in docs/exit-codes.md. */
enum umlrun_exit {
	EXIT_PASS = 0,
	EXIT_TESTFAIL = 1,
	EXIT_USAGE = 2,
	EXIT_INFRA = 3,
	EXIT_TIMEOUT = 124,
	EXIT_SIGNAL_BASE = 128,
};

struct uerr {
	int code;	/* one of enum umlrun_exit */
	char msg[1024]; /* one line, no trailing newline */
};

extern const char *prog_name;

int uerr_set(struct uerr *e, int code, const char *fmt, ...) UMLRUN_PRINTF(3, 4);
/* Like uerr_set, appending ": strerror(errno)"; errno is read first. */
int uerr_sys(struct uerr *e, int code, const char *fmt, ...) UMLRUN_PRINTF(3, 4);
UMLRUN_NORETURN void uerr_die(const struct uerr *e);
/* Prints e as uerr_die does, and goes on (the caller keeps its exit code). */
void uerr_print(const struct uerr *e);

UMLRUN_NORETURN void die(int code, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
UMLRUN_NORETURN void die_sys(int code, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
void warn(const char *fmt, ...) UMLRUN_PRINTF(1, 2);
void warn_sys(const char *fmt, ...) UMLRUN_PRINTF(1, 2);
void note(const char *fmt, ...) UMLRUN_PRINTF(1, 2);
/*
 * Messages (die, warn, note) and stderr_add's text go through stderr's
 * queue (struct outq) once the process calls this; before, and in a forked
 * child, they are written directly.
 */
void stderr_queue_init(void);
/*
 * fds 0, 1 and 2 that are closed (umlrun >&-) get /dev/null, or the first
 * pipe or signalfd would take their place (a pipe as a child's stdout, the
 * results written into ktap.txt), opened read-only: a write to 1 or 2
 * still fails with EBADF, as on the closed descriptor.
 */
void std_fds_fill(void);
void stderr_add(const char *text, size_t len);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* vasprintf(3) (its length in *len, if len), or exit 3 when out of memory. */
char *xvasprintf(size_t *len, const char *fmt, va_list ap) UMLRUN_PRINTF(2, 0);
char *xasprintf(const char *fmt, ...) UMLRUN_PRINTF(1, 2);

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline int steal_fd(int *fd)
{
	int r = *fd;
	*fd = -1;
	return r;
}

static inline void *steal_ptr(void *pp)
{
	void **p = pp;
	void *r = *p;
	*p = NULL;
	return r;
}

#define _cleanup_free_	__attribute__((cleanup(freep)))
#define _cleanup_close_ __attribute__((cleanup(closep)))
#define _cleanup_strv_	__attribute__((cleanup(strvp)))

/* A growable string; buf is always NUL-terminated once anything was added. */
struct strbuf {
	char *buf;
	size_t len, cap;
};

void sb_add(struct strbuf *sb, const void *data, size_t len);

/*
 * Output that never blocks umlrun: what a reader that stops reading (a
 * pager, `| sleep`) has not taken waits in memory, up to OUTQ_MAX bytes
 * (past that it is dropped, and counted), so the wall-clock limits and
 * the signals keep working. Written in pieces of at most 4 KiB, each once
 * poll(2) says the fd takes it (a pipe then takes it whole).
 */
struct outq {
	int fd;
	int wfd; /* what is written to: fd, or (not a file) its own non-blocking open */
	struct strbuf buf;
	size_t off;	/* bytes of buf already written */
	size_t dropped; /* bytes dropped past OUTQ_MAX */
	size_t lost;	/* bytes not written for err */
	int err;	/* the first write error (EPIPE: the reader went away) */
};
#define OUTQ_MAX ((size_t)64 << 20)
/* Past this much waiting, a producer that can wait (exec's guest) is made to. */
#define OUTQ_HIGH ((size_t)8 << 20)
size_t outq_backlog(const struct outq *q);
/* The queues of stdout and stderr (fd 1 and 2). */
extern struct outq outq_stdout, outq_stderr;
void outq_add(struct outq *q, const void *data, size_t len);
void outq_printf(struct outq *q, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
/* Writes what the fd takes now, without waiting. */
void outq_flush(struct outq *q);
bool outq_waiting(const struct outq *q);
/*
 * Writes what waits, waiting for the reader, but not past a signal on the
 * signalfd sfd (-1: none): returns that signal, or 0.
 */
int outq_drain(struct outq *q, int sfd);
void sb_adds(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) UMLRUN_PRINTF(2, 3);
void sb_release(struct strbuf *sb);
/*
 * Reports must be valid UTF-8 whatever a guest printed: the length of the
 * valid sequence at p (1 to 4), or 0; sb_add_utf8 copies it, or U+FFFD
 * for an invalid byte, and leaves *p on the sequence's last byte.
 */
size_t utf8_valid_len(const unsigned char *p);
/*
 * Whether the UTF-8 sequence p (n bytes, valid) is a bidirectional
 * control (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which
 * reorders the text around it on screen, or the line or paragraph
 * separator (U+2028, U+2029), which many readers take for a line break (a
 * forged result line): reports show it escaped.
 */
bool unicode_control(const unsigned char *p, size_t n);
void sb_add_utf8(struct strbuf *sb, const unsigned char **p);
char *sb_detach(struct strbuf *sb);
/* s fit for a one-line message: control and non-ASCII bytes as \n, \r, \t or \xNN. */
char *str_printable(const char *s);
/*
 * s with its control characters (C0 but tab, DEL, C1 as UTF-8 writes it) and
 * bytes that are not UTF-8 as \xHH; the rest, backslashes included, as is.
 */
char *str_shown(const char *s);
/*
 * The host's CPU as a person compares machines by: the model /proc/cpuinfo
 * names ("model name", else "unknown CPU") and how many are online,
 * "AMD EPYC, 2 CPUs". Allocated.
 */
char *host_cpu_describe(void);
/*
 * The CPUs this process may run on (its affinity: taskset, a cgroup's
 * cpuset), at least 1: the default -j, one guest per CPU.
 */
int cpus_usable(void);
/* Whether the host's kernel (uname's release) is MAJOR.MINOR or later. */
bool host_kernel_at_least(int major, int minor);
/* A size such as 256M (one mem_size_valid accepts: K, M or G, or none) in bytes. */
unsigned long long size_bytes(const char *size);

/*
 * Files. All return 0 or -errno. read_file (and hasher_add_file) read only
 * a regular file (else -EINVAL) of at most READ_FILE_MAX bytes (else
 * -EFBIG): read_file_error says either in words.
 */
#define READ_FILE_MAX ((off_t)1 << 30)
int read_file(const char *path, char **out, size_t *len);
const char *read_file_error(int r);
/* Writes through a temporary file and rename(2): never half-written. */
/* Writes all n bytes of p to fd (a short write goes on, EINTR too): 0 or -errno. */
int write_all(int fd, const void *p, size_t n);
int write_file_atomic(const char *path, const void *data, size_t len);
/* The same for a strbuf, which it releases; a failure fills e (exit 3). */
int sb_write_atomic(const char *path, struct strbuf *sb, struct uerr *e);
int mkdir_p(const char *path, mode_t mode);
/*
 * A walk of the folder dfd (which it closes) by descriptors, never
 * following a link, one descriptor per level: fn gets each entry's folder,
 * name, lstat and depth (1 for dfd's own entries) and says whether to
 * enter it (a folder), go on, or stop. Returns 0, or -1 when fn stopped
 * the walk or a folder it chose could not be opened (the walk goes on past
 * that one).
 */
enum walk_step { WALK_NEXT, WALK_ENTER, WALK_STOP };
typedef enum walk_step walk_fn(int dfd, const char *name, const struct stat *st, int depth,
			       void *ctx);
int walk_at(int dfd, walk_fn *fn, void *ctx);
/*
 * rm -rf: by descriptors, never following a link, at any depth (0 or the
 * first -errno). rm_contents empties a folder and keeps it.
 */
int rm_rf(const char *path);
int rm_contents(const char *dir);
/* Frees a NULL-terminated vector of strings and the strings; NULL is fine. */
void strv_free(char **v);
static inline void strvp(void *p)
{
	strv_free(*(char ***)p);
}
/*
 * path resolved as realpath(3) does, the part of it that does not exist yet
 * appended as written (a results folder to be made): NULL on another error.
 */
char *path_resolved(const char *path);
/* Whether path is dir or below it (both resolved, no trailing '/'). */
bool path_within(const char *path, const char *dir);
bool path_exists(const char *path);
bool is_dir(const char *path);
/* Whether s ends with tail. */
bool ends_with(const char *s, const char *tail);

/*
 * Run argv, waiting for it. Its stdout and stderr go to log_fd when it is
 * not -1. Returns the wait status, or -errno if it could not start.
 */
int run_argv(char *const argv[], int log_fd);
/*
 * Run argv with its stdin from /dev/null and its stdout and stderr into
 * log_fd (-1: nowhere), a line at a time: on_line (if set) sees each line of its output
 * as it comes, and tick (if set) runs after each read, for progress lines.
 * in_child (if set) runs in the child before exec. Returns the wait
 * status, or -errno if it could not start.
 */
struct run_watch {
	void (*on_line)(void *ctx, const char *line);
	void (*tick)(void *ctx);
	void (*in_child)(void);
	void *ctx;
};
int run_argv_watched(char *const argv[], int log_fd, const struct run_watch *w);
/* The first line of `gcc --version` ("unknown" if none): build caches key on it. */
char *compiler_version(void);
/*
 * Progress for the user through a module's callback (docs/errors.md: the
 * command layer prints): the formatted text to say(ctx, transient, text),
 * nothing when say is NULL.
 */
void say_through(void (*say)(void *ctx, bool transient, const char *text), void *ctx,
		 bool transient, const char *fmt, ...) UMLRUN_PRINTF(4, 5);
/* Run argv and return its stdout (NULL on failure, *status set). */
char *capture_argv(char *const argv[], int *status);

/* CLOCK_MONOTONIC in seconds: wall-clock durations. */
double monotonic_now(void);
/*
 * splitmix64: the next number of a fixed, portable sequence (state is the
 * seed, advanced); splitmix64_mix is its finaliser alone, a cheap
 * avalanche of x's bits.
 */
uint64_t splitmix64_next(uint64_t *state);
uint64_t splitmix64_mix(uint64_t x);

/* SHA-256 (OpenSSL's libcrypto) over a sequence of inputs. */
struct hasher;
struct hasher *hasher_new(void);
void hasher_add(struct hasher *h, const void *data, size_t len);
void hasher_add_str(struct hasher *h, const char *s); /* includes the NUL */
/* $XDG_CACHE_HOME/umlrun, or ~/.cache/umlrun (NULL: no home at all). */
char *cache_path(void);
/*
 * Why the cache folder root must not be used (none, another's, o+w, or
 * not there in a folder that is not there either), or NULL.
 */
char *cache_problem(const char *root);
/* cache_path(), checked: exits 2 with the reason when it must not be used. */
char *cache_root(void);
/*
 * A cache entry being made: PATH.tmp-PID.nsINODE, this process's PID and
 * PID namespace, so that what an interrupted umlrun left can be told from
 * what another namespace's umlrun, sharing the cache, is making.
 */
char *tmp_name(const char *path);
/* Its "PID.nsINODE" part, for other names of the kind (merge's OUT.merging-...). */
char *tmp_suffix(void);
/* The signals whose default ends a process and that umlrun acts on instead (util.c). */
#define N_ENDING_SIGNALS 12
extern const int ending_signals[N_ENDING_SIGNALS];
/*
 * Set once umlrun reads its signals itself (supervise_block_signals):
 * before, an ending signal while a helper program runs is passed to it.
 */
extern bool helpers_own_group;
/*
 * Whether a SIGTSTP would stop umlrun: its process group is not orphaned
 * (a shell of its session is there to send SIGCONT).
 */
bool job_control_stops(void);
/* What a ^Z read from the signalfd does (supervise_suspend), once a run reads its signals. */
extern void (*suspend_hook)(void);
/*
 * A folder a helper program writes (a build's scratch folder), removed if
 * an ending signal stops the helper (scratch_pop when it is done or kept).
 * At most four at once; path must live until its pop.
 */
void scratch_push(const char *path);
void scratch_pop(const char *path);
/*
 * An owner file's text (a stage's, --plain's suites): this process's PID and
 * PID namespace; owner_gone says whether the process that wrote text is
 * gone for sure (not when it was of another namespace, which could share
 * TMPDIR).
 */
char *owner_text(void);
bool owner_gone(const char *text);
/*
 * Whether NAME is such an entry whose process is gone: TMP_STALE when its
 * PID is of this namespace (gone for sure), TMP_STALE_IF_OLD when it may
 * be another's (or named by an older umlrun, without .ns), else 0.
 */
/* Seconds before a stale entry that may be another PID namespace's goes. */
#define STALE_TMP_AGE	 3600
#define TMP_STALE	 1
#define TMP_STALE_IF_OLD 2
int tmp_staleness(const char *name);
/* Removes the stale entries of a cache folder: of another namespace, after an hour. */
void sweep_stale_tmp(const char *dir);

int hasher_add_file(struct hasher *h, const char *path); /* 0 or -errno */
void hasher_final(struct hasher *h, char hex[65]);	 /* frees h */

/* Where in text (len bytes) the earliest of the n marks starts, or NULL. */
const char *first_mark(const char *text, size_t len, const char *const *marks, size_t n);

#endif
