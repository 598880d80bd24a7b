/* SPDX-License-Identifier: MIT */
/*
 * gdbserver.h - a guest program under Debian's gdbserver, the host's gdb
 * on it (umlrun exec --gdb-guest).
 *
 * The line between them is a host socket pair: one end is the guest's
 * fourth serial line (ssl3=fd:GDBSERVER_FD, the guest's /dev/ttyS3), the
 * other reaches gdb through umlrun's relay (which ends the line at a
 * File-I/O request: see gdbserver.c) and a pipe command of gdb's own
 * (target remote | two cats). The guest's end is raw before any byte crosses: the command
 * that starts gdbserver holds the line open, raw, for the whole run. It
 * writes GDBSERVER_READY on the line just before it starts gdbserver; gdb
 * starts when umlrun has read it, so its first packet never meets a line
 * nobody listens on. When gdb exits umlrun shuts the line down, the
 * guest's line hangs up and gdbserver exits with it. The guest kernel
 * stays confined: only gdb runs on the host, and it talks to the guest
 * through the line alone.
 */
#ifndef UMLRUN_GDBSERVER_H
#define UMLRUN_GDBSERVER_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

/* The fd linux finds the line's guest end on (the console's under --gdb). */
#define GDBSERVER_FD 6
/* The guest's end of the line. */
#define GDBSERVER_TTY "/dev/ttyS3"
/* What the guest writes on the line when gdbserver is about to listen. */
#define GDBSERVER_READY "umlrun-gdbserver-ready\n"
/* The most source folders gdbserver_gdb_start passes on. */
#define GDB_SOURCES_MAX 8

struct gdbserver_line {
	int master; /* the guest's end, for linux (ssl3=fd:GDBSERVER_FD) */
	int host;   /* gdb's end */
};

/*
 * The relay's reading of the remote protocol on the line (gdbserver.c
 * says why): each direction's packet state, what gdb's last packet asked
 * for, and the walk of the paths the target names in its answers.
 */
struct rsp_path {
	bool started; /* a byte came (the first must be '/') */
	int depth;    /* folders below "/" */
	int comp;     /* bytes of the component so far */
	int dots;     /* of them, dots */
};
struct rsp_scan {
	bool in;      /* inside a packet's data */
	char kind;    /* '$' or '%' */
	char head[8]; /* the data's first bytes */
	size_t n;     /* bytes of data so far */
	bool delim;   /* an 'F' packet's first ',' or ';' has come */
	int skip;     /* checksum bytes still to come after '#' */
	bool rle;     /* a '*' came: the next byte is a repeat count */
	char prev;    /* the last data byte (what a '*' repeats) */
	bool esc;     /* a '}' came: the next byte is escaped (binary answers) */
	char last[5]; /* the data's last bytes, newest last */
	bool exec;    /* inside a stop reply's exec:HEX-PATH */
	int nibble;   /* the first hex digit of a byte, or -1 */
	struct rsp_path exec_path;
	/* gdb's side: a request's offset (":OFFSET,LENGTH") is 0 */
	bool colon, zero_only, offset0;
};
struct rsp_relay {
	struct rsp_scan from_gdb, from_target;
	bool vfile;	/* gdb's last packet was vFile: */
	bool paths;	/* gdb's last packet was qXfer:libraries... or qXfer:exec-file */
	bool exec_file; /* qXfer:exec-file: the answer is one path */
	/* The answers' text (escapes undone; one text over a read in pieces). */
	char ptail[5]; /* its last bytes, newest last */
	int attr;      /* where the XML reading is (gdbserver.c, X_...) */
	char tag[8];   /* the element's name (its first bytes) */
	size_t tlen;
	bool library;  /* the element is a <library> */
	char aname[8]; /* the attribute's name (its first bytes) */
	size_t alen;
	bool checking; /* the value is a library's name */
	char quote;    /* the value's quote */
	char vbuf[24]; /* a value that is not absolute: the vDSO's soname at most */
	size_t vlen;
	struct rsp_path path; /* the path being read */
};
void gdbserver_scan_gdb(struct rsp_relay *r, const char *buf, size_t n);
/*
 * False at the first byte of what the target may not send gdb (a File-I/O
 * request, a path that climbs out of the sysroot with ".." or is
 * relative), *safe the bytes before it (what may still reach gdb); true
 * with *safe = n.
 */
bool gdbserver_scan_target(struct rsp_relay *r, const char *buf, size_t n, size_t *safe);

/* The pair, both ends close-on-exec. */
int gdbserver_line_open(struct gdbserver_line *l, struct uerr *e);
void gdbserver_line_close(struct gdbserver_line *l);

/* The guest's command: argv (COMMAND ARG...) under gdbserver on GDBSERVER_TTY. */
char **gdbserver_guest_argv(char *const *argv);

/*
 * Starts the host's gdb (path gdb) in a process group of its own: it
 * waits for GDBSERVER_READY on the line, then runs gdb connected to it,
 * with the program's files from sysroot (the staged root). With script,
 * gdb runs its commands in batch mode (stdin /dev/null, output on
 * stderr); without, gdb gets the terminal. sources (NULL-terminated, or
 * NULL): folders of the program's source files gdb may read and looks in.
 * Returns its pid.
 */
pid_t gdbserver_gdb_start(const struct gdbserver_line *l, const char *gdb, const char *script,
			  const char *sysroot, char *const *sources);
/*
 * Waits for it (gdb ends with the guest's program, or when a person
 * quits it) and takes the terminal back. Its exit status, or -1.
 */
int gdbserver_gdb_wait(pid_t pid, bool terminal);

#endif
