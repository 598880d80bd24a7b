// SPDX-License-Identifier: MIT
/* gdbserver.c - the line between gdbserver in the guest and gdb on the host. */
#define _GNU_SOURCE
#include "gdbserver.h"
#include "confine.h"
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a script's gdb may take to end once the guest has. */
#define GDB_GRACE_MS 5000

int gdbserver_line_open(struct gdbserver_line *l, struct uerr *e)
{
	int sv[2];

	l->master = l->host = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return uerr_sys(e, EXIT_INFRA, "--gdb-guest: cannot make gdbserver's line");
	l->master = sv[0];
	l->host = sv[1];
	return 0;
}

void gdbserver_line_close(struct gdbserver_line *l)
{
	if (l->master >= 0)
		close(l->master);
	if (l->host >= 0)
		close(l->host);
	l->master = l->host = -1;
}

char **gdbserver_guest_argv(char *const *argv)
{
	/*
	 * fd 9 holds the line open and raw from before the first byte to the
	 * end (gdbserver opens it again); the program does not inherit it.
	 * SIGHUP is ignored: the line becomes the job's terminal, and its
	 * hangup at the end is how gdbserver learns gdb has gone. gdbserver
	 * exits 0 whatever its program did, so the status comes from its
	 * "Child exited" line (its stderr passes through on the way): 128+N
	 * for a signal, the shell's status for a program that cannot start
	 * (gdbserver starts it with a shell), 137 when gdb
	 * killed it (quit while it ran). The hangup that ends the line
	 * makes the guest's tty poll as an error (a hung-up tty polls
	 * EPOLLERR, drivers/tty/tty_io.c), which gdbserver's event loop
	 * names before it reads the end ("gdbserver: Error detected on fd
	 * 4"): every session ends so, and that line is dropped.
	 */
	static const char script[] =
	    "trap '' HUP\n"
	    "exec 9<>" GDBSERVER_TTY " && stty raw -echo <&9 &&\n"
	    "\tprintf '" GDBSERVER_READY "' >&9 || exit 125\n"
	    "rc=\"${TMPDIR:-/tmp}/gdb-guest.$$\"\n"
	    "echo 137 >\"$rc\"\n"
	    "{ gdbserver --once " GDBSERVER_TTY " \"$@\" 9>&- 2>&1 >&3 3>&- |\n"
	    "\twhile IFS= read -r l; do\n"
	    "\t\tcase $l in 'gdbserver: Error detected on fd '*) continue ;; esac\n"
	    "\t\tprintf '%s\\n' \"$l\" >&2\n"
	    "\t\tcase $l in\n"
	    "\t\t'Child exited with status '*) echo \"${l##* }\" >\"$rc\" ;;\n"
	    "\t\t'During startup program exited with code '*) s=${l##* } && echo \"${s%.}\" "
	    ">\"$rc\" ;;\n"
	    "\t\t'During startup program exited normally'*) echo 0 >\"$rc\" ;;\n"
	    "\t\t'Child terminated with signal = '*) s=${l#*= } && echo $((128 + ${s%% *})) "
	    ">\"$rc\" ;;\n"
	    "\t\tesac\n"
	    "\tdone; } 3>&1\n"
	    "exit \"$(cat \"$rc\")\"\n";
	size_t n = 0;
	char **v;

	while (argv[n])
		n++;
	v = xmalloc((n + 5) * sizeof(*v));
	v[0] = xstrdup("/bin/sh");
	v[1] = xstrdup("-c");
	v[2] = xstrdup(script);
	v[3] = xstrdup("gdb-guest");
	for (size_t i = 0; i < n; i++)
		v[4 + i] = xstrdup(argv[i]);
	v[4 + n] = NULL;
	return v;
}

/* In the child: read the line until the guest says gdbserver is starting. */
static bool wait_ready(int fd)
{
	const char *want = GDBSERVER_READY;
	size_t matched = 0, len = strlen(want);

	while (matched < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char c;
		ssize_t r;

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) /* EIO: linux closed the master, the guest has ended */
			return false;
		matched = c == want[matched] ? matched + 1 : c == want[0] ? 1 : 0;
	}
	return true;
}

/*
 * The remote protocol lets the target ask gdb for the host's files:
 * File-I/O, an 'F' packet where gdb waits for the program to stop, on
 * which gdb opens, reads, writes or removes files on the host as the user
 * running it. gdbserver never asks, but a guest program can replace it on
 * the line. So the line reaches gdb through a relay that reads what each
 * side sends, packet by packet, as gdb's read_frame does ($DATA#CS and
 * %NOTIFICATION#CS, '*' and a count repeating the byte before, a '$'
 * inside a packet or a bad count ending it), and ends the line at the
 * first such request: a target's 'F' packet whose call is a name
 * (Fopen,..., Fwrite,...: each has a letter past f before its first ','
 * or ';'), or any 'F' packet but the one that answers gdb's own vFile:
 * packet (gdb's I/O on the target's files: F, a hex number, then ',', ';'
 * or the end).
 *
 * The target also names files gdb opens below its sysroot, the staged
 * root: a program's new image in a stop reply (T..exec:HEX-PATH;), the
 * libraries and the executable gdb asks for (qXfer:libraries-svr4's
 * name="..." attributes, qXfer:exec-file). gdb joins the sysroot and the
 * path as text, so a path must be absolute and may not climb above "/"
 * ("/opt/app/bin/../lib" is fine, "/x/../.." is not); the one relative
 * name let through is the vDSO's, which gdb never opens. XML character
 * references and entity declarations (&#46;, <!ENTITY) are refused in
 * any answer: gdb's XML parser would turn them into bytes this reading
 * never saw. The relay is the first wall: gdb itself runs confined
 * (confine_gdb), since it also reads a library list from the guest's
 * memory, where no relay looks.
 */

static void tail_push(char *tail, size_t len, char c)
{
	memmove(tail, tail + 1, len - 1);
	tail[len - 1] = c;
}

static bool walk_component(struct rsp_path *w)
{
	if (w->comp == 2 && w->dots == 2) {
		if (--w->depth < 0)
			return false;
	} else if (w->comp && !(w->comp == 1 && w->dots == 1)) {
		w->depth++;
	}
	w->comp = w->dots = 0;
	return true;
}

/* A byte of a path: false when it is relative or has climbed above "/". */
static bool walk_char(struct rsp_path *w, char c)
{
	if (!w->started) {
		w->started = true;
		return c == '/';
	}
	if (c == '/')
		return walk_component(w);
	w->comp++;
	w->dots += c == '.';
	return true;
}

static bool walk_end(struct rsp_path *w)
{
	bool ok = !w->started || walk_component(w);

	memset(w, 0, sizeof(*w));
	return ok;
}

static void rsp_from_gdb(struct rsp_scan *s, char c, struct rsp_relay *r)
{
	if (c == '$') {
		s->in = true;
		s->n = 0;
		s->colon = s->offset0 = false;
	} else if (s->in && c == '#') {
		s->in = false;
		r->vfile = s->n >= 6 && !memcmp(s->head, "vFile:", 6);
		r->exec_file = s->n >= 8 && !memcmp(s->head, "qXfer:ex", 8);
		r->paths = r->exec_file || (s->n >= 8 && !memcmp(s->head, "qXfer:li", 8));
		/* A read from its start (":0,LENGTH"): a text of its own begins. */
		if (!r->paths || s->offset0 || r->exec_file) {
			memset(r->ptail, 0, sizeof(r->ptail));
			r->attr = 0;
			r->vlen = 0;
			memset(&r->path, 0, sizeof(r->path));
		}
	} else if (s->in) {
		if (s->n < sizeof(s->head))
			s->head[s->n] = c;
		s->n++;
		if (c == ':') {
			s->colon = s->zero_only = true;
		} else if (c == ',' && s->colon) {
			s->offset0 = s->zero_only;
			s->colon = false;
		} else if (c != '0') {
			s->zero_only = false;
			if (!(c >= '1' && c <= '9') && !(c >= 'a' && c <= 'f'))
				s->colon = false;
		}
	}
}

/* Whether c may stand at position n (from 0) of the hex number an 'F' answer holds. */
static bool answer_char(char c, size_t n)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') ||
	       (c == '-' && n == 0);
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A byte of a stop reply's exec:HEX path: false when gdb may not have it. */
static bool exec_char(struct rsp_scan *s, char c)
{
	int v = hex_value(c);
	char b;

	if (v < 0) {
		s->exec = false; /* ';' ends the path */
		return walk_end(&s->exec_path);
	}
	if (s->nibble < 0) {
		s->nibble = v;
		return true;
	}
	b = (char)(s->nibble << 4 | v);
	s->nibble = -1;
	/* gdb's string ends at a NUL: what follows would hide a "..". */
	return b != '\0' && walk_char(&s->exec_path, b);
}

/* The names gdb knows for the vDSO, a library of no file that it never opens. */
static bool vdso_name(const char *name, size_t len)
{
	return (len == 15 && !memcmp(name, "linux-vdso.so.1", 15)) ||
	       (len == 15 && !memcmp(name, "linux-gate.so.1", 15));
}

/* The library list read as XML is read (what gdb's expat sees): tags, attributes, values. */
enum { X_TEXT, X_TAG, X_ATTRS, X_ANAME, X_AEQ_WAIT, X_AEQ, X_VALUE };

static bool xml_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The end of a library's name="...": absolute and below "/", or the vDSO's. */
static bool library_name_end(struct rsp_relay *r)
{
	if (r->vlen)
		return vdso_name(r->vbuf, r->vlen);
	return walk_end(&r->path);
}

/* A byte of a library's name: absolute, or a relative name kept to compare. */
static bool library_name_char(struct rsp_relay *r, char c)
{
	if (c == '\0')
		return false;
	if (r->vlen || (!r->path.started && c != '/')) {
		if (r->vlen == sizeof(r->vbuf))
			return false;
		r->vbuf[r->vlen++] = c;
		return true;
	}
	return walk_char(&r->path, c);
}

/* A byte of an answer's text, escapes undone: false when gdb may not have it. */
static bool path_text(struct rsp_relay *r, char c)
{
	tail_push(r->ptail, sizeof(r->ptail), c);
	/* A character reference, an entity declared: bytes this reading never sees. */
	if (!memcmp(r->ptail + 3, "&#", 2) || !memcmp(r->ptail + 1, "<!EN", 4))
		return false;
	if (r->exec_file)
		return c != '\0' && walk_char(&r->path, c);
	switch (r->attr) {
	case X_TEXT:
		if (c == '<') {
			r->attr = X_TAG;
			r->tlen = 0;
		}
		return true;
	case X_TAG:
		if (xml_blank(c) || c == '/' || c == '>') {
			r->library = r->tlen == 7 && !memcmp(r->tag, "library", 7);
			r->attr = c == '>' ? X_TEXT : X_ATTRS;
		} else if (r->tlen < sizeof(r->tag)) {
			r->tag[r->tlen++] = c;
		}
		return true;
	case X_ATTRS:
		if (c == '>')
			r->attr = X_TEXT;
		else if (!xml_blank(c) && c != '/') {
			r->attr = X_ANAME;
			r->alen = 0;
			r->aname[r->alen++] = c;
		}
		return true;
	case X_ANAME:
	case X_AEQ_WAIT:
		if (c == '=')
			r->attr = X_AEQ;
		else if (xml_blank(c))
			r->attr = X_AEQ_WAIT;
		else if (r->attr == X_AEQ_WAIT)
			r->attr = X_ATTRS; /* not XML: expat refuses it */
		else if (r->alen < sizeof(r->aname))
			r->aname[r->alen++] = c;
		return true;
	case X_AEQ:
		if (c == '"' || c == '\'') {
			r->quote = c;
			r->attr = X_VALUE;
			r->checking = r->library && r->alen == 4 && !memcmp(r->aname, "name", 4);
			r->vlen = 0;
			memset(&r->path, 0, sizeof(r->path));
		} else if (!xml_blank(c)) {
			r->attr = X_ATTRS;
		}
		return true;
	default: /* X_VALUE */
		if (c == r->quote) {
			r->attr = X_ATTRS;
			return !r->checking || library_name_end(r);
		}
		return !r->checking || library_name_char(r, c);
	}
}

/* A data byte of a target's packet, repeats expanded: false when gdb may not have it. */
static bool target_data(struct rsp_scan *s, char c, struct rsp_relay *r)
{
	size_t at;

	if (s->n < sizeof(s->head))
		s->head[s->n] = c;
	s->n++;
	/* A stop reply's new program: T..exec:HEX-PATH; ($), Stop:T..exec: (%). */
	if (s->exec && !exec_char(s, c))
		return false;
	tail_push(s->last, sizeof(s->last), c);
	if (!memcmp(s->last, "exec:", 5) &&
	    ((s->kind == '$' && s->head[0] == 'T') ||
	     (s->kind == '%' && s->n > 6 && !memcmp(s->head, "Stop:T", 6)))) {
		s->exec = true;
		s->nibble = -1;
		memset(&s->exec_path, 0, sizeof(s->exec_path));
	}
	/*
	 * An answer in pieces (l or m, then the text): the executable's path
	 * when gdb asked for it, and any library list in any of them (one sent
	 * before gdb asked is read as the answer all the same).
	 */
	if (s->kind == '$' && s->n > 1 && (s->head[0] == 'l' || s->head[0] == 'm')) {
		if (c == '}' && !s->esc) {
			s->esc = true;
		} else {
			char plain = s->esc ? (char)(c ^ 0x20) : c;

			s->esc = false;
			if (!path_text(r, plain))
				return false;
		}
	}
	if (s->kind == '%')
		return !(s->n == 6 && !memcmp(s->head, "Stop:F", 6));
	if (s->n == 1)
		return c != 'F' || r->vfile;
	if (s->head[0] != 'F' || s->delim)
		return true;
	/* An 'F' packet gdb waits for as an answer: a number, not a call's name. */
	if (c == ',' || c == ';') {
		s->delim = true;
		return true;
	}
	at = s->n - 2;
	return answer_char(c, at);
}

/*
 * Scans the target's byte c as gdb reads it (remote.c, read_frame): '$'
 * or '%' outside a packet starts one, '#' ends it and two checksum bytes
 * follow, '*' and a count byte (whatever it is) repeat the byte before;
 * a '$' inside a packet or a count out of range ends it unread (gdb looks
 * for the next '$' or '%'). False for a byte gdb may not have (above).
 */
static bool rsp_from_target(struct rsp_scan *s, char c, struct rsp_relay *r)
{
	if (s->skip) {
		s->skip--;
		return true;
	}
	if (s->in && s->rle) {
		int repeat = (unsigned char)c - 29;

		s->rle = false;
		if (repeat <= 0 || repeat > 255 || !s->n) {
			s->in = false;
			return true;
		}
		for (int k = 0; k < repeat; k++)
			if (!target_data(s, s->prev, r))
				return false;
		return true;
	}
	if (s->in && c == '$') {
		s->in = false;
		return true;
	}
	if (!s->in) {
		if (c == '$' || c == '%') {
			memset(s, 0, sizeof(*s));
			s->in = true;
			s->kind = c;
		}
		return true;
	}
	if (c == '#') {
		bool ok = true;

		s->in = false;
		s->skip = 2;
		if (s->exec)
			ok = walk_end(&s->exec_path);
		/* A packet answered gdb's (a notification answers nothing). */
		if (s->kind == '$') {
			if (r->exec_file && (s->head[0] == 'l' || s->head[0] == 'm'))
				ok = ok && walk_end(&r->path);
			r->vfile = r->paths = false;
		}
		return ok;
	}
	if (c == '*') {
		s->rle = true;
		return true;
	}
	s->prev = c;
	return target_data(s, c, r);
}

void gdbserver_scan_gdb(struct rsp_relay *r, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rsp_from_gdb(&r->from_gdb, buf[i], r);
}

bool gdbserver_scan_target(struct rsp_relay *r, const char *buf, size_t n, size_t *safe)
{
	for (size_t i = 0; i < n; i++)
		if (!rsp_from_target(&r->from_target, buf[i], r)) {
			*safe = i;
			return false;
		}
	*safe = n;
	return true;
}

/* Relays line <-> peer (gdb's end) until both have ended. */
static int relay(int line, int peer)
{
	struct rsp_relay scan = { 0 };
	bool line_open = true, peer_open = true;
	char buf[4096];

	while (line_open || peer_open) {
		struct pollfd p[2] = { { .fd = line_open ? line : -1, .events = POLLIN },
				       { .fd = peer_open ? peer : -1, .events = POLLIN } };
		ssize_t r;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (p[0].revents) {
			r = read(line, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				line_open = false;
				shutdown(peer, SHUT_WR);
			} else {
				size_t safe;

				if (!gdbserver_scan_target(&scan, buf, (size_t)r, &safe)) {
					(void)write_all(peer, buf, safe);
					dprintf(2,
						"%s: --gdb-guest: the guest asked gdb for "
						"the host's files (a File-I/O request, or a "
						"path out of the staged root); refused, and "
						"the line to gdb closed\n",
						prog_name);
					shutdown(line, SHUT_RDWR);
					shutdown(peer, SHUT_RDWR);
					return 1;
				}
				if (write_all(peer, buf, (size_t)r) < 0)
					return 1;
			}
		}
		if (p[1].revents) {
			r = read(peer, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				peer_open = false;
				shutdown(line, SHUT_WR);
			} else {
				gdbserver_scan_gdb(&scan, buf, (size_t)r);
				if (write_all(line, buf, (size_t)r) < 0)
					return 1;
			}
		}
	}
	return 0;
}

/* gdb (argv), then the line shut down; gdb's exit status. */
static int run_gdb(int line, const char *gdb, const char *const *argv)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		execv(gdb, (char **)argv);
		dprintf(2, "%s: cannot run %s: %s\n", prog_name, gdb, strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		return 126;
	/* ^C and ^\ are gdb's (it stops the program with them), not ours. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 126;
	/*
	 * The line's end, for every process that holds it (gdb's relay too):
	 * linux reads EOF, UML hangs the guest's line up, and gdbserver, which
	 * ends only when its line fails, exits.
	 */
	shutdown(line, SHUT_RDWR);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 126;
}

pid_t gdbserver_gdb_start(const struct gdbserver_line *l, const char *gdb, const char *script,
			  const char *sysroot, char *const *sources)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	{
		/*
		 * gdb reads and writes a pipe to a command of its own: two cats
		 * between it and the relay, which gdb's shell finds on fd 5.
		 */
		const char *target = "target remote | cat <&5 & exec cat >&5";
		_cleanup_free_ char *root = xasprintf("set sysroot %s", sysroot);
		const char *argv[16 + 2 * GDB_SOURCES_MAX];
		size_t n = 0;
		sigset_t none;
		int sp[2], cr;
		pid_t rp;

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		close(l->master); /* linux's copy alone: its end is the line's end */
		setpgid(0, 0);
		if (!wait_ready(l->host)) {
			dprintf(2, "%s: --gdb-guest: the guest ended before gdbserver started\n",
				prog_name);
			_exit(3);
		}
		/*
		 * The relay: in gdb's group (the grace's kill reaches it), with
		 * umlrun's signals still blocked (^C is gdb's), ended with it.
		 */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) < 0)
			_exit(126);
		rp = fork();
		if (rp < 0)
			_exit(126);
		if (rp == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(sp[1]);
			_exit(relay(l->host, sp[0]));
		}
		close(sp[0]);
		if (script) {
			int null = open("/dev/null", O_RDONLY);

			if (null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0)
				_exit(126);
		} else {
			/* The terminal is gdb's now. */
			terminal_to(getpgrp());
		}
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(sp[1], 5) < 0 || fcntl(5, F_SETFD, 0) < 0)
			_exit(126);
		/*
		 * gdb opens what the target names below its sysroot (a
		 * library list can come from the guest's memory, which no
		 * relay reads): it may read only what it needs.
		 */
		if ((cr = confine_gdb(sysroot, script, sources)) < 0) {
			dprintf(2, "%s: --gdb-guest: cannot confine gdb: %s\n", prog_name,
				strerror(-cr));
			_exit(126);
		}
		argv[n++] = gdb;
		argv[n++] = "-q";
		if (script)
			argv[n++] = "-batch";
		argv[n++] = "-ex";
		argv[n++] = "set pagination off";
		/* A guest with time travel off answers in its own time. */
		argv[n++] = "-ex";
		argv[n++] = "set remotetimeout 30";
		/*
		 * The program and its libraries from the staged root on the host,
		 * not over the line (gdb's default, target:): megabytes through a
		 * serial line, and gdb 13 tripped on its own assertions there.
		 */
		argv[n++] = "-ex";
		argv[n++] = root;
		/* The sources' folders, where gdb looks for a file DWARF names. */
		for (size_t i = 0; sources && sources[i] && i < GDB_SOURCES_MAX; i++) {
			argv[n++] = "-ex";
			argv[n++] = xasprintf("directory %s", sources[i]);
		}
		argv[n++] = "-ex";
		argv[n++] = target;
		if (script) {
			argv[n++] = "-x";
			argv[n++] = script;
		}
		argv[n] = NULL;
		_exit(run_gdb(l->host, gdb, argv));
	}
}

int gdbserver_gdb_wait(pid_t pid, bool terminal)
{
	int status;
	pid_t r;

	/*
	 * A person quits gdb in their own time. A script's gdb has seen the
	 * line end with the guest, and its pipe command (the relay) can keep
	 * gdb 13 polling after "Remote connection closed": a grace of
	 * GDB_GRACE_MS, then its group is killed.
	 */
	for (int waited = 0; !terminal && waited < GDB_GRACE_MS; waited += 50) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		if (r < 0 && errno != EINTR)
			return -1;
		usleep(50 * 1000);
	}
	if (!terminal)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (terminal)
		terminal_to(getpgrp());
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
