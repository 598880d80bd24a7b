/* SPDX-License-Identifier: MIT */
/*
 * boot.h - what a guest is booted with: the staging folder it may see and
 * the exact kernel command line.
 *
 * A stage is one temporary folder per umlrun invocation, the only host
 * folder the guest is given. Guest N's linux starts in STAGE/gN with
 * hostfs=. and reaches the root and suites as ../root and ../suite, so
 * its command line is the same whatever the stage and the slot:
 *   STAGE/linux        the kernel (a hard link into the cache)
 *   STAGE/root/        the root folder (hard links into the cache), read-only
 *   STAGE/suite/       a copy of testsuites/, mounted read-only
 *   STAGE/gN/results/  guest N's artifacts, the only writable place
 *   STAGE/gN/uml/      guest N's uml_dir and TMPDIR (umid folder, memory file)
 *   STAGE/jail/        empty: as root, each guest mounts its jail here (confine.h)
 * Started as root, the guest runs as nobody:nogroup, which owns only gN/.
 * What linux can reach of all this, and nothing more, is confine.h's job.
 */
#ifndef UMLRUN_BOOT_H
#define UMLRUN_BOOT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "confine.h"
#include "util.h"

enum tt_mode {
	TT_OFF,
	TT_BASIC,
	TT_INF_CPU,
};

const char *tt_mode_name(enum tt_mode m);
int tt_mode_parse(const char *s, enum tt_mode *m);

struct stage {
	char *dir;
	uid_t uid; /* who the guest runs as */
	gid_t gid;
	bool drop; /* started as root: run the guest as uid/gid */
	struct confine_plan confine;
	/*
	 * hostfs of 6.10 and later resolves no relative host path (its
	 * statx gets -1, not AT_FDCWD): outside a jail, name the guest's
	 * folder absolutely (the command line then names the stage).
	 */
	bool hostfs_absolute;
	bool seccomp;		      /* boot with seccomp=on: UML's seccomp userspace */
	long cpu_cost_ns;	      /* uml-syscall-cost= (our kernel patch), 0 for none */
	int cpu_cost_jitter;	      /* its jitter, percent; seeded with the random seed */
	bool stall_wall;	      /* the kernel has the stall breakers (our 0007 patch) */
	struct confine_mount *mounts; /* --mount, in order (confine.plan points here) */
	size_t nmounts;
};

#define GUEST_MEM_DEFAULT "256M"

struct guest_spec {
	const struct stage *stage;
	int index; /* N of STAGE/gN */
	enum tt_mode mode;
	bool has_start;
	uint64_t start_kernel; /* time-travel-start= value, in the kernel's unit */
	int64_t start_secs;
	const char *mem;	/* e.g. "256M"; NULL: GUEST_MEM_DEFAULT */
	const char *test;	/* SUITE/tNNNN-name.sh, or NULL */
	const char *test_shell; /* what runs the test file (settings' shell=), NULL: /bin/sh */
	char *const *argv;	/* umlrun exec, or NULL */
	bool shell;
	long sim_timeout;     /* seconds of simulated time, 0 for none */
	const char *extra;    /* extra kernel parameters (settings' cmdline=) */
	int try;	      /* 1, or the retry number with --retry (UMLRUN_TRY in the guest) */
	const char *harness;  /* HARNESS_OPTIONS ("-x --run=1,3"), or NULL */
	uint64_t random_seed; /* credited to the guest's random pool (umlrun.seed=) */
	/* trace_event= and kprobe_event= (trace.h), or NULL; either saves the trace. */
	const char *trace_event;
	const char *kprobe_event;
	/* --gdb: the host's gdb to run linux under (gdb.h), and its script or NULL. */
	const char *gdb;
	const char *gdb_script;
	/* --gdb-guest: the master of gdbserver's line (gdbserver.h), 0 for none. */
	int gdbserver_master;
	bool gcov; /* --profile=gcov: linux writes its .gcda files into results/gcov */
};

/* The guest's umid: unique per umlrun process and guest. */
char *guest_umid(const struct guest_spec *g);
/* argv for exec: STAGE/linux and the parameters. NULL-terminated, malloc'd. */
char **guest_cmdline(const struct guest_spec *g, struct uerr *e);
/* The command line as one shell-readable line, for logs. */
char *strv_join(char *const *v);

/* lib: the harness to add when suites has no lib/ of its own. */
int stage_create(struct stage *s, const char *kernel, const char *rootfs, const char *suites,
		 const char *lib, struct uerr *e);
/*
 * Puts the files of dir over the staged root (--overlay), with the shared
 * libraries they need, by running script (rootfs/overlay.sh). Never writes
 * through the hard links into the cached root. The host libraries it
 * added are appended to *libs (a NULL-terminated vector; libs may be NULL)
 * and said on progress (when not NULL); why it failed is e's one line.
 */
int stage_overlay(const struct stage *s, const char *script, const char *dir, char ***libs,
		  FILE *progress, struct uerr *e);
/*
 * A host folder the guest is to see (--mount's HOST, --plain's DIR; host
 * resolved): not / and not one in or above umlrun's own folders (TMPDIR's
 * stages, the cache: the guest would reach other runs), not on a file
 * system of the host kernel's own (/proc, /sys, /dev...) and with no
 * mount below it (host_mounts_check). opt names the option in the
 * message. Exit 2 on bad input.
 */
int host_folder_check(const char *opt, const char *host, struct uerr *e);
/*
 * The mountinfo part of host_folder_check, on an open mountinfo (the
 * unit tests give their own): host may not be on one of the host
 * kernel's own file systems (proc, sysfs, devtmpfs, cgroup...: its
 * processes' roots, its devices) nor have any file system mounted below
 * it (a guest's mounts are not recursive; a pseudo one would open the
 * host). Exit 2 on a refusal.
 */
int host_mounts_check(FILE *mountinfo, const char *opt, const char *host, struct uerr *e);
/* The name of a host kernel's own file system by statfs magic or mountinfo type, or NULL. */
const char *pseudo_fs_name(unsigned long magic, const char *fstype);
/*
 * --mount=HOST[:GUEST][:rw]: HOST must be an existing folder, not / and
 * not one holding umlrun's own folders (TMPDIR's stages, the cache: the
 * guest would reach other runs), GUEST an absolute path that is none of
 * the guest's own (/, /suite, /results, /tmp, /proc...). Default GUEST:
 * /mnt/BASENAME. Exit 2 on bad input.
 */
int guest_mount_parse(const char *spec, struct confine_mount *m, struct uerr *e);
/* Adds m (taken over) to the stage: its mount point in the root, the plan. */
int stage_add_mount(struct stage *s, struct confine_mount *m, struct uerr *e);

/* STAGE/gN with results/ and uml/ owned by the guest's user. */
int stage_guest_dir(const struct stage *s, int index, struct uerr *e);
/* 0, or -errno when the folder could not be removed (the next umlrun sweeps it). */
int stage_destroy(struct stage *s);
/* Removes stages left by umlrun processes that are gone (SIGKILL). */
void stage_sweep(void);

#endif
