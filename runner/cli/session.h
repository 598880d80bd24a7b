/* SPDX-License-Identifier: MIT */
/*
 * session.h - what a command works with, from its options to its guests.
 *
 * Every command that boots a guest is the same short list of phases over
 * one struct session:
 *
 *	struct session s = { .o = o };
 *
 *	find_project(&s);	the project's files (uml-config/, rootfs/, ...)
 *	check_inputs(&s);	refuse bad input before anything is built
 *	prepare_kernel(&s);	build or find the kernel (cached)
 *	prepare_rootfs(&s);	build or find the root folder (cached)
 *	prepare_stage(&s);	the folder the guests boot from
 *	... guest_for(&s, i) gives guest i's spec ...
 *	session_end(&s);	release it all, the stage removed
 *
 * These are the command layer's: they print and exit on an error (die,
 * uerr_die), as only the command layer may. The stage, the --plain suites
 * are removed however umlrun ends, die() included.
 */
#ifndef UMLRUN_SESSION_H
#define UMLRUN_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "boot.h"
#include "confine.h"
#include "kernel_cache.h"
#include "ktap.h"
#include "options.h"
#include "plain.h"
#include "sched.h"
#include "suite.h"
#include "util.h"

/* Everything a command found or built, released in one place. */
struct session {
	const struct opts *o;
	char *project;	/* holds uml-config/, rootfs/, testsuites/ */
	char *guestbin; /* the static guest programs built by make */
	struct kernel kernel;
	char *rootfs;
	struct stage stage;
	bool has_start;
	int64_t start_secs;
	uint64_t start_kernel;
	uint64_t seed;		 /* --shuffle */
	enum tt_mode mode;	 /* of the run being prepared */
	char **overlays;	 /* --overlay, as absolute paths */
	char *harness;		 /* HARNESS_OPTIONS for the guest, or NULL */
	uint64_t random_seed;	 /* the guest's (--random-seed) */
	char *confinement;	 /* what confines the guests (confine_describe) */
	char *host_cpu;		 /* host_cpu_describe(), for the reports */
	char *cpu_cost;		 /* --cpu-cost for results.json, or NULL */
	char selection[17];	 /* --shard: what was split (test ids hashed), or "" */
	char *plain_suites;	 /* --plain: the generated suites folder */
	struct plain_dir *plain; /* --plain folders */
	char *tarball;		 /* the kernel source's tarball (kernel_opts_of) */
	bool fallback;		 /* the default kernel's source could not be had */
	bool kunit_kernel;	 /* kunit's: time-travel.config alone of the project's fragments */
	struct confine_mount *mounts; /* --mount, parsed; the stage takes each over */
	char *fetch_script;
	char *profile_fragment;	  /* --profile's uml-config/profiles/NAME.config */
	char *trace_event;	  /* the kernel's trace_event= (--trace-event), or NULL */
	char *kprobe_event;	  /* the kernel's kprobe_event= (--kprobe-event), or NULL */
	char *gdb;		  /* --gdb: the host's gdb */
	char *gdb_script;	  /* --gdb=FILE, absolute */
	char *gdb_guest;	  /* --gdb-guest: the host's gdb */
	char *gdb_guest_script;	  /* --gdb-guest=FILE, absolute */
	char **gdb_guest_sources; /* --gdb-guest-source, absolute, NULL-terminated */
	char **manifest_extras;	  /* a suite's own root: manifests after rootfs/manifest, or NULL */
	double case_wall;	/* hwsim: a case's wall-clock limit (sched's result_wall_timeout) */
	bool case_retry;	/* hwsim: a batch's failed cases once again, alone */
	const char *hwsim_tree; /* hwsim: --hostap, resolved */
	/* hwsim: a stuck batch's rest, its failed cases again (sched_opts.follow_up) */
	const struct test **(*follow_up)(void *ctx, const struct test *t, enum verdict v,
					 struct ktap *k);
	/*
	 * --seeds: the words that select what this command ran, after
	 * --filter=ID on the replay line (kselftest's targets, hwsim's cases);
	 * NULL-terminated, the command's own. NULL: the id alone, as run takes it.
	 */
	char *const *replay_select;
};

/* When no guest can start at all, the host is the likely cause: said on the error's line. */
#define DOCTOR_HINT " ('umlrun doctor' checks what this host must offer a guest)"

void find_project(struct session *s);
/* The kernel build's progress (kernel_opts.say and the like), on stderr. */
void say_progress(void *ctx, bool transient, const char *text);
/* The kernel the options select; config_dir is the project's uml-config/. */
struct kernel_opts kernel_opts_of(struct session *s, const char *config_dir);
/* Before anything is built or written: the input must make sense. */
void check_inputs(struct session *s);
void prepare_kernel(struct session *s);
void prepare_rootfs(struct session *s);
/* The guest clock's start (--start), for s->mode: none with time travel off. */
void resolve_start(struct session *s);
/* The suites to run: --plain's, --suite-dir, or the project's testsuites/. */
char *suites_dir(struct session *s);
void prepare_stage(struct session *s);
/* Whether the guests run UML's seccomp userspace (--seccomp, the kernel, the host). */
bool session_seccomp(const struct session *s);
void session_end(struct session *s);
/* Guest index's spec: the stage, the mode, the clock, the options. */
struct guest_spec guest_for(const struct session *s, int index);
/* No guest came up: 'umlrun doctor' suggested, on stderr. */
void doctor_hint(void);
/* e, with DOCTOR_HINT when the host is to blame, and exit. */
UMLRUN_NORETURN void die_doctor(const struct uerr *e);

#endif
