// SPDX-License-Identifier: MIT
/*
 * session.c - what every command finds or builds before its guests boot,
 * and releases in one place: the project's files, the kernel, the root
 * folder, the stage, the inputs checked before anything is built (see
 * session.h). Part of the command layer: it prints and exits.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "finish.h"
#include "finish.h"
#include "gdb.h"
#include "overlay_cache.h"
#include "profile.h"
#include "rootfs.h"
#include "session.h"
#include "starttime.h"
#include "trace.h"

#ifndef UMLRUN_DATADIR
#define UMLRUN_DATADIR "/usr/local/share/umlrun"
#endif

void find_project(struct session *s)
{
	const char *env = getenv("UMLRUN_HOME");
	char exe[4096];
	ssize_t n;

	if (env && *env) {
		s->project = xstrdup(env);
	} else if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0) {
		_cleanup_free_ char *cand = NULL;

		exe[n] = '\0';
		/* build/umlrun in a checkout: the project is build/.. */
		const char *bindir = dirname(exe); /* glibc's cuts exe in place */

		cand = xasprintf("%s/../uml-config", bindir);
		s->project = is_dir(cand) ? xasprintf("%s/..", bindir) : xstrdup(UMLRUN_DATADIR);
	} else {
		s->project = xstrdup(UMLRUN_DATADIR);
	}
	{
		char *real = realpath(s->project, NULL);

		if (!real)
			die(EXIT_INFRA, "cannot find umlrun's files in %s; set UMLRUN_HOME",
			    s->project);
		free(s->project);
		s->project = real;
	}
	s->guestbin = xasprintf("%s/build/guest", s->project);
}

/*
 * Debian's tarball of linux-source-VERSION: the installed package's, else
 * where umlrun keeps the one it fetches.
 */
static char *kernel_tarball_path(const struct kernel_version *v)
{
	char *installed = xasprintf("/usr/src/linux-source-%s.tar.xz", v->name);
	_cleanup_free_ char *root = NULL;

	char *fetched, *real;

	if (path_exists(installed))
		return installed;
	free(installed);
	/* Unchecked: doctor reports a cache it must not use; the rest exit at cache_root. */
	root = cache_path();
	fetched =
	    xasprintf("%s/sources/linux-source-%s.tar.xz", root ? root : "/nonexistent", v->name);
	/* The kernel's key names the tarball: the same file, the same name. */
	real = realpath(fetched, NULL);
	if (!real)
		return fetched;
	free(fetched);
	return real;
}

/* The kernel build's progress (kernel_opts.say), on stderr. */
void say_progress(void *ctx, bool transient, const char *text)
{
	_cleanup_free_ char *line = NULL;

	(void)ctx;
	if (!text)
		line = xstrdup("\r\033[K");
	else if (transient)
		line = xasprintf("\r\033[K%s: %s", prog_name, text);
	else
		line = xasprintf("%s: %s\n", prog_name, text);
	stderr_add(line, strlen(line));
}

/* The kernel the options select; config_dir is the project's uml-config/. */
struct kernel_opts kernel_opts_of(struct session *s, const char *config_dir)
{
	const struct opts *o = s->o;
	const char *env = getenv("UMLRUN_KERNEL_TARBALL");
	const struct kernel_version *v = kernel_version_find(o->kernel	   ? o->kernel
							     : s->fallback ? KERNEL_FALLBACK
									   : KERNEL_DEFAULT);

	const struct profile *profile = o->profile ? profile_find(o->profile) : NULL;

	free(s->tarball);
	free(s->fetch_script);
	free(s->profile_fragment);
	s->tarball = env && *env ? xstrdup(env) : kernel_tarball_path(v);
	s->fetch_script = xasprintf("%s/fetch-source.sh", config_dir);
	s->profile_fragment =
	    profile ? xasprintf("%s/profiles/%s.config", config_dir, profile->name) : NULL;
	return (struct kernel_opts){
		.src = o->kernel_src,
		.tarball = s->tarball,
		/* The variable names a tarball of the user's: never fetch over it. */
		.version = env && *env ? NULL : v,
		.series = v ? v->name : NULL,
		.fetch_script = s->fetch_script,
		.fragments = o->configs,
		.nfragments = o->nconfigs,
		.profile = s->profile_fragment,
		.keep_gcno = profile && profile->gcov,
		.config_dir = config_dir,
		.time_travel_only = s->kunit_kernel,
		.jobs = o->make_jobs ? o->make_jobs : cpus_usable(),
		.progress = isatty(2),
		.say = say_progress,
	};
}

/*
 * --trace-event, --kprobe-event: the kernel's boot parameters, once the
 * kernel is known to be able to take them (trace.h).
 */
static void prepare_tracing(struct session *s)
{
	const struct opts *o = s->o;
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char *config = NULL;
	struct uerr e;

	if (!o->ntrace_events && !o->nkprobe_events)
		return;
	path = xasprintf("%s/config", s->kernel.dir);
	if (read_file(path, &config, NULL) < 0)
		die_sys(EXIT_INFRA, "cannot read %s", path);
	if (trace_check_kernel(config, s->kernel.release, o->ntrace_events > 0,
			       o->nkprobe_events > 0, &e) < 0)
		uerr_die(&e);
	s->trace_event = trace_event_param(o->trace_events, o->ntrace_events);
	s->kprobe_event = kprobe_event_param(o->kprobe_events, o->nkprobe_events);
}

void prepare_kernel(struct session *s)
{
	_cleanup_free_ char *config_dir = xasprintf("%s/uml-config", s->project);
	struct kernel_opts ko = kernel_opts_of(s, config_dir);
	struct uerr e;

	if (s->kernel.binary) /* kselftest found it first */
		return;
	if (kernel_ensure(&ko, &s->kernel, &e) == 0) {
		prepare_tracing(s);
		return;
	}
	/*
	 * The default kernel's source comes from Debian's archive, where a
	 * version can go away: without --kernel, a source that cannot be had
	 * falls back to KERNEL_FALLBACK, which ./run-tests.sh installs.
	 */
	if (s->o->kernel || s->o->kernel_src || getenv("UMLRUN_KERNEL_TARBALL") ||
	    path_exists(ko.tarball) || !strcmp(KERNEL_DEFAULT, KERNEL_FALLBACK))
		uerr_die(&e);
	warn("%s; using Linux " KERNEL_FALLBACK " instead (slower: no seccomp userspace)", e.msg);
	s->fallback = true;
	ko = kernel_opts_of(s, config_dir);
	if (kernel_ensure(&ko, &s->kernel, &e) < 0)
		uerr_die(&e);
	prepare_tracing(s);
}

void prepare_rootfs(struct session *s)
{
	struct uerr e;

	if (rootfs_ensure(s->project, s->guestbin, s->manifest_extras, &s->rootfs, say_progress,
			  NULL, &e) < 0)
		uerr_die(&e);
}

void resolve_start(struct session *s)
{
	const struct opts *o = s->o;
	struct uerr e;

	if (o->mode == TT_OFF && o->start)
		die(EXIT_USAGE, "--start needs time travel: the kernel sets the guest clock "
				"only with --time-travel=basic or inf-cpu");
	/* compare runs with time travel off too: no clock to set then. */
	s->has_start = s->mode != TT_OFF;
	if (!s->has_start)
		return;
	s->start_secs = START_DEFAULT;
	if (o->start && start_parse(o->start, &s->start_secs, &e) < 0)
		uerr_die(&e);
	if (start_to_kernel(s->start_secs, s->kernel.start_unit, &s->start_kernel, &e) < 0)
		uerr_die(&e);
}

/* The generated --plain suites, removed however umlrun ends. */
static char *live_plain;

static void remove_live_plain(void)
{
	if (live_plain)
		rm_rf(live_plain);
}

/* --plain: a generated suite per folder, and the folder mounted for it. */
static void prepare_plain(struct session *s)
{
	struct uerr e;

	if (!s->o->nplains || s->plain_suites)
		return;
	if (plain_make(s->o->plains, s->o->nplains, &s->plain_suites, &s->plain, &e) < 0)
		uerr_die(&e);
	live_plain = s->plain_suites;
	atexit(remove_live_plain);
}

/* The suites to run: --plain's, --suite-dir, or the project's testsuites/. */
char *suites_dir(struct session *s)
{
	char *dir;

	prepare_plain(s);
	if (s->plain_suites)
		return xstrdup(s->plain_suites);
	if (!s->o->suite_dir)
		return xasprintf("%s/testsuites", s->project);
	dir = realpath(s->o->suite_dir, NULL);
	if (!dir)
		die(EXIT_USAGE, "--suite-dir=%s: no such folder", s->o->suite_dir);
	if (!is_dir(dir))
		die(EXIT_USAGE,
		    "--suite-dir=%s: not a folder; give the folder that holds the suite "
		    "folders",
		    s->o->suite_dir);
	return dir;
}

static void destroy_stage(struct stage *st)
{
	_cleanup_free_ char *dir = st->dir ? xstrdup(st->dir) : NULL;
	int r = stage_destroy(st);

	if (r < 0) {
		errno = -r;
		warn_sys("cannot remove %s", dir);
	}
}

/* The stage to remove however umlrun ends, die() included. */
static struct stage *live_stage;

static void remove_live_stage(void)
{
	if (live_stage)
		destroy_stage(live_stage);
}

/*
 * The guest's random seed: --random-seed=N, 0 by default, or with
 * 'random' one from the host, printed so that the run can be replayed.
 */
static void resolve_random_seed(struct session *s)
{
	const char *arg = s->o->random_seed;

	if (!arg)
		return;
	if (strcmp(arg, "random")) {
		s->random_seed = strtoull(arg, NULL, 10);
		return;
	}
	if (getrandom(&s->random_seed, sizeof(s->random_seed), 0) != sizeof(s->random_seed))
		s->random_seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
	s->random_seed &= INT64_MAX;
	note("guest random seed: %llu (replay with --random-seed=%llu)",
	     (unsigned long long)s->random_seed, (unsigned long long)s->random_seed);
}

/* --mount, checked once (before anything is built), for prepare_stage to lay. */
/*
 * A read-write --mount may not hold the results folder, or lie in it: the
 * guest could rewrite the run's reports (ktap.txt, results.json) as they
 * are written.
 */
static void check_rw_mount(const struct session *s, const char *spec, const char *host)
{
	const char *results = finish_results_dir(s->o);
	/* It may not exist yet, nor its parents: run_dir_create makes them all. */
	_cleanup_free_ char *real = path_resolved(results);

	if (!real)
		return; /* could_create refuses it */
	if (path_within(real, host) || path_within(host, real))
		die(EXIT_USAGE,
		    "--mount=%s: %s holds the results folder %s, which the guest could then "
		    "rewrite; mount it read-only, or give --results=DIR elsewhere",
		    spec, host, real);
}

static void parse_mounts(struct session *s)
{
	struct uerr e;

	if (s->mounts || !s->o->nmounts)
		return;
	s->mounts = xcalloc(s->o->nmounts, sizeof(*s->mounts));
	for (size_t i = 0; i < s->o->nmounts; i++) {
		if (guest_mount_parse(s->o->mounts[i], &s->mounts[i], &e) < 0)
			uerr_die(&e);
		if (s->mounts[i].rw && s->o->cmd != CMD_EXEC && s->o->cmd != CMD_SHELL)
			check_rw_mount(s, s->o->mounts[i], s->mounts[i].host);
	}
}

/*
 * --seccomp: UML's seccomp userspace (6.16 and later) instead of ptrace,
 * faster for every guest process. auto takes it when the kernel has it and
 * the host kernel has seccomp filters (UML's stubs install one).
 */
bool session_seccomp(const struct session *s)
{
	const char *want = s->o->seccomp ? s->o->seccomp : "auto";

	if (!strcmp(want, "off"))
		return false;
	/*
	 * gdbserver in the guest traces its program through UML's ptrace; under
	 * the seccomp userspace (7.2) the registers it reads are wrong and gdb
	 * refuses them ("Remote register badly formatted"), so --gdb-guest
	 * keeps ptrace.
	 */
	if (s->o->gdb_guest)
		return false; /* (--seccomp=on with it: refused with the options) */
	if (!s->kernel.has_seccomp) {
		if (!strcmp(want, "on"))
			die(EXIT_USAGE,
			    "--seccomp=on: kernel %s has no seccomp userspace (from 6.16; e.g. "
			    "--kernel=7.2)",
			    s->kernel.release);
		return false;
	}
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

/*
 * --cpu-cost: simulated time for each guest system call (docs/timers.md).
 * It needs inf-cpu, where computation is otherwise free, and our kernel
 * patch (uml-config/patches), which a --kernel-src tree is built without.
 */
static void plan_cpu_cost(struct session *s)
{
	if (!s->o->cpu_cost_ns)
		return;
	if (s->o->mode != TT_INF_CPU)
		die(EXIT_USAGE,
		    "--cpu-cost needs --time-travel=inf-cpu (the default): in %s mode "
		    "computation already takes real time",
		    tt_mode_name(s->o->mode));
	if (!s->kernel.has_cpu_cost)
		die(EXIT_USAGE,
		    "--cpu-cost: kernel %s lacks umlrun's uml-syscall-cost patch "
		    "(uml-config/patches; a --kernel-src tree is built without it)",
		    s->kernel.release);
	s->stage.cpu_cost_ns = s->o->cpu_cost_ns;
	s->stage.cpu_cost_jitter = s->o->cpu_cost_jitter;
	s->cpu_cost = xasprintf("%ld,jitter=%d", s->o->cpu_cost_ns, s->o->cpu_cost_jitter);
}

/*
 * --seeds outside inf-cpu: each seed still gives the guest other random
 * numbers, but the host's timing decides the rest, so a seed does not
 * replay its run and no replay command is printed (docs/timers.md).
 */
static void warn_seeds_replay(const struct session *s)
{
	if (s->o->seeds && s->o->mode != TT_INF_CPU)
		warn("--seeds under --time-travel=%s: only inf-cpu replays a seed, so no replay "
		     "command will be printed",
		     tt_mode_name(s->o->mode));
}

void doctor_hint(void)
{
	note("no guest booted: 'umlrun doctor' checks what this host must offer a guest");
}

UMLRUN_NORETURN void die_doctor(const struct uerr *e)
{
	/* A usage error (UMLRUN_CONFINE=jail) is the user's, not the host's. */
	note("%s%s", e->msg, e->code == EXIT_INFRA ? DOCTOR_HINT : "");
	exit(e->code);
}

/*
 * --overlay: the folders resolved, and the root they make laid over the
 * cached one when the overlay cache holds it (overlay_cache.h), else NULL.
 */
static char *overlays_cached(struct session *s, char key[65])
{
	_cleanup_free_ char *script = xasprintf("%s/rootfs/overlay.sh", s->project);
	struct uerr e;

	s->overlays = xcalloc(s->o->noverlays + 1, sizeof(char *));
	for (size_t i = 0; i < s->o->noverlays; i++) {
		s->overlays[i] = realpath(s->o->overlays[i], NULL);
		if (!s->overlays[i])
			die_sys(EXIT_USAGE, "--overlay=%s", s->o->overlays[i]);
	}
	if (!s->o->noverlays)
		return NULL;
	if (overlay_key(s->rootfs, script, s->overlays, s->o->noverlays, key, &e) < 0)
		uerr_die(&e);
	return overlay_cache_get(key);
}

/* Lays the overlays over the stage's root, and keeps the result for the next run. */
static void lay_overlays(struct session *s, const char *key)
{
	_cleanup_free_ char *script = xasprintf("%s/rootfs/overlay.sh", s->project);
	_cleanup_free_ char *root = xasprintf("%s/root", s->stage.dir);
	char **libs = NULL;
	struct uerr e;
	int r;

	for (size_t i = 0; i < s->o->noverlays; i++)
		if (stage_overlay(&s->stage, script, s->overlays[i], &libs, stderr, &e) < 0)
			uerr_die(&e);
	if (s->o->noverlays && (r = overlay_cache_put(key, root, libs)) < 0) {
		errno = -r;
		warn_sys(
		    "cannot keep the laid overlays in the cache (the next run lays them again)");
	}
	strv_free(libs);
}

void prepare_stage(struct session *s)
{
	_cleanup_free_ char *suites = suites_dir(s);
	_cleanup_free_ char *lib = xasprintf("%s/testsuites/lib", s->project);
	_cleanup_free_ char *laid = NULL;
	char key[65] = "";
	struct uerr e;

	bool seccomp = session_seccomp(s);

	resolve_random_seed(s);
	stage_sweep();
	laid = overlays_cached(s, key);
	if (stage_create(&s->stage, s->kernel.binary, laid ? laid : s->rootfs, suites, lib, &e) < 0)
		die_doctor(&e);
	/* From here a refusal (--cpu-cost, --mount) must not leave the stage behind. */
	live_stage = &s->stage;
	atexit(remove_live_stage);
	/* Before the mount points are made in the root: the cache keeps none of them. */
	if (!laid)
		lay_overlays(s, key);
	s->stage.seccomp = seccomp;
	s->stage.stall_wall = s->kernel.has_stall_wall;
	plan_cpu_cost(s);
	warn_seeds_replay(s);
	parse_mounts(s);
	for (size_t i = 0; i < s->o->nmounts; i++)
		if (stage_add_mount(&s->stage, &s->mounts[i], &e) < 0)
			uerr_die(&e);
	for (size_t i = 0; s->plain && i < s->o->nplains; i++) {
		struct confine_mount m = { xstrdup(s->plain[i].host),
					   xasprintf(PLAIN_GUEST "/%s", s->plain[i].name), false };

		if (stage_add_mount(&s->stage, &m, &e) < 0)
			uerr_die(&e);
	}
	s->stage.hostfs_absolute = s->kernel.version_code >= 6 * 65536 + 10 * 256;
	s->confinement = confine_describe(&s->stage.confine);
	s->host_cpu = host_cpu_describe();
	if (!strcmp(s->confinement, "none") && !s->gdb)
		warn("the guest is not confined: this host offers neither Landlock nor (as root) "
		     "mount namespaces, so a test could reach the host's files as uid %u",
		     (unsigned)s->stage.uid);
}

void session_end(struct session *s)
{
	/* The atexit handler must not touch a session whose frame is gone. */
	if (live_stage == &s->stage)
		live_stage = NULL;
	destroy_stage(&s->stage);
	kernel_release(&s->kernel);
	free(s->rootfs);
	free(s->project);
	free(s->guestbin);
	strv_free(s->overlays);
	free(s->harness);
	for (size_t i = 0; s->mounts && i < s->o->nmounts; i++) {
		free(s->mounts[i].host); /* NULL once the stage took it */
		free(s->mounts[i].guest);
	}
	free(s->mounts);
	free(s->confinement);
	free(s->host_cpu);
	free(s->cpu_cost);
	if (live_plain == s->plain_suites)
		live_plain = NULL;
	plain_free(s->plain_suites, s->plain, s->o->nplains);
	free(s->tarball);
	free(s->fetch_script);
	free(s->profile_fragment);
	free(s->trace_event);
	free(s->kprobe_event);
	free(s->gdb);
	free(s->gdb_script);
	free(s->gdb_guest);
	free(s->gdb_guest_script);
	strv_free(s->gdb_guest_sources);
}

struct guest_spec guest_for(const struct session *s, int index)
{
	return (struct guest_spec){
		.stage = &s->stage,
		.index = index,
		.mode = s->mode,
		.has_start = s->has_start,
		.start_kernel = s->start_kernel,
		.start_secs = s->start_secs,
		.mem = s->o->mem,
		.harness = s->harness,
		.random_seed = s->random_seed,
		.trace_event = s->trace_event,
		.kprobe_event = s->kprobe_event,
		.gdb = s->gdb,
		.gdb_script = s->gdb_script,
		.gcov = s->o->profile && profile_find(s->o->profile)->gcov,
	};
}

/*
 * OPT (--gdb or --gdb-guest): the host's gdb, in *gdb, and its script as
 * an absolute path in *abs, or a terminal for gdb when there is none.
 */
static void find_gdb(const char *opt, const char *script, char **gdb, char **abs)
{
	*gdb = gdb_find();
	if (!*gdb)
		die(EXIT_USAGE, "%s: gdb is not installed; install it with 'apt-get install gdb'",
		    opt);
	if (script) {
		*abs = realpath(script, NULL);
		if (!*abs)
			die_sys(EXIT_USAGE, "%s=%s", opt, script);
	} else if (!isatty(0)) {
		die(EXIT_USAGE,
		    "%s: stdin is not a terminal; give gdb's commands in a file with %s=FILE", opt,
		    opt);
	}
}

/*
 * --gdb: the host's gdb, a terminal or a script for it. gdb and the kernel
 * it debugs need the host (gdb's own files, ptrace), so the guest runs
 * unconfined, and says so: a debugging session runs a test you chose.
 */
static void check_gdb(struct session *s)
{
	const struct opts *o = s->o;

	if (!o->gdb || s->gdb)
		return;
	find_gdb("--gdb", o->gdb_script, &s->gdb, &s->gdb_script);
	setenv("UMLRUN_CONFINE", "none", 1);
	warn("--gdb: the guest runs unconfined, as gdb needs the host (docs/debugging.md)");
}

/*
 * --gdb-guest: the same, but the guest stays confined: gdb talks to
 * gdbserver over a serial line (gdbserver.h), and only gdb runs on the host.
 */
static void check_gdb_guest(struct session *s)
{
	const struct opts *o = s->o;

	if (!o->gdb_guest || s->gdb_guest)
		return;
	find_gdb("--gdb-guest", o->gdb_guest_script, &s->gdb_guest, &s->gdb_guest_script);
	s->gdb_guest_sources = xcalloc((size_t)o->ngdb_guest_sources + 1, sizeof(char *));
	for (int i = 0; i < o->ngdb_guest_sources; i++) {
		const char *dir = o->gdb_guest_sources[i];

		if (!is_dir(dir))
			die(EXIT_USAGE,
			    "--gdb-guest-source=%s: no such folder; give the folder of the "
			    "program's source files",
			    dir);
		if (!(s->gdb_guest_sources[i] = realpath(dir, NULL)))
			die_sys(EXIT_USAGE, "--gdb-guest-source=%s", dir);
	}
}

/*
 * Whether the folder dir is writable, or could be made (its nearest
 * existing ancestor a writable folder), without making it: an input
 * refused later must leave nothing behind. errno says why not.
 */
static bool could_create(const char *dir)
{
	/* Room for "." when dir is one relative name. */
	_cleanup_free_ char *p = xcalloc(strlen(dir) + 2, 1);
	struct stat st;

	if (!*dir) {
		errno = ENOENT;
		return false;
	}
	strcpy(p, dir);
	for (;;) {
		if (lstat(p, &st) == 0) {
			/* A link to nowhere cannot be made a folder. */
			if (S_ISLNK(st.st_mode) && stat(p, &st) < 0)
				return false;
			if (!S_ISDIR(st.st_mode)) {
				errno = ENOTDIR;
				return false;
			}
			if (access(p, W_OK | X_OK) < 0)
				return false;
			/* access() lets root through in /proc and the like, where mkdir fails. */
			{
				_cleanup_free_ char *probe =
				    xasprintf("%s/.umlrun-probe.XXXXXX", p);

				if (!mkdtemp(probe))
					return false;
				rmdir(probe);
				return true;
			}
		}
		if (errno != ENOENT)
			return false;
		char *slash = strrchr(p, '/');

		while (slash && slash > p && slash[1] == '\0') { /* trailing slashes */
			*slash = '\0';
			slash = strrchr(p, '/');
		}
		if (!slash)
			strcpy(p, ".");
		else if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
}

/* Before anything is built or written: the input must make sense. */
void check_inputs(struct session *s)
{
	struct uerr e;
	int64_t ignored;

	check_gdb(s);
	check_gdb_guest(s);
	if (s->o->start && s->o->mode != TT_OFF && start_parse(s->o->start, &ignored, &e) < 0)
		uerr_die(&e);
	parse_mounts(s);
	for (size_t i = 0; i < s->o->noverlays; i++)
		if (!is_dir(s->o->overlays[i]))
			die(EXIT_USAGE,
			    "--overlay=%s: no such folder; give a folder laid out like the "
			    "guest's root (e.g. DIR/usr/sbin/hostapd)",
			    s->o->overlays[i]);
	if (s->o->cmd == CMD_RUN || s->o->cmd == CMD_COMPARE || s->o->cmd == CMD_KSELFTEST ||
	    s->o->cmd == CMD_KUNIT || s->o->cmd == CMD_HWSIM) {
		const char *dir = finish_results_dir(s->o);

		if (!could_create(dir))
			die_sys(EXIT_USAGE,
				"results folder %s is not writable; give another with --results",
				dir);
	}
}
