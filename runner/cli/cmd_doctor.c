// SPDX-License-Identifier: MIT
/*
 * cmd_doctor.c - umlrun doctor: what this host lacks to run guests
 * (doctor.h's checks, one line each), and how to fix it; exit 3 if a
 * check failed.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands.h"
#include "doctor.h"
#include "session.h"

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
