// SPDX-License-Identifier: MIT
/*
 * cmd_cache.c - umlrun build and umlrun prune: the kernel and root folder
 * built once and kept in the cache, and what prune removes from it (what
 * build would not use now).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "commands.h"
#include "prune.h"
#include "rootfs.h"
#include "session.h"
#include "starttime.h"

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
