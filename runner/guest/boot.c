// SPDX-License-Identifier: MIT
/* boot.c - the staging folder and the kernel command line. */
#define _GNU_SOURCE
#include "boot.h"
#include "gdbserver.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>

const char *tt_mode_name(enum tt_mode m)
{
	static const char *const names[] = { "off", "basic", "inf-cpu" };

	return names[m];
}

int tt_mode_parse(const char *s, enum tt_mode *m)
{
	for (int i = TT_OFF; i <= TT_INF_CPU; i++) {
		if (!strcmp(s, tt_mode_name((enum tt_mode)i))) {
			*m = (enum tt_mode)i;
			return 0;
		}
	}
	return -1;
}

char *guest_umid(const struct guest_spec *g)
{
	/* Unique enough: it names a folder in the guest's own uml_dir. */
	(void)g;
	return xstrdup("umlrun");
}

static void strv_push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

char *strv_join(char *const *v)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; v[i]; i++) {
		bool plain =
		    v[i][0] && strspn(v[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					    "0123456789_-+=.,/:@%") == strlen(v[i]);

		if (i)
			sb_adds(&sb, " ");
		if (plain) {
			sb_adds(&sb, v[i]);
			continue;
		}
		sb_adds(&sb, "'");
		for (const char *p = v[i]; *p; p++)
			*p == '\'' ? sb_adds(&sb, "'\\''") : sb_add(&sb, p, 1);
		sb_adds(&sb, "'");
	}
	return sb_detach(&sb);
}

/* The kernel command line is at most 4096 bytes on UML (COMMAND_LINE_SIZE). */
#define ARGV_HEX_MAX 3000

static char *argv_hex(char *const *argv)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; argv[i]; i++) {
		for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++)
			sb_printf(&sb, "%02x", *p);
		sb_adds(&sb, "00");
	}
	return sb_detach(&sb);
}

static char *hex_of(const char *text)
{
	struct strbuf sb = { 0 };

	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		sb_printf(&sb, "%02x", *p);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/*
 * A --mount folder as hostfs= names it: in the jail, its bind mount
 * under the stage; outside, the host path relative to the guest's folder
 * STAGE/gN (as many .. as it is deep), which hostfs joins to its prefix.
 */
static char *mount_source(const struct guest_spec *g, size_t i)
{
	struct strbuf sb = { 0 };
	_cleanup_free_ char *gdir = NULL;

	if (g->stage->confine.mount_ns)
		return xasprintf(CONFINE_JAIL_MOUNTS "/%zu", i);
	gdir = xasprintf("%s/g%d", g->stage->dir, g->index);
	for (const char *p = gdir; *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			sb_adds(&sb, "../");
	sb_adds(&sb, g->stage->mounts[i].host + 1);
	return sb_detach(&sb);
}

char **guest_cmdline(const struct guest_spec *g, struct uerr *e)
{
	const char *dir = g->stage->dir;
	char **v = NULL;
	size_t n = 0;

	strv_push(&v, &n, xasprintf("%s/linux", dir));
	strv_push(&v, &n, xasprintf("mem=%s", g->mem ? g->mem : GUEST_MEM_DEFAULT));
	{
		_cleanup_free_ char *id = guest_umid(g);

		strv_push(&v, &n, xasprintf("umid=%s", id));
	}
	/*
	 * Every host path is the same in every run and every slot, so that
	 * what the guest sees of the line (/proc/cmdline, the kernel's log,
	 * cmdline.txt) carries no temporary folder name: in a jail the stage
	 * is always CONFINE_JAIL_STAGE; outside one, linux starts in STAGE/gN
	 * and names the rest relative to it (root and suite one folder up;
	 * hostfs cannot take a symbolic link as its root), except on kernels
	 * whose hostfs needs absolute paths (stage.hostfs_absolute).
	 */
	strv_push(&v, &n, xstrdup("uml_dir=uml"));
	if (g->stage->confine.mount_ns)
		strv_push(&v, &n, xstrdup("hostfs=" CONFINE_JAIL_STAGE));
	else if (g->stage->hostfs_absolute)
		strv_push(&v, &n, xasprintf("hostfs=%s/g%d", dir, g->index));
	else
		strv_push(&v, &n, xstrdup("hostfs=."));
	strv_push(&v, &n, xstrdup("root=/dev/root"));
	strv_push(&v, &n, xstrdup("rootfstype=hostfs"));
	strv_push(&v, &n,
		  xstrdup(g->stage->confine.mount_ns ? "rootflags=root" : "rootflags=../root"));
	strv_push(&v, &n, xstrdup("ro"));
	strv_push(&v, &n, xstrdup("init=/init"));
	switch (g->mode) {
	case TT_OFF:
		break;
	case TT_BASIC:
		strv_push(&v, &n, xstrdup("time-travel"));
		break;
	case TT_INF_CPU:
		strv_push(&v, &n, xstrdup("time-travel=inf-cpu"));
		break;
	}
	if (g->has_start && g->mode != TT_OFF)
		strv_push(&v, &n, xasprintf("time-travel-start=%" PRIu64, g->start_kernel));
	if (g->stage->seccomp)
		strv_push(&v, &n, xstrdup("seccomp=on"));
	/* The cost's jitter draws from the guest's seed: --seeds explores both. */
	if (g->stage->cpu_cost_ns && g->mode == TT_INF_CPU)
		strv_push(&v, &n,
			  xasprintf("uml-syscall-cost=%ld,%d,%" PRIu64, g->stage->cpu_cost_ns,
				    g->stage->cpu_cost_jitter, g->random_seed));
	/*
	 * The wall-clock stall breaker (docs/timers.md) needs no word here:
	 * a kernel with it arms it under inf-cpu by itself (20 s of wall time
	 * without progress), because every word of the command line seeds the
	 * guest's random pool and so moves the suites' simulated times.
	 */
	/* A panic ends the guest at once rather than waiting to reboot. */
	strv_push(&v, &n, xstrdup("panic=-1"));
	strv_push(&v, &n, xstrdup("con=null"));
	strv_push(&v, &n, xstrdup(g->shell ? "con0=fd:0,fd:1" : "con0=null,fd:1"));
	strv_push(&v, &n, xstrdup("ssl=null"));
	/* Output only (the guest never reads them): pipes, see supervise.c. */
	strv_push(&v, &n, xstrdup("ssl0=null,fd:3"));
	strv_push(&v, &n, xstrdup("ssl1=null,fd:4"));
	strv_push(&v, &n, xstrdup("ssl2=null,fd:5"));
	/* --gdb-guest: gdbserver's line, both ways (gdbserver.h). */
	if (g->gdbserver_master)
		strv_push(&v, &n, xasprintf("ssl3=fd:%d", GDBSERVER_FD));
	/* Tests create the radios they need over netlink. */
	strv_push(&v, &n, xstrdup("mac80211_hwsim.radios=0"));
	strv_push(&v, &n, xasprintf("umlrun.mode=%s", tt_mode_name(g->mode)));
	if (g->has_start)
		strv_push(&v, &n, xasprintf("umlrun.start=%" PRId64, g->start_secs));
	/* Relative to the hostfs= prefix: the jail's stage, or the guest's folder. */
	strv_push(
	    &v, &n,
	    xstrdup(g->stage->confine.mount_ns ? "umlrun.suite=suite" : "umlrun.suite=../suite"));
	strv_push(&v, &n,
		  xstrdup(g->stage->confine.mount_ns ? "umlrun.results=guest/results"
						     : "umlrun.results=results"));
	strv_push(&v, &n, xasprintf("umlrun.timeout=%ld", g->sim_timeout));
	if (g->try > 1)
		strv_push(&v, &n, xasprintf("umlrun.try=%d", g->try));
	strv_push(&v, &n, xasprintf("umlrun.seed=%" PRIu64, g->random_seed));
	if (g->harness)
		/* Quoted: the options are separated by spaces. */
		strv_push(&v, &n, xasprintf("umlrun.harness=\"%s\"", g->harness));
	for (size_t i = 0; i < g->stage->nmounts; i++) {
		const struct confine_mount *m = &g->stage->mounts[i];
		_cleanup_free_ char *src = mount_source(g, i);
		_cleanup_free_ char *src_hex = hex_of(src);
		_cleanup_free_ char *dst_hex = hex_of(m->guest);

		strv_push(
		    &v, &n,
		    xasprintf("umlrun.mount=%s,%s,%s", src_hex, dst_hex, m->rw ? "rw" : "ro"));
	}
	if (g->trace_event || g->kprobe_event) {
		/*
		 * Timestamps from the monotonic clock: simulated time (trace.h).
		 * Pointers as they are: hashed with a key drawn at boot, they
		 * would differ from run to run, and gdb shows them unhashed.
		 */
		strv_push(&v, &n, xstrdup("no_hash_pointers"));
		strv_push(&v, &n, xstrdup("trace_clock=mono"));
		if (g->trace_event)
			strv_push(&v, &n, xasprintf("trace_event=%s", g->trace_event));
		if (g->kprobe_event)
			strv_push(&v, &n, xasprintf("kprobe_event=%s", g->kprobe_event));
		strv_push(&v, &n, xstrdup("umlrun.trace=1"));
	}
	if (g->test)
		strv_push(&v, &n, xasprintf("umlrun.test=%s", g->test));
	if (g->test && g->test_shell)
		strv_push(&v, &n, xasprintf("umlrun.sh=%s", g->test_shell));
	if (g->shell)
		strv_push(&v, &n, xstrdup("umlrun.shell=1"));
	if (g->argv) {
		char *hex = argv_hex(g->argv);

		if (strlen(hex) > ARGV_HEX_MAX) {
			free(hex);
			strv_free(v);
			uerr_set(e, EXIT_USAGE,
				 "the command is too long for the kernel command "
				 "line (at most %d bytes, counting one per argument); put it in a "
				 "script under "
				 "testsuites/ and run that",
				 ARGV_HEX_MAX / 2);
			return NULL;
		}
		strv_push(&v, &n, xasprintf("umlrun.argv=%s", hex));
		free(hex);
	}
	if (g->extra && *g->extra) {
		_cleanup_free_ char *copy = xstrdup(g->extra);

		for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t"))
			strv_push(&v, &n, xstrdup(tok));
	}
	return v;
}

/* What the last failed copy said (cp's first line), for the error message. */
static char copy_error[256];

/* cp -a, or cp -al for hard links; a failure is the caller's to report. */
static int copy_tree(const char *from, const char *to, bool link)
{
	char *argv[] = { "cp", link ? "-al" : "-a", (char *)from, (char *)to, NULL };
	_cleanup_close_ int fd = memfd_create("cp", MFD_CLOEXEC);
	int st = run_argv(argv, fd);
	ssize_t n;

	copy_error[0] = '\0';
	if (st == 0)
		return 0;
	if (fd >= 0 && (n = pread(fd, copy_error, sizeof(copy_error) - 1, 0)) > 0) {
		char *end;

		copy_error[n] = '\0';
		end = copy_error + strcspn(copy_error, "\n");
		*end = '\0';
	}
	return -1;
}

/* Checked as that user: every folder above the stage must let it through. */
static bool guest_user_can_run(const struct stage *s, const char *path)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setgid(s->gid) < 0 || setuid(s->uid) < 0)
			_exit(1);
		_exit(access(path, X_OK) == 0 ? 0 : 1);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Whether the umlrun that made stage (BASE/umlrun.XXXXXX) is gone for sure. */
static bool stage_owner_gone(const char *stage)
{
	_cleanup_free_ char *owner = xasprintf("%s/owner", stage);
	_cleanup_free_ char *text = NULL;

	return read_file(owner, &text, NULL) == 0 && owner_gone(text);
}

/*
 * A guest whose umlrun was SIGKILLed: without a PID namespace (not root)
 * UML's helper processes, children of linux, outlive it. Any process of
 * this user still running a stage's linux whose umlrun is gone is killed.
 */
static void kill_orphan_guests(const char *base)
{
	_cleanup_free_ char *real = realpath(base, NULL);
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d || !real) {
		if (d)
			closedir(d);
		return;
	}
	while ((de = readdir(d))) {
		_cleanup_free_ char *proc = NULL;
		_cleanup_free_ char *exe = NULL;
		_cleanup_free_ char *stage = NULL;
		char target[PATH_MAX];
		struct stat st;
		ssize_t n;
		size_t rl = strlen(real);

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		proc = xasprintf("/proc/%s", de->d_name);
		exe = xasprintf("/proc/%s/exe", de->d_name);
		if (stat(proc, &st) < 0 || st.st_uid != geteuid())
			continue;
		n = readlink(exe, target, sizeof(target) - 1);
		if (n < (ssize_t)(rl + 20))
			continue;
		target[n] = '\0';
		/* BASE/umlrun.XXXXXX/linux, or that with " (deleted)" */
		if (strncmp(target, real, rl) || strncmp(target + rl, "/umlrun.", 8) ||
		    strncmp(target + rl + 14, "/linux", 6) ||
		    (target[rl + 20] && strcmp(target + rl + 20, " (deleted)")))
			continue;
		stage = xstrndup(target, rl + 14);
		if (stage_owner_gone(stage))
			kill((pid_t)strtol(de->d_name, NULL, 10), SIGKILL);
	}
	closedir(d);
}

/*
 * Removes the stages of umlrun processes that no longer exist (killed with
 * SIGKILL, which no cleanup survives), and kills their guests where nothing
 * did (kill_orphan_guests). As root PID namespaces see to those, and
 * PR_SET_PDEATHSIG to linux itself.
 */
void stage_sweep(void)
{
	const char *tmpdir = getenv("TMPDIR");
	const char *base = tmpdir && *tmpdir ? tmpdir : "/tmp";
	DIR *d = opendir(base);
	struct dirent *de;

	kill_orphan_guests(base);
	if (!d)
		return;
	while ((de = readdir(d))) {
		_cleanup_free_ char *dir = NULL;
		_cleanup_free_ char *owner = NULL;
		_cleanup_free_ char *text = NULL;
		struct stat st;

		if (strncmp(de->d_name, "umlrun.", 7) || strlen(de->d_name) != 13)
			continue;
		dir = xasprintf("%s/%s", base, de->d_name);
		/*
		 * Only a folder this user made: in a shared /tmp anyone can
		 * make an umlrun.XXXXXX, with links inside, for root to walk.
		 */
		if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		owner = xasprintf("%s/owner", dir);
		if (read_file(owner, &text, NULL) < 0)
			continue;
		/* What could not go keeps its owner file, so a later sweep tries again. */
		if (owner_gone(text) && rm_rf(dir) < 0 && path_exists(dir))
			write_file_atomic(owner, text, strlen(text));
	}
	closedir(d);
}

/*
 * The suites' lib/: the project's files (harness.sh, wireless.sh), under
 * any of the suites' own, whose file of the same name wins. A lib/ that is
 * a link is left as it is: what it points to is not the stage's to write.
 */
static int add_project_lib(const char *lib, const char *suite_lib)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (lstat(suite_lib, &st) < 0)
		return copy_tree(lib, suite_lib, false);
	if (!S_ISDIR(st.st_mode))
		return 0;
	d = opendir(lib);
	if (!d)
		return -1;
	while (rc == 0 && (de = readdir(d))) {
		_cleanup_free_ char *from = NULL;
		_cleanup_free_ char *to = NULL;

		if (de->d_name[0] == '.')
			continue;
		from = xasprintf("%s/%s", lib, de->d_name);
		to = xasprintf("%s/%s", suite_lib, de->d_name);
		if (lstat(to, &st) < 0)
			rc = copy_tree(from, to, false);
	}
	closedir(d);
	return rc;
}

int stage_create(struct stage *s, const char *kernel, const char *rootfs, const char *suites,
		 const char *lib, struct uerr *e)
{
	_cleanup_free_ char *suite_lib = NULL;
	const char *tmpdir = getenv("TMPDIR");
	_cleanup_free_ char *tmpl =
	    xasprintf("%s/umlrun.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	_cleanup_free_ char *root = NULL;
	_cleanup_free_ char *suite = NULL;
	_cleanup_free_ char *linux_path = NULL;

	memset(s, 0, sizeof(*s));
	s->uid = getuid();
	s->gid = getgid();
	if (geteuid() == 0) {
		struct passwd *pw = getpwnam("nobody");
		struct group *gr = getgrnam("nogroup");

		if (!pw)
			return uerr_set(e, EXIT_INFRA,
					"running as root needs a 'nobody' user to "
					"run the guest as; none exists");
		s->uid = pw->pw_uid;
		s->gid = gr ? gr->gr_gid : pw->pw_gid;
		s->drop = true;
	}
	if (!mkdtemp(tmpl))
		return uerr_sys(e, EXIT_INFRA,
				"cannot create the run's stage in %s (set TMPDIR to a folder you "
				"can write to)",
				tmpdir && *tmpdir ? tmpdir : "/tmp");
	s->dir = xstrdup(tmpl);
	/* mkdtemp makes 0700: the guest's user must be able to traverse it. */
	if (chmod(s->dir, 0755) < 0)
		goto fail;
	{
		/* Whose it is, so a later umlrun can sweep it if this one is SIGKILLed. */
		_cleanup_free_ char *owner = xasprintf("%s/owner", s->dir);
		_cleanup_free_ char *pid = owner_text();

		if (write_file_atomic(owner, pid, strlen(pid)) < 0)
			goto fail;
	}
	root = xasprintf("%s/root", s->dir);
	suite = xasprintf("%s/suite", s->dir);
	linux_path = xasprintf("%s/linux", s->dir);
	/* Hard links cost nothing; fall back to copies across file systems. */
	if (link(kernel, linux_path) < 0 && copy_tree(kernel, linux_path, false) < 0)
		goto fail;
	/*
	 * A failed cp -al (another file system, a read-only cache) leaves a
	 * partial tree, and cp -a into an existing folder would nest the copy
	 * inside it: start the copy afresh.
	 */
	if (copy_tree(rootfs, root, true) < 0 && (rm_rf(root), copy_tree(rootfs, root, false) < 0))
		goto fail;
	if (copy_tree(suites, suite, false) < 0 || chmod(suite, 0755) < 0)
		goto fail;
	suite_lib = xasprintf("%s/lib", suite);
	if (add_project_lib(lib, suite_lib) < 0)
		goto fail;
	{
		_cleanup_free_ char *jail = xasprintf("%s/jail", s->dir);

		if (mkdir(jail, 0755) < 0)
			goto fail;
	}
	if (s->drop && !guest_user_can_run(s, linux_path)) {
		uerr_set(
		    e, EXIT_INFRA,
		    "the guest runs as an unprivileged user who cannot reach %s; set TMPDIR to "
		    "a folder every user can traverse (e.g. /tmp)",
		    linux_path);
		stage_destroy(s);
		return -1;
	}
	if (confine_plan_make(&s->confine, kernel, s->drop, e) < 0) {
		stage_destroy(s);
		return -1;
	}
	return 0;
fail:
	if (copy_error[0]) /* cp's own words name the cause (No space left...) */
		uerr_set(e, EXIT_INFRA, "cannot prepare the guest's folder %s: %s", s->dir,
			 copy_error);
	else
		uerr_sys(e, EXIT_INFRA, "cannot prepare the guest's folder %s", s->dir);
	stage_destroy(s);
	return -1;
}

/*
 * What overlay.sh said: its progress ("overlay: added LIB, which BIN
 * needs") goes on to stderr as it comes; its last other "overlay: " line
 * is why it failed, and a tool's line (cp's) what lay behind it. They
 * become umlrun's one line, not a second one above it.
 */
struct overlay_said {
	char why[512];
	char tool[512];
	char ***libs;	/* the host libraries added, appended */
	FILE *progress; /* where its progress goes, or NULL */
};

static void overlay_line(void *ctx, const char *line)
{
	struct overlay_said *o = ctx;
	const char *which = strstr(line, ", which ");

	if (!strncmp(line, "overlay: added ", 15)) {
		size_t n = 0;

		if (o->progress)
			fprintf(o->progress, "%s\n", line);
		while (o->libs && *o->libs && (*o->libs)[n])
			n++;
		if (o->libs && which) {
			*o->libs = xrealloc(*o->libs, (n + 2) * sizeof(char *));
			(*o->libs)[n] = xstrndup(line + 15, (size_t)(which - line - 15));
			(*o->libs)[n + 1] = NULL;
		}
	} else if (!strncmp(line, "overlay: ", 9))
		snprintf(o->why, sizeof(o->why), "%s", line + 9);
	else if (*line)
		snprintf(o->tool, sizeof(o->tool), "%s", line);
}

int stage_overlay(const struct stage *s, const char *script, const char *dir, char ***libs,
		  FILE *progress, struct uerr *e)
{
	_cleanup_free_ char *root = xasprintf("%s/root", s->dir);
	char *argv[] = { "sh", (char *)script, root, (char *)dir, NULL };
	struct overlay_said said = { "", "", libs, progress };
	struct run_watch w = { .on_line = overlay_line, .ctx = &said };
	int st = run_argv_watched(argv, -1, &w);

	if (st == 0)
		return 0;
	if (!said.why[0])
		snprintf(said.why, sizeof(said.why), "rootfs/overlay.sh failed (%s)",
			 st < 0 ? strerror(-st) : "it gave no reason");
	/* Exit 2: the overlay itself is refused (a link out of the root). */
	if (st > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2)
		return uerr_set(e, EXIT_USAGE, "--overlay=%s: refused: %s", dir, said.why);
	return uerr_set(e, EXIT_INFRA,
			"--overlay=%s: cannot lay it over the guest's root: %s%s%s%s", dir,
			said.why, said.tool[0] ? " (" : "", said.tool, said.tool[0] ? ")" : "");
}

/*
 * --mount=HOST[:GUEST][:rw], the form, before guest_mount_parse splits it:
 * it splits at the first ':', so a path holding one would be cut in two
 * (HOST) or kept whole (GUEST: "/data:rx" would become a mount point);
 * neither may. ":ro", the default, is taken too.
 */
static int mount_form_check(const char *spec, struct uerr *e)
{
	const char *c1 = strchr(spec, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *mode = c2 ? c2 + 1 : c1 ? c1 + 1 : NULL;
	bool has_mode = mode && (!strcmp(mode, "rw") || !strcmp(mode, "ro"));

	if (!*spec || spec == c1)
		return uerr_set(e, EXIT_USAGE,
				"--mount=%s: no HOST folder; want HOST[:GUEST][:rw], e.g. "
				"--mount=$HOME/proj:/src",
				spec);
	if (c2 && strchr(c2 + 1, ':'))
		return uerr_set(e, EXIT_USAGE,
				"--mount=%s: too many ':'; want HOST[:GUEST][:rw], and neither "
				"path may hold ':'",
				spec);
	if (c2 && !has_mode)
		return uerr_set(e, EXIT_USAGE,
				"--mount=%s: want HOST[:GUEST][:rw]: after GUEST only rw may "
				"follow, not '%s' (and GUEST may not hold ':')",
				spec, mode);
	return 0;
}

/*
 * Whether path (resolved) is dir or below it, by name or by the folders
 * themselves: a bind mount of dir elsewhere is dir all the same.
 */
static bool below_or_same(const char *path, const char *dir)
{
	_cleanup_free_ char *p = xstrdup(path);
	struct stat d, st;

	if (path_within(path, dir))
		return true;
	if (stat(dir, &d) < 0)
		return false;
	for (;;) {
		char *slash;

		if (stat(p, &st) == 0 && st.st_dev == d.st_dev && st.st_ino == d.st_ino)
			return true;
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			return false;
		*slash = '\0';
	}
}

/* A mountinfo field as the kernel escapes it (\040 a blank), in place. */
static void mountinfo_unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

struct mount_entry {
	unsigned major, minor;
	char root[PATH_MAX], point[PATH_MAX];
	char fstype[64]; /* after the " - " that ends the optional fields */
};

static bool mountinfo_next(FILE *f, struct mount_entry *m)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) > 0) {
		char root[PATH_MAX], point[PATH_MAX];
		const char *sep = strstr(line, " - ");

		if (sscanf(line, "%*u %*u %u:%u %4095s %4095s", &m->major, &m->minor, root,
			   point) != 4)
			continue;
		mountinfo_unescape(root);
		mountinfo_unescape(point);
		memcpy(m->root, root, sizeof(root));
		memcpy(m->point, point, sizeof(point));
		if (!sep || sscanf(sep + 3, "%63s", m->fstype) != 1)
			m->fstype[0] = '\0';
		return true;
	}
	return false;
}

/*
 * The host kernel's own file systems: its processes (/proc/PID/root is
 * every process's /, the host's among them, one path away; /proc/PID/fd
 * their open files), its devices, its settings and controls. No guest may
 * see one through hostfs, whatever the confinement: a mount namespace does
 * not hide what /proc's magic links reach. By statfs's f_type and by
 * mountinfo's type (devtmpfs shows tmpfs's f_type).
 */
static const struct {
	unsigned long magic; /* 0: known by its name only */
	const char *name;
} pseudo_fs[] = {
	{ 0x9fa0, "proc" },	      { 0x62656572, "sysfs" },	     { 0, "devtmpfs" },
	{ 0x1cd1, "devpts" },	      { 0x27e0eb, "cgroup" },	     { 0x63677270, "cgroup2" },
	{ 0x64626720, "debugfs" },    { 0x74726163, "tracefs" },     { 0xcafe4a11, "bpf" },
	{ 0x73636673, "securityfs" }, { 0x6165676c, "pstore" },	     { 0x62656570, "configfs" },
	{ 0x65735543, "fusectl" },    { 0x19800202, "mqueue" },	     { 0x958458f6, "hugetlbfs" },
	{ 0xde5e81e4, "efivarfs" },   { 0x42494e4d, "binfmt_misc" }, { 0x6e736673, "nsfs" },
	{ 0xf97cff8c, "selinuxfs" },  { 0x43415d53, "smackfs" },     { 0x67596969, "rpc_pipefs" },
};

const char *pseudo_fs_name(unsigned long magic, const char *fstype)
{
	for (size_t i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((magic && pseudo_fs[i].magic == magic) ||
		    (fstype && !strcmp(fstype, pseudo_fs[i].name)))
			return pseudo_fs[i].name;
	return NULL;
}

/*
 * The mount that holds path (the last of those on the longest mount point
 * above it: a later mount hides an earlier one), and path's own path
 * within that file system (in_fs). By mountinfo's device, not stat's:
 * btrfs gives each subvolume a device of its own.
 */
static bool mount_of(FILE *f, const char *path, struct mount_entry *best, char *in_fs, size_t size)
{
	struct mount_entry m;
	size_t blen = 0;

	rewind(f);
	while (mountinfo_next(f, &m))
		if (path_within(path, m.point) && strlen(m.point) >= blen) {
			*best = m;
			blen = strlen(m.point);
		}
	if (!blen)
		return false;
	snprintf(in_fs, size, "%s%s", strcmp(best->root, "/") ? best->root : "",
		 path + (strcmp(best->point, "/") ? blen : 0));
	if (!in_fs[0])
		snprintf(in_fs, size, "/");
	return true;
}

/*
 * Whether host shows dir through a mount, which no path name or inode of
 * host's own shows: host is a bind mount of dir's file system at or above
 * dir (or, with inside, below it: a folder of the cache bound elsewhere),
 * or a mount below host is one. By /proc/self/mountinfo: the same device,
 * and roots (paths within that file system) at, above or below each other.
 */
static bool mount_shows_in(FILE *f, const char *host, const char *dir, bool inside)
{
	struct mount_entry d = { 0 }, h = { 0 }, m;
	char din[PATH_MAX], hin[PATH_MAX];

	if (!mount_of(f, dir, &d, din, sizeof(din)))
		return false;
	if (mount_of(f, host, &h, hin, sizeof(hin)) && h.major == d.major && h.minor == d.minor &&
	    (path_within(din, hin) || (inside && path_within(hin, din))))
		return true;
	rewind(f);
	while (mountinfo_next(f, &m))
		if (path_within(m.point, host) && strcmp(m.point, host) && m.major == d.major &&
		    m.minor == d.minor && (path_within(m.root, din) || path_within(din, m.root)))
			return true;
	return false;
}

static bool mount_shows(const char *host, const char *dir, bool inside)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	bool shows;

	if (!f)
		return false;
	shows = mount_shows_in(f, host, dir, inside);
	fclose(f);
	return shows;
}

int host_mounts_check(FILE *mountinfo, const char *opt, const char *host, struct uerr *e)
{
	struct mount_entry m, held;
	char in_fs[PATH_MAX];
	const char *pseudo;
	bool below = false;

	if (mount_of(mountinfo, host, &held, in_fs, sizeof(in_fs)) &&
	    (pseudo = pseudo_fs_name(0, held.fstype)))
		return uerr_set(e, EXIT_USAGE,
				"%s: %s is on a %s file system, the host kernel's own (its "
				"processes, devices or controls), which a guest must not reach; "
				"give a folder of plain files",
				opt, host, pseudo);
	rewind(mountinfo);
	while (mountinfo_next(mountinfo, &m)) {
		if (!path_within(m.point, host) || !strcmp(m.point, host))
			continue;
		if ((pseudo = pseudo_fs_name(0, m.fstype)))
			return uerr_set(
			    e, EXIT_USAGE,
			    "%s: %s is mounted at %s, below %s: a guest would reach the "
			    "host kernel's own files (its processes, devices or "
			    "controls) through it; give a folder with no such mount "
			    "below it",
			    opt, pseudo, m.point, host);
		if (!below) {
			below = true;
			memcpy(&held, &m, sizeof(m));
		}
	}
	/*
	 * Bind mounts are not recursive: in a mount namespace the guest would
	 * see the folder below the mount instead of it, and in a user namespace
	 * the kernel refuses to hide a mount it locked (EINVAL at boot).
	 */
	if (below)
		return uerr_set(e, EXIT_USAGE,
				"%s: %s has a file system mounted below it, at %s, which a guest "
				"cannot be given with it (a guest's mounts are not recursive); "
				"--mount that folder on its own, or give a folder with no mount "
				"below it",
				opt, host, held.point);
	return 0;
}

/* host on one of the host kernel's own file systems, or with a mount below it. */
static int pseudo_mounts_check(const char *opt, const char *host, struct uerr *e)
{
	struct statfs sf;
	const char *pseudo;
	FILE *f;
	int r;

	if (statfs(host, &sf) == 0 && (pseudo = pseudo_fs_name((unsigned long)sf.f_type, NULL)))
		return uerr_set(e, EXIT_USAGE,
				"%s: %s is on a %s file system, the host kernel's own (its "
				"processes, devices or controls), which a guest must not reach; "
				"give a folder of plain files",
				opt, host, pseudo);
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return uerr_sys(
		    e, EXIT_INFRA,
		    "%s: cannot read /proc/self/mountinfo to see what is mounted below %s", opt,
		    host);
	r = host_mounts_check(f, opt, host, e);
	fclose(f);
	return r;
}

int host_folder_check(const char *opt, const char *host, struct uerr *e)
{
	const char *tmpdir = getenv("TMPDIR");
	_cleanup_free_ char *tmpbase = NULL;
	_cleanup_free_ char *cache_given = NULL;
	_cleanup_free_ char *cache = NULL;

	if (!strcmp(host, "/"))
		return uerr_set(e, EXIT_USAGE,
				"%s: not the host's whole file system; name a folder", opt);
	tmpbase = realpath(tmpdir && *tmpdir ? tmpdir : "/tmp", NULL);
	/* Resolved: XDG_CACHE_HOME may go through a link, or end in '/'. */
	cache_given = cache_root();
	cache = path_resolved(cache_given);
	if (!cache)
		cache = xstrdup(cache_given);
	/* The cache and all below it, and any folder above the stages or the cache. */
	if (below_or_same(host, cache))
		return uerr_set(e, EXIT_USAGE,
				"%s: %s is in umlrun's cache (%s), which a guest must not reach; "
				"give a folder outside it",
				opt, host, cache);
	if ((tmpbase && below_or_same(tmpbase, host)) || below_or_same(cache, host))
		return uerr_set(e, EXIT_USAGE,
				"%s: %s holds umlrun's own folders (its stages in %s, its cache "
				"%s), which a guest must not reach; give a folder below it that "
				"holds neither",
				opt, host, tmpbase ? tmpbase : "TMPDIR", cache);
	if (mount_shows(host, cache, true) || (tmpbase && mount_shows(host, tmpbase, false)))
		return uerr_set(
		    e, EXIT_USAGE,
		    "%s: a mount at or below %s shows umlrun's own folders (its stages in "
		    "%s, its cache %s), which a guest must not reach; unmount it, or "
		    "give a folder that holds no such mount",
		    opt, host, tmpbase ? tmpbase : "TMPDIR", cache);
	return pseudo_mounts_check(opt, host, e);
}

int guest_mount_parse(const char *spec, struct confine_mount *m, struct uerr *e)
{
	static const char *const own[] = { "/",	   "/suite", "/results", "/tmp", "/run",
					   "/var", "/proc",  "/sys",	 "/dev", "/usr",
					   "/bin", "/sbin",  "/lib",	 "/etc", "/init" };
	_cleanup_free_ char *copy = xstrdup(spec);
	_cleanup_free_ char *spec_opt = xasprintf("--mount=%s", spec);
	char *host = copy, *guest = NULL, *c;
	bool rw = false;

	memset(m, 0, sizeof(*m));
	if (mount_form_check(spec, e) < 0)
		return -1;
	c = strrchr(copy, ':');
	if (c && !strcmp(c, ":rw")) {
		rw = true;
		*c = '\0';
	} else if (c && !strcmp(c, ":ro")) {
		*c = '\0';
	}
	if ((c = strchr(copy, ':'))) {
		*c = '\0';
		guest = c + 1;
	}
	m->host = realpath(host, NULL);
	if (!m->host) {
		if (errno == ENOENT || errno == ENOTDIR)
			uerr_set(e, EXIT_USAGE, "--mount=%s: no such folder %s", spec, host);
		else
			uerr_sys(e, EXIT_USAGE, "--mount=%s: cannot resolve %s", spec, host);
		goto fail;
	}
	if (!is_dir(m->host)) {
		uerr_set(e, EXIT_USAGE, "--mount=%s: %s is not a folder; give a folder", spec,
			 host);
		goto fail;
	}
	if (host_folder_check(spec_opt, m->host, e) < 0)
		goto fail;
	if (!guest || !*guest)
		m->guest = xasprintf("/mnt/%s", strrchr(m->host, '/') + 1);
	else
		m->guest = xstrdup(guest);
	if (m->guest[0] != '/' || strstr(m->guest, "/./") || strstr(m->guest, "/../") ||
	    strstr(m->guest, "//") || strchr(m->guest, ',') || strchr(m->guest, ' ') ||
	    (strlen(m->guest) > 1 && m->guest[strlen(m->guest) - 1] == '/') ||
	    (strlen(m->guest) >= 3 && !strcmp(m->guest + strlen(m->guest) - 3, "/.."))) {
		uerr_set(e, EXIT_USAGE,
			 "--mount=%s: the guest path must be absolute and plain (no . or .., "
			 "spaces or commas), e.g. /src",
			 spec);
		goto fail;
	}
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		bool under = strcmp(own[i], "/") && strcmp(own[i], "/tmp") &&
			     strcmp(own[i], "/run") && strcmp(own[i], "/var") &&
			     path_within(m->guest, own[i]);

		if (!strcmp(m->guest, own[i]) || under) {
			uerr_set(e, EXIT_USAGE,
				 "--mount=%s: %s is the guest's own; mount elsewhere, e.g. /src or "
				 "/mnt/NAME",
				 spec, own[i]);
			goto fail;
		}
	}
	m->rw = rw;
	return 0;
fail:
	free(m->host);
	free(m->guest);
	memset(m, 0, sizeof(*m));
	return -1;
}

int stage_add_mount(struct stage *s, struct confine_mount *m, struct uerr *e)
{
	_cleanup_free_ char *point = xasprintf("%s/root%s", s->dir, m->guest);

	/*
	 * The mount point, in this stage's copy of the root (its folders are
	 * its own: only files are hard links into the cache). Under /tmp,
	 * /run or /var the guest's tmpfs hides it and the init makes it.
	 */
	if (mkdir_p(point, 0755) < 0 && !is_dir(point))
		return uerr_sys(e, EXIT_INFRA, "cannot create the mount point %s", point);
	s->mounts = xrealloc(s->mounts, (s->nmounts + 1) * sizeof(*s->mounts));
	s->mounts[s->nmounts++] = *m;
	memset(m, 0, sizeof(*m));
	s->confine.mounts = s->mounts;
	s->confine.nmounts = s->nmounts;
	return 0;
}

int stage_guest_dir(const struct stage *s, int index, struct uerr *e)
{
	static const char *const subs[] = { "results", "uml" };
	_cleanup_free_ char *g = xasprintf("%s/g%d", s->dir, index);

	rm_rf(g);
	if (mkdir(g, 0755) < 0)
		return uerr_sys(e, EXIT_INFRA, "cannot create %s", g);
	for (size_t i = 0; i < 2; i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", g, subs[i]);

		if (mkdir(p, i ? 0700 : 0755) < 0 || (s->drop && chown(p, s->uid, s->gid) < 0))
			return uerr_sys(e, EXIT_INFRA, "cannot create %s", p);
	}
	return 0;
}

int stage_destroy(struct stage *s)
{
	int r = 0;

	confine_plan_free(&s->confine);
	for (size_t i = 0; i < s->nmounts; i++) {
		free(s->mounts[i].host);
		free(s->mounts[i].guest);
	}
	free(s->mounts);
	s->mounts = NULL;
	s->nmounts = 0;
	if (s->dir) {
		r = rm_rf(s->dir);
		free(s->dir);
		s->dir = NULL;
	}
	return r;
}
