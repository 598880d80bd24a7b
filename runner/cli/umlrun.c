// SPDX-License-Identifier: MIT
/*
 * umlrun.c - the command layer: parse, dispatch, print, exit.
 *
 * Every command is a short list of phases (find the project, make sure the
 * kernel and root folder are built, boot, supervise, report); the work is
 * in the modules. This is the only file that prints errors or exits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "session.h"
#include "selection.h"
#include "finish.h"
#include "cmd_run.h"
#include "commands.h"
#include "doctor.h"
#include "gdb.h"
#include "gdbserver.h"
#include "html.h"
#include "kernel_cache.h"
#include "kselftest.h"
#include "hostap_build.h"
#include "hwsim.h"
#include "hwsim_pyc.h"
#include "kunit.h"
#include "kunit_json.h"
#include "ktap.h"
#include "options.h"
#include "overlay_cache.h"
#include "plain.h"
#include "profile.h"
#include "prune.h"
#include "report.h"
#include "results_read.h"
#include "merge.h"
#include "shard.h"
#include "rootfs.h"
#include "starttime.h"
#include "suite.h"
#include "sched.h"
#include "supervise.h"
#include "trace.h"

/* ---- merge -------------------------------------------------------- */

int cmd_merge(const struct opts *o)
{
	struct uerr e;

	struct loaded_run merged;
	int code;

	/* A signal stops the merge between two test folders, its half-made folder gone. */
	supervise_block_signals();
	if (merge_runs(o->args, (size_t)o->nargs, o->output, &e) < 0 ||
	    results_load(o->output, &merged, &e) < 0)
		uerr_die(&e);
	printf("# merged %d shard runs into %s: %zu test files\n", o->nargs, o->output, merged.n);
	/* The merged run's verdict, so a CI merge job fails when a shard did. */
	code = merged.info.exit_code;
	results_free(&merged);
	return code;
}

/* ---- build, list, help --------------------------------------------- */

int cmd_build(const struct opts *o)
{
	struct session s = { .o = o };

	find_project(&s);
	prepare_kernel(&s);
	prepare_rootfs(&s);
	printf("kernel: %s (%s %s; time-travel-start= in %s%s)\nrootfs: %s\n", s.kernel.binary,
	       s.kernel.release, s.kernel.built ? "built" : "cached",
	       start_unit_name(s.kernel.start_unit),
	       s.kernel.has_seccomp ? "; seccomp userspace" : "", s.rootfs);
	session_end(&s);
	return EXIT_PASS;
}

/* prune: keep what build would use now, remove the rest. */
int cmd_prune(const struct opts *o)
{
	struct session s = { .o = o };
	_cleanup_free_ char *config_dir = NULL;
	_cleanup_free_ char *cache = cache_root();
	_cleanup_free_ char *kdir = NULL;
	_cleanup_free_ char *rdir = NULL;
	struct kernel_opts ko;
	const char *keep[2];
	struct prune_opts po;
	struct uerr e;

	find_project(&s);
	config_dir = xasprintf("%s/uml-config", s.project);
	ko = kernel_opts_of(&s, config_dir);
	ko.fetch_script = NULL; /* prune never downloads a kernel source */
	if (kernel_locate(&ko, &kdir, &e) < 0 ||
	    rootfs_locate(s.project, s.guestbin, NULL, &rdir, &e) < 0)
		uerr_die(&e);
	keep[0] = kdir;
	keep[1] = rdir;
	po = (struct prune_opts){ cache, keep, 2, time(NULL), o->dry_run };
	if (cache_prune(&po, stdout, &e) < 0)
		uerr_die(&e);
	session_end(&s);
	return EXIT_PASS;
}

/* doctor: the host checks (doctor.h), one line each; exit 3 if one failed. */
int cmd_doctor(const struct opts *o)
{
	struct session s = { .o = o };
	const char *packages = getenv("UMLRUN_PACKAGES");
	_cleanup_free_ char *own_packages = NULL;
	_cleanup_free_ char *config_dir = NULL;
	_cleanup_free_ char *cache = cache_path();
	_cleanup_free_ char *cache_error = cache_problem(cache);
	_cleanup_free_ char *sources = NULL;
	_cleanup_free_ char *kdir = NULL;
	struct passwd *pw = getpwnam("nobody");
	struct group *gr = getgrnam("nogroup");
	struct doctor_input in;
	struct doctor_report r;
	struct kernel_opts ko;
	struct uerr e = { 0 };
	char unfetched[256] = "";
	int code;

	find_project(&s);
	own_packages = xasprintf("%s/debian-packages", s.project);
	sources = xasprintf("%s/runner", s.project);
	config_dir = xasprintf("%s/uml-config", s.project);
	ko = kernel_opts_of(&s, config_dir);
	/* Checking must not download a kernel source (160 MB). */
	ko.fetch_script = NULL;
	if (!o->kernel_src && ko.version && !path_exists(ko.tarball))
		snprintf(unfetched, sizeof(unfetched),
			 "not built, and its source not here yet: the first build fetches "
			 "linux-source-%s from Debian (about 160 MB), or 'umlrun build%s%s' now",
			 ko.version->name, o->kernel ? " --kernel=" : "",
			 o->kernel ? o->kernel : "");
	in = (struct doctor_input){
		.packages_file = packages && *packages ? packages : own_packages,
		.tmpdir = getenv("TMPDIR"),
		.cache_dir = cache,
		.cache_error = cache_error,
		.kernel_name = o->kernel_src ? o->kernel_src
			       : o->kernel   ? o->kernel
					     : KERNEL_DEFAULT,
		.kernel_dir =
		    !*unfetched && !cache_error && kernel_locate(&ko, &kdir, &e) == 0 ? kdir : NULL,
		.kernel_error = *unfetched ? unfetched : e.msg,
		/* Installed, umlrun is built already: its build packages do not count. */
		.checkout = is_dir(sources),
		/* As root the guest runs as nobody (boot.c). */
		.as_root = geteuid() == 0 && pw && gr,
		.guest_uid = pw ? pw->pw_uid : 0,
		.guest_gid = gr ? gr->gr_gid : 0,
	};
	doctor_run(&in, &r);
	for (size_t i = 0; i < r.n; i++)
		printf("%s %s%s%s\n", doctor_level_name(r.v[i].level), r.v[i].what,
		       r.v[i].detail ? ": " : "", r.v[i].detail ? r.v[i].detail : "");
	code = doctor_exit_code(&r);
	doctor_report_free(&r);
	session_end(&s);
	return code;
}

int cmd_help(const struct opts *o)
{
	enum command c = o->nargs ? command_lookup(o->args[0]) : CMD_NONE;

	if (o->nargs && c == CMD_NONE)
		die(EXIT_USAGE, "unknown command '%s'; see 'umlrun --help'", o->args[0]);
	fputs(command_usage(c), stdout);
	return EXIT_PASS;
}

/* The handler of every command, from the one list (options.h). */
#define DISPATCH(id, name) [CMD_##id] = cmd_##name,
static int (*const dispatch[CMD_COUNT])(const struct opts *o) = { UMLRUN_COMMANDS(DISPATCH) };
#undef DISPATCH
/*
 * What went to stdout through stdio (doctor's checks, prune's list, the
 * help) must have reached it: a command that passed but could not say so
 * (>/dev/full, >&-) exits 3. A failing one keeps its own status.
 */
static int stdout_written(int code)
{
	errno = 0;
	if (code == EXIT_PASS && (fflush(stdout) != 0 || ferror(stdout))) {
		/* Its reader gone (| head): what the shell says of a writer SIGPIPE ends. */
		if (errno == EPIPE)
			return EXIT_SIGNAL_BASE + SIGPIPE;
		note("cannot write to stdout: %s", strerror(errno ? errno : EIO));
		return EXIT_INFRA;
	}
	return code;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct uerr e;

	std_fds_fill();
	stderr_queue_init();
	/*
	 * What umlrun makes (the cache, the stage) must be readable by the
	 * guest's user (nobody, when umlrun is root): a umask of 077 made
	 * every guest fail, and a root folder assembled under it stayed so.
	 * The umask's write bits stay.
	 */
	{
		mode_t mask = umask(0);

		umask(mask & 022);
	}
	if (opts_parse(argc, argv, &o, &e) < 0)
		uerr_die(&e);
	if (o.help) {
		fputs(command_usage(o.cmd), stdout);
		return stdout_written(EXIT_PASS);
	}
	if (o.cmd > CMD_NONE && o.cmd < CMD_COUNT)
		return stdout_written(dispatch[o.cmd](&o));
	die(EXIT_USAGE, "unknown command; see 'umlrun --help'");
}
