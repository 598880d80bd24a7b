// SPDX-License-Identifier: MIT
/* confine.c - Landlock and a mount namespace around the linux process. */
#define _GNU_SOURCE
#include "confine.h"

#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/landlock.h>

/*
 * The uapi header of the build host may be older than the kernel the
 * guest runs on: the ABI is asked at run time, and what later ABIs added
 * is spelled out here.
 */
#define LL_FS_TRUNCATE	  (1ULL << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV	  (1ULL << 15) /* ABI 5 */
#define LL_NET_BIND_TCP	  (1ULL << 0)  /* ABI 4 */
#define LL_NET_CONN_TCP	  (1ULL << 1)
#define LL_SCOPE_ABSTRACT (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL	  (1ULL << 1)

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_RUN	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE)
/* Files and folders, nothing else: no links out, no FIFOs to block a reader. */
#define LL_WRITE                                                                                   \
	(LL_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                 \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |                            \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REFER | LL_FS_TRUNCATE)

static uint64_t fs_rights_of(int abi)
{
	uint64_t all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1 */

	if (abi >= 2)
		all |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		all |= LL_FS_TRUNCATE;
	if (abi >= 5)
		all |= LL_FS_IOCTL_DEV;
	return all;
}

int confine_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

/*
 * Whether this process may make the namespaces the child will make: root
 * in a container may lack CAP_SYS_ADMIN; another user needs a user
 * namespace, which a host may forbid (user.max_user_namespaces=0) or
 * leave without the right to mount (AppArmor's
 * restrict_unprivileged_userns), or PID namespaces (max_pid_namespaces).
 * Asked in a throwaway child, mounting a tmpfs as the jail does.
 */
bool confine_namespaces_work(bool as_root)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS | CLONE_NEWPID | (as_root ? 0 : CLONE_NEWUSER)) == 0 &&
			      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
			      mount("umlrun", "/", "tmpfs", MS_NOSUID | MS_NODEV, "size=4k") == 0
			  ? 0
			  : 1);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void strv_add(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/*
 * Host files linux needs besides the stage and its libraries. Without
 * either it stops before its console is up.
 */
static const struct host_file {
	const char *path;
	uint64_t access;
	unsigned long flags; /* of its bind mount in the jail */
} host_files[] = {
	/* The CPU's flags, for its floating-point state (get_host_cpu_features). */
	{ "/proc/cpuinfo", LANDLOCK_ACCESS_FS_READ_FILE, MS_RDONLY | MS_NOSUID | MS_NODEV },
	/* The "null" channels of the command line (con=null, ssl=null). */
	{ "/dev/null", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE,
	  MS_RDONLY | MS_NOSUID },
};

/*
 * The files the dynamic loader opens for linux, as ldd lists them:
 * "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or
 * "\t/lib64/ld-linux-x86-64.so.2 (0x...)", and the one glibc loads later
 * (libgcc_s.so.1). A static kernel has none.
 */
static int list_libraries(const char *linux_path, char ***out, struct uerr *e)
{
	char *argv[] = { "ldd", (char *)linux_path, NULL };
	int status;
	_cleanup_free_ char *text = capture_argv(argv, &status);
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0;

	if (!text)
		return uerr_set(e, EXIT_INFRA, "cannot run ldd on %s to confine it", linux_path);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *p = strstr(line, "=> ");

		p = p ? p + 3 : line + strspn(line, " \t");
		if (*p != '/')
			continue; /* the vDSO, "not a dynamic executable" */
		p[strcspn(p, " \t")] = '\0';
		strv_add(&v, &n, xstrdup(p));
		/*
		 * glibc opens libgcc_s.so.1 itself, from libc's folder, when a
		 * thread ends (pthread_exit unwinds): UML's helper threads do
		 * at power-off. Without it linux aborted on its way out, after
		 * the guest's end (so before --profile=gcov's .gcda were written).
		 */
		size_t len = strlen(p);

		if (len > 10 && !strcmp(p + len - 10, "/libc.so.6")) {
			_cleanup_free_ char *gcc_s =
			    xasprintf("%.*s/libgcc_s.so.1", (int)(len - 10), p);

			if (path_exists(gcc_s))
				strv_add(&v, &n, xstrdup(gcc_s));
		}
	}
	if (path_exists("/etc/ld.so.cache"))
		strv_add(&v, &n, xstrdup("/etc/ld.so.cache"));
	*out = v;
	return 0;
}

int confine_plan_make(struct confine_plan *p, const char *linux_path, bool as_root, struct uerr *e)
{
	const char *force = getenv("UMLRUN_CONFINE");

	memset(p, 0, sizeof(*p));
	/* For testing each layer alone: landlock, mount-ns or none (docs/guest.md). */
	if (force && *force && strcmp(force, "landlock") && strcmp(force, "mount-ns") &&
	    strcmp(force, "none"))
		return uerr_set(e, EXIT_USAGE,
				"UMLRUN_CONFINE=%s: expected landlock, mount-ns or none", force);
	if (!force || !*force || !strcmp(force, "landlock"))
		p->landlock_abi = confine_landlock_abi();
	if (!force || !*force || !strcmp(force, "mount-ns")) {
		p->mount_ns = confine_namespaces_work(as_root);
		p->user_ns = p->mount_ns && !as_root;
	}
	if (force && !strcmp(force, "landlock") && !p->landlock_abi)
		return uerr_set(e, EXIT_INFRA,
				"UMLRUN_CONFINE=landlock: this host kernel has no Landlock");
	if (force && !strcmp(force, "mount-ns") && !p->mount_ns)
		return uerr_set(
		    e, EXIT_INFRA,
		    "UMLRUN_CONFINE=mount-ns: needs root allowed to make namespaces, or "
		    "user namespaces allowed to mount");
	return list_libraries(linux_path, &p->libs, e);
}

void confine_plan_free(struct confine_plan *p)
{
	strv_free(p->libs);
	p->libs = NULL;
}

char *confine_describe(const struct confine_plan *p)
{
	const char *ns = p->user_ns ? "user-ns" : "mount-ns";

	if (p->landlock_abi && p->mount_ns)
		return xasprintf("landlock-v%d+%s", p->landlock_abi, ns);
	if (p->landlock_abi)
		return xasprintf("landlock-v%d", p->landlock_abi);
	return xstrdup(p->mount_ns ? ns : "none");
}

/* ---- the mount namespace ---- */

/* mkdir -p for the folders above path, then path itself as a folder or file. */
static int make_target(const char *path, bool dir)
{
	_cleanup_free_ char *parent = xstrdup(path);
	char *slash = strrchr(parent, '/');
	int fd;

	if (slash && slash != parent) {
		*slash = '\0';
		if (mkdir_p(parent, 0755) < 0)
			return -errno;
	}
	if (dir)
		return mkdir(path, 0755) < 0 && errno != EEXIST ? -errno : 0;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * The flags of the mount holding path that a user namespace may not clear
 * in a bind mount of it (the kernel locks them: a remount without them is
 * refused).
 */
static unsigned long locked_flags(const char *path)
{
	static const struct {
		unsigned long st, ms;
	} map[] = {
		{ ST_RDONLY, MS_RDONLY },     { ST_NOSUID, MS_NOSUID },
		{ ST_NODEV, MS_NODEV },	      { ST_NOEXEC, MS_NOEXEC },
		{ ST_NOATIME, MS_NOATIME },   { ST_NODIRATIME, MS_NODIRATIME },
		{ ST_RELATIME, MS_RELATIME },
	};
	struct statvfs sv;
	unsigned long flags = 0;

	if (statvfs(path, &sv) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (sv.f_flag & map[i].st)
			flags |= map[i].ms;
	return flags;
}

static int bind_mount(const char *from, const char *to, unsigned long flags, bool user_ns)
{
	struct stat st;
	int r;

	if (stat(from, &st) < 0)
		return -errno;
	if ((r = make_target(to, S_ISDIR(st.st_mode))) < 0)
		return r;
	/*
	 * Not MS_REC: a remount changes the flags of the top mount only, so a
	 * mount below a read-only folder would stay writable. What is mounted
	 * below the folder stays out of the guest's sight instead.
	 */
	if (mount(from, to, NULL, MS_BIND, NULL) < 0)
		return -errno;
	if (user_ns)
		flags |= locked_flags(to);
	/* Flags of a bind mount change only by remounting it. */
	if (mount(NULL, to, NULL, MS_REMOUNT | MS_BIND | flags, NULL) < 0)
		return -errno;
	return 0;
}

/*
 * Not root: the child is root of its new user namespace, as uid and gid
 * (its own ids outside, the only ones a user may map). exec takes its
 * capabilities away again: linux runs as uid, with none.
 */
static int proc_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	/* One write: the kernel takes a map whole or not at all. */
	r = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -(errno ? errno : EIO);
	close(fd);
	return r;
}

static int map_ids(uid_t uid, gid_t gid)
{
	_cleanup_free_ char *u = xasprintf("%u %u 1\n", uid, uid);
	_cleanup_free_ char *g = xasprintf("%u %u 1\n", gid, gid);
	int r;

	/* setgroups must be denied before an unprivileged gid_map is written. */
	if ((r = proc_write("/proc/self/setgroups", "deny")) < 0 ||
	    (r = proc_write("/proc/self/gid_map", g)) < 0 ||
	    (r = proc_write("/proc/self/uid_map", u)) < 0)
		return r;
	return setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0 ? -errno : 0;
}

/*
 * The size limit of the guest's memory folder, in KiB: its memory file
 * (MEM, a size already checked: --mem or a suite's mem=) and 64 MiB to
 * spare. A guest can reach the folder over hostfs, and anything it writes
 * there is host memory.
 */
static unsigned long long mem_folder_kib(const char *mem)
{
	return (size_bytes(mem) >> 10) + (64 << 10);
}

int confine_mounts(const struct confine_plan *p, const char *stage, int index, uid_t uid, gid_t gid,
		   const char *mem)
{
	const unsigned long ro = MS_RDONLY | MS_NOSUID | MS_NODEV;
	_cleanup_free_ char *jail = xasprintf("%s/jail", stage);
	_cleanup_free_ char *gdir = xasprintf("g%d", index);
	static const char *const ro_parts[] = { "linux", "root", "suite" };
	int r;

	if (!p->mount_ns)
		return 0;
	if (p->user_ns && (r = map_ids(uid, gid)) < 0)
		return r;
	/* Nothing mounted here may show outside, or the other way round. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	if (mount("umlrun", jail, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=256k") < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(ro_parts) / sizeof(ro_parts[0]); i++) {
		_cleanup_free_ char *from = xasprintf("%s/%s", stage, ro_parts[i]);
		_cleanup_free_ char *to =
		    xasprintf("%s" CONFINE_JAIL_STAGE "/%s", jail, ro_parts[i]);

		if ((r = bind_mount(from, to, ro, p->user_ns)) < 0)
			return r;
	}
	{
		/* At a name every guest shares: the command line is the same in every slot. */
		_cleanup_free_ char *from = xasprintf("%s/%s", stage, gdir);
		_cleanup_free_ char *to = xasprintf("%s" CONFINE_JAIL_GUEST, jail);

		_cleanup_free_ char *uml = xasprintf("%s/uml", to);
		_cleanup_free_ char *opts =
		    xasprintf("mode=0700,uid=%u,gid=%u,size=%lluk", uid, gid, mem_folder_kib(mem));

		_cleanup_free_ char *results_from = xasprintf("%s/results", from);
		_cleanup_free_ char *results_to = xasprintf("%s/results", to);

		/*
		 * Read-only but for /results (and the memory folder below): the
		 * guest's user may own gN (not root), and what it wrote beside
		 * them no limit would measure.
		 */
		if ((r = bind_mount(from, to, ro, p->user_ns)) < 0 ||
		    (r = bind_mount(results_from, results_to, MS_NOSUID | MS_NODEV, p->user_ns)) <
			0)
			return r;
		/*
		 * UML's memory file (TMPDIR=uml) in memory, as UML prefers it,
		 * gone with the namespace. Not noexec: UML maps it executable.
		 */
		if (mount("umlrun-mem", uml, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
			return -errno;
	}
	for (size_t i = 0; p->libs && p->libs[i]; i++) {
		_cleanup_free_ char *to = xasprintf("%s%s", jail, p->libs[i]);

		if ((r = bind_mount(p->libs[i], to, ro, p->user_ns)) < 0)
			return r;
	}
	for (size_t i = 0; i < p->nmounts; i++) {
		_cleanup_free_ char *to =
		    xasprintf("%s" CONFINE_JAIL_STAGE "/" CONFINE_JAIL_MOUNTS "/%zu", jail, i);

		if ((r = bind_mount(p->mounts[i].host, to,
				    p->mounts[i].rw ? MS_NOSUID | MS_NODEV : ro, p->user_ns)) < 0)
			return r;
	}
	for (size_t i = 0; i < sizeof(host_files) / sizeof(host_files[0]); i++) {
		_cleanup_free_ char *to = xasprintf("%s%s", jail, host_files[i].path);

		if ((r = bind_mount(host_files[i].path, to, host_files[i].flags, p->user_ns)) < 0)
			return r;
	}
	/* pivot_root(".", "."): the old root stacks under the new; detach it. */
	if (chdir(jail) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0)
		return -errno;
	if (mount(NULL, "/", NULL, MS_REMOUNT | ro, NULL) < 0)
		return -errno;
	if (chdir(CONFINE_JAIL_GUEST) < 0)
		return -errno;
	return 0;
}

/* ---- Landlock ---- */

static int allow(int ruleset, const char *path, uint64_t access, uint64_t handled)
{
	struct ll_path_beneath pb = { .allowed_access = access & handled };
	int r = 0;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return -errno;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		r = -errno;
	close(pb.parent_fd);
	return r;
}

int confine_landlock(const struct confine_plan *p, const char *stage, int index)
{
	struct ll_ruleset_attr attr = { .handled_access_fs = fs_rights_of(p->landlock_abi) };
	uint64_t h = attr.handled_access_fs;
	size_t size = sizeof(attr.handled_access_fs);
	const char *base = p->mount_ns ? CONFINE_JAIL_STAGE : stage;
	struct {
		const char *sub;
		uint64_t access;
	} const parts[] = {
		{ "linux", LL_RUN },
		{ "root", LL_READ },
		{ "suite", LL_READ },
		{ "results", LL_WRITE },
		/* The umid folder holds UML's mconsole socket. */
		{ "uml", LL_WRITE | LANDLOCK_ACCESS_FS_MAKE_SOCK },
	};
	int ruleset, r = 0;

	if (!p->landlock_abi)
		return 0;
	if (p->landlock_abi >= 4) {
		/* No rule allows TCP: linux needs no network. */
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONN_TCP;
		size = offsetof(struct ll_ruleset_attr, scoped);
	}
	if (p->landlock_abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT | LL_SCOPE_SIGNAL;
		size = sizeof(attr);
	}
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && !r; i++) {
		bool mine = !strcmp(parts[i].sub, "results") || !strcmp(parts[i].sub, "uml");
		_cleanup_free_ char *path = !mine ? xasprintf("%s/%s", base, parts[i].sub)
					    : p->mount_ns
						? xasprintf(CONFINE_JAIL_GUEST "/%s", parts[i].sub)
						: xasprintf("%s/g%d/%s", base, index, parts[i].sub);

		r = allow(ruleset, path, parts[i].access, h);
	}
	for (size_t i = 0; p->libs && p->libs[i] && !r; i++)
		r = allow(ruleset, p->libs[i], LL_RUN, h);
	for (size_t i = 0; i < p->nmounts && !r; i++) {
		_cleanup_free_ char *path =
		    p->mount_ns ? xasprintf(CONFINE_JAIL_STAGE "/" CONFINE_JAIL_MOUNTS "/%zu", i)
				: xstrdup(p->mounts[i].host);

		r = allow(ruleset, path, p->mounts[i].rw ? LL_WRITE : LL_READ, h);
	}
	for (size_t i = 0; i < sizeof(host_files) / sizeof(host_files[0]) && !r; i++)
		r = allow(ruleset, host_files[i].path, host_files[i].access, h);
	if (!r && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		r = -errno;
	close(ruleset);
	return r;
}

int confine_gdb(const char *sysroot, const char *script, char *const *sources)
{
	/*
	 * What the host's gdb needs: its programs and libraries, its own
	 * configuration, the staged root it reads the program from, the
	 * script, its own terminal. Not the rest of /etc, /tmp, /run, /home
	 * or /dev, where a path a guest names could reach a secret, a FIFO or
	 * another terminal.
	 */
	static const struct {
		const char *path;
		uint64_t access;
	} parts[] = {
		{ "/usr", LL_RUN | LANDLOCK_ACCESS_FS_READ_DIR },
		{ "/bin", LL_RUN | LANDLOCK_ACCESS_FS_READ_DIR },
		{ "/sbin", LL_RUN | LANDLOCK_ACCESS_FS_READ_DIR },
		{ "/lib", LL_RUN | LANDLOCK_ACCESS_FS_READ_DIR },
		{ "/lib64", LL_RUN | LANDLOCK_ACCESS_FS_READ_DIR },
		{ "/etc/gdb", LL_READ },
		{ "/etc/ld.so.cache", LANDLOCK_ACCESS_FS_READ_FILE },
		{ "/etc/localtime", LANDLOCK_ACCESS_FS_READ_FILE },
		{ "/etc/inputrc", LANDLOCK_ACCESS_FS_READ_FILE },
		{ "/etc/nsswitch.conf", LANDLOCK_ACCESS_FS_READ_FILE },
		{ "/etc/passwd", LANDLOCK_ACCESS_FS_READ_FILE },
		{ "/etc/terminfo", LL_READ },
		{ "/proc/self", LL_READ },
		{ "/dev/null", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE },
		{ "/dev/tty", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE },
	};
	int abi = confine_landlock_abi();
	struct ll_ruleset_attr attr = { .handled_access_fs = fs_rights_of(abi) };
	uint64_t h = attr.handled_access_fs;
	int ruleset, r = 0;

	if (!abi)
		return 0;
	ruleset =
	    (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr.handled_access_fs), 0);
	if (ruleset < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && !r; i++) {
		r = allow(ruleset, parts[i].path, parts[i].access, h);
		if (r == -ENOENT)
			r = 0; /* a host without it: nothing to allow */
	}
	if (!r)
		r = allow(ruleset, sysroot, LL_READ, h);
	/* Its own terminal, not every /dev/pts one (a read there takes another's keys). */
	if (!r && isatty(STDIN_FILENO) && ttyname(STDIN_FILENO))
		r = allow(ruleset, ttyname(STDIN_FILENO),
			  LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE, h);
	if (!r && script)
		r = allow(ruleset, script, LANDLOCK_ACCESS_FS_READ_FILE, h);
	for (size_t i = 0; !r && sources && sources[i]; i++)
		r = allow(ruleset, sources[i], LL_READ, h);
	/* Not root, Landlock needs it; gdb gains no privileges anyway. */
	if (!r && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		r = -errno;
	if (!r && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		r = -errno;
	close(ruleset);
	return r;
}
