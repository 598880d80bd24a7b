/* SPDX-License-Identifier: MIT */
/*
 * confine.h - what a guest's linux process can reach on the host.
 *
 * hostfs is no jail: a guest joins any mount option to the hostfs= prefix
 * as text (`mount -t hostfs none /m -o ../../../etc` reaches the host's
 * /etc) and acts on host files with the host uid of the linux process. So
 * the host confines that process, in the child, between fork and exec:
 *
 *   Landlock (any user, when the host kernel has it; the best ABI it
 *   offers): linux may read and execute its kernel binary and the shared
 *   libraries the dynamic loader names for it; read /proc/cpuinfo (UML
 *   asks for the CPU's flags at boot); read the stage's root/ and
 *   suite/; read and write its own gN/results/ (files and folders only: no
 *   symbolic links, FIFOs, sockets or devices) and gN/uml/ (its memory
 *   file and umid folder). Nothing else, and no TCP (ABI 4), no signals or
 *   abstract sockets beyond its own processes (ABI 6).
 *
 *   A mount namespace (as root): linux's whole file system is a small
 *   tmpfs holding just those paths, bind-mounted (kernel, libraries, root
 *   and suite read-only, gN nosuid and nodev), entered with pivot_root.
 *   Inside it the stage is at CONFINE_JAIL_STAGE and the guest's gN at
 *   CONFINE_JAIL_GUEST, whatever their host paths, so the kernel's command
 *   line can name them absolutely and still be the same in every run; and
 *   gN/uml (UML's memory file) is a tmpfs of its own.
 *
 * Usage: confine_plan() once per stage in the parent (it probes what the
 * host offers and lists the libraries); in the child, confine_mounts()
 * while still root, then (after dropping privileges) confine_landlock().
 * Both return 0 or -errno and never print: the child reports and exits.
 * A plan that cannot be applied in the child is an error, never a quiet
 * fallback to less confinement.
 */
#ifndef UMLRUN_CONFINE_H
#define UMLRUN_CONFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util.h"

/*
 * Where the stage appears inside the mount namespace, and the guest's own
 * STAGE/gN there (each guest has a namespace of its own).
 */
#define CONFINE_JAIL_STAGE "/umlrun"
#define CONFINE_JAIL_GUEST CONFINE_JAIL_STAGE "/guest"
/* Where a --mount folder K appears in the jail: CONFINE_JAIL_STAGE/mounts/K. */
#define CONFINE_JAIL_MOUNTS "mounts"

/* A host folder the guest mounts (--mount), reachable as this says. */
struct confine_mount {
	char *host;  /* absolute, resolved */
	char *guest; /* where the guest mounts it */
	bool rw;
};

struct confine_plan {
	int landlock_abi; /* 0: Landlock unavailable */
	bool mount_ns;	  /* the private mount namespace and pivot_root */
	bool user_ns;	  /* not root: those through a user namespace of the guest's own */
	char **libs;	  /* host files linux reads: libraries, /proc/cpuinfo; NULL-terminated */
	const struct confine_mount *mounts; /* --mount folders (the stage owns them) */
	size_t nmounts;
};

/* Probes the host; linux is the kernel binary (for its libraries). */
int confine_plan_make(struct confine_plan *p, const char *linux_path, bool as_root, struct uerr *e);
void confine_plan_free(struct confine_plan *p);
/*
 * Whether the jail's namespaces can be made here: as root, a mount
 * namespace; as another user, one in a user namespace, allowed to mount.
 */
bool confine_namespaces_work(bool as_root);
/* The host kernel's Landlock ABI (1, 2, ...), 0 without Landlock. */
int confine_landlock_abi(void);
/* What results.json records: "landlock-v7+mount-ns", "landlock-v7+user-ns", "landlock-v2"... */
char *confine_describe(const struct confine_plan *p);

/*
 * In the child, as root (or root of its new user namespace, p->user_ns,
 * mapped to uid and gid), in a new mount namespace: builds the jail for
 * STAGE/gINDEX and enters it (cwd CONFINE_JAIL_GUEST). A no-op without
 * p->mount_ns. MEM is the guest's memory size ("256M"): its memory folder
 * holds that and 64 MiB more.
 */
int confine_mounts(const struct confine_plan *p, const char *stage, int index, uid_t uid, gid_t gid,
		   const char *mem);
/* In the child, after dropping privileges, with no_new_privs set. */
int confine_landlock(const struct confine_plan *p, const char *stage, int index);

/*
 * Confines the calling process (the host's gdb under --gdb-guest, before
 * its exec) with Landlock: its programs and libraries, its configuration,
 * sysroot, script and the source folders (NULL-terminated, or NULL) to
 * read, the terminal. 0, also without Landlock; -errno when it could not.
 */
int confine_gdb(const char *sysroot, const char *script, char *const *sources);

#endif
