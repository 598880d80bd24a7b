// SPDX-License-Identifier: MIT
/* doctor.c - the host checks of `umlrun doctor` (see doctor.h). */
#define _GNU_SOURCE
#include "doctor.h"
#include "confine.h"
#include "rootfs.h"
#include "supervise.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

const char *doctor_level_name(enum doctor_level l)
{
	return l == DOCTOR_OK ? "ok  " : l == DOCTOR_WARN ? "warn" : "FAIL";
}

void doctor_add(struct doctor_report *r, enum doctor_level l, const char *what, const char *detail)
{
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n++] = (struct doctor_result){
		.level = l,
		.what = xstrdup(what),
		.detail = detail ? xstrdup(detail) : NULL,
	};
}

void doctor_report_free(struct doctor_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].what);
		free(r->v[i].detail);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

int doctor_exit_code(const struct doctor_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].level == DOCTOR_FAIL)
			return EXIT_INFRA;
	return EXIT_PASS;
}

/* ---- Debian packages ---------------------------------------------- */

/* Whether word is one of the space-separated words of list. */
static bool word_in(const char *list, const char *word)
{
	size_t l = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += l)
		if ((p == list || p[-1] == ' ') && (p[l] == ' ' || !p[l]))
			return true;
	return false;
}

char **doctor_packages_parse(const char *text, const char *skip)
{
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		const char *hash = memchr(p, '#', (size_t)(nl - p));
		const char *end = hash ? hash : nl;
		char name[256], purpose[64] = "";
		_cleanup_free_ char *line = xstrndup(p, (size_t)(end - p));

		p = *nl ? nl + 1 : nl;
		if (sscanf(line, "%255s %63s", name, purpose) < 1)
			continue;
		if (*purpose && word_in(skip, purpose))
			continue;
		v = xrealloc(v, (n + 2) * sizeof(char *));
		v[n++] = xstrdup(name);
		v[n] = NULL;
	}
	return v;
}

char *doctor_packages_missing(char *const *names, const char *dpkg_output)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; names[i]; i++)
		if (!dpkg_shows_installed(dpkg_output, names[i]))
			sb_printf(&sb, "%s%s", sb.len ? " " : "", names[i]);
	return sb.len ? sb_detach(&sb) : NULL;
}

/* dpkg-query's "NAME STATUS" lines for names (*st its wait status), or NULL. */
static char *dpkg_status(char **names, int *st)
{
	size_t n = 0;
	char **argv, *out;

	while (names[n])
		n++;
	argv = xcalloc(n + 4, sizeof(char *));
	argv[0] = "dpkg-query";
	argv[1] = "-W";
	argv[2] = "-f=${Package} ${db:Status-Abbrev}\n";
	memcpy(argv + 3, names, n * sizeof(char *));
	out = capture_argv(argv, st);
	free(argv);
	return out;
}

char *doctor_kind_missing(const char *text, const char *kind)
{
	static const char *const kinds[] = {
		"build", "kernel", "guest", "check", "hwsim", "tshark"
	};
	struct strbuf skip = { 0 };
	char **names, *out, *missing = NULL;
	int st;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i], kind))
			sb_printf(&skip, "%s%s", skip.len ? " " : "", kinds[i]);
	names = doctor_packages_parse(text, skip.buf);
	sb_release(&skip);
	out = names[0] ? dpkg_status(names, &st) : NULL;
	if (out)
		missing = doctor_packages_missing(names, out);
	free(out);
	strv_free(names);
	return missing;
}

static void check_packages(const struct doctor_input *in, struct doctor_report *r)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ char *out = NULL;
	_cleanup_free_ char *missing = NULL;
	_cleanup_free_ char *msg = NULL;
	char **names;
	size_t n = 0;
	int st;
	int err = read_file(in->packages_file, &text, NULL);

	if (err < 0) {
		msg = xasprintf("cannot read the list %s: %s; reinstall umlrun or set "
				"UMLRUN_PACKAGES to a list",
				in->packages_file, strerror(-err));
		doctor_add(r, DOCTOR_FAIL, "Debian packages", msg);
		return;
	}
	/*
	 * Building umlrun itself takes the "build" ones: only in a checkout.
	 * The "hwsim" ones are umlrun hwsim's alone, the "tshark" ones its
	 * --tshark's: a line of their own each, a warning at most.
	 */
	names = doctor_packages_parse(text, in->checkout ? "check hwsim tshark"
							 : "build check hwsim tshark");
	while (names[n])
		n++;
	out = dpkg_status(names, &st);
	/* dpkg-query exits 1 when it knows some name not: only 127 is "not run". */
	if (!out || (WIFEXITED(st) && WEXITSTATUS(st) == 127)) {
		doctor_add(r, DOCTOR_FAIL, "Debian packages",
			   "dpkg-query cannot be run (not on PATH?): umlrun checks and uses "
			   "Debian's packages; run it on Debian 12 with dpkg-query on PATH");
	} else if ((missing = doctor_packages_missing(names, out))) {
		msg = xasprintf("missing %s; install them with 'apt-get install %s' (as root: "
				"sh tests/deps.sh in a checkout)",
				missing, missing);
		doctor_add(r, DOCTOR_FAIL, "Debian packages", msg);
	} else {
		msg = xasprintf("Debian packages (%zu, from %s)", n, in->packages_file);
		doctor_add(r, DOCTOR_OK, msg, NULL);
	}
	strv_free(names);
	{
		_cleanup_free_ char *hw = doctor_kind_missing(text, "hwsim");
		_cleanup_free_ char *why = NULL;

		if (hw) {
			why = xasprintf("missing %s: umlrun hwsim needs them (hostap's suite); "
					"install them with 'apt-get install %s'",
					hw, hw);
			doctor_add(r, DOCTOR_WARN, "Debian packages for umlrun hwsim", why);
		} else {
			doctor_add(r, DOCTOR_OK, "Debian packages for umlrun hwsim", NULL);
		}
	}
	{
		_cleanup_free_ char *ts = doctor_kind_missing(text, "tshark");
		_cleanup_free_ char *why = NULL;

		if (ts) {
			why = xasprintf("missing %s: only umlrun hwsim --tshark needs them (the "
					"cases that read captures with tshark); install them with "
					"'apt-get install %s'",
					ts, ts);
			doctor_add(r, DOCTOR_WARN, "Debian packages for umlrun hwsim --tshark",
				   why);
		} else {
			doctor_add(r, DOCTOR_OK, "Debian packages for umlrun hwsim --tshark", NULL);
		}
	}
}

/* ---- what the host kernel allows ---------------------------------- */

/*
 * Waits for a child forked to try something; its exit status is 0 or the
 * errno of what failed (-1 if it died otherwise).
 */
static int child_errno(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * UML runs every guest process under ptrace (and on 6.1 only so): a
 * child asks to be traced and stops, as UML's do. Containers often forbid
 * ptrace (a seccomp profile, or Yama's ptrace_scope 3).
 */
static void check_ptrace(struct doctor_report *r)
{
	_cleanup_free_ char *msg = NULL;
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		msg = xasprintf("cannot fork: %s", strerror(errno));
		doctor_add(r, DOCTOR_FAIL, "ptrace of child processes", msg);
		return;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			_exit(errno);
		raise(SIGSTOP);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSTOPPED(st)) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		doctor_add(r, DOCTOR_OK, "ptrace of child processes", NULL);
		return;
	}
	msg = xasprintf("PTRACE_TRACEME failed (%s): UML runs its guest processes under ptrace; "
			"allow it (kernel.yama.ptrace_scope below 3; in a container, "
			"--cap-add=SYS_PTRACE or a seccomp profile that allows ptrace)",
			WIFEXITED(st) ? strerror(WEXITSTATUS(st)) : "the child died");
	doctor_add(r, DOCTOR_FAIL, "ptrace of child processes", msg);
}

static void check_shm(struct doctor_report *r)
{
	char path[] = "/dev/shm/umlrun-doctor.XXXXXX";
	_cleanup_free_ char *msg = NULL;
	int fd = mkstemp(path);

	if (fd >= 0) {
		close(fd);
		unlink(path);
		doctor_add(r, DOCTOR_OK, "/dev/shm writable", NULL);
		return;
	}
	msg = xasprintf("cannot create a file there (%s): UML keeps shared memory there; "
			"mount a tmpfs on /dev/shm (mount -t tmpfs tmpfs /dev/shm)",
			strerror(errno));
	doctor_add(r, DOCTOR_FAIL, "/dev/shm writable", msg);
}

static void check_seccomp(struct doctor_report *r)
{
	_cleanup_free_ char *msg = NULL;

	int st = 0, err;
	pid_t pid;

	/* 0 or 2 (already filtered) both mean filters can be installed. */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) {
		msg = xasprintf("PR_GET_SECCOMP: %s; linux runs under a seccomp filter of "
				"umlrun's (docs/guest.md), so no guest can start",
				strerror(errno));
		doctor_add(r, DOCTOR_FAIL, "seccomp filters", msg);
		return;
	}
	/* The filter every linux runs under, installed in a child as a guest's is. */
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || deny_host_calls() < 0)
			_exit(errno & 0x7f ? errno & 0x7f : 1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		err = pid < 0 ? errno : WIFEXITED(st) ? WEXITSTATUS(st) : EIO;
		msg = xasprintf("the filter linux runs under cannot be installed (%s), so no guest "
				"can start; a container's seccomp profile must allow seccomp(2)",
				strerror(err));
		doctor_add(r, DOCTOR_FAIL, "seccomp filters", msg);
		return;
	}
	doctor_add(r, DOCTOR_OK, "seccomp filters", NULL);
}

static void check_landlock(struct doctor_report *r, int abi, bool as_root)
{
	_cleanup_free_ char *what = NULL;

	if (abi > 0) {
		what = xasprintf("Landlock ABI %d", abi);
		doctor_add(r, DOCTOR_OK, what, NULL);
		return;
	}
	doctor_add(r, DOCTOR_WARN, "Landlock",
		   as_root ? "unavailable (the host kernel lacks it, or lsm= leaves it out): "
			     "the guest is confined by a mount namespace alone"
			   : "unavailable (the host kernel lacks it, or lsm= leaves it out): "
			     "a guest run as this user is not confined; a test could reach "
			     "your files");
}

static void check_namespaces(struct doctor_report *r, int abi, bool as_root)
{
	if (!as_root) {
		if (confine_namespaces_work(false))
			doctor_add(r, DOCTOR_OK, "user namespaces", NULL);
		else
			doctor_add(
			    r, DOCTOR_WARN, "user namespaces",
			    abi > 0 ? "unavailable, or without the right to mount "
				      "(user.max_user_namespaces=0, AppArmor's "
				      "restrict_unprivileged_userns?): the guest is confined by "
				      "Landlock alone, which leaves UDP and Unix sockets in reach "
				      "of code run in linux; run as root or allow them"
				    : "unavailable, and there is no Landlock: a guest run as "
				      "this user is not confined");
		return;
	}
	if (confine_namespaces_work(true))
		doctor_add(r, DOCTOR_OK, "mount namespaces", NULL);
	else
		doctor_add(r, DOCTOR_WARN, "mount namespaces",
			   abi > 0 ? "unshare(CLONE_NEWNS) fails (no CAP_SYS_ADMIN in this "
				     "container?): the guest is confined by Landlock alone"
				   : "unshare(CLONE_NEWNS) fails (no CAP_SYS_ADMIN in this "
				     "container?) and there is no Landlock: the guest is not "
				     "confined");
}

/* ---- folders -------------------------------------------------------- */

/*
 * The stage goes to TMPDIR, and the guest's linux process (nobody, when
 * umlrun runs as root) must reach it: asked as that user, in a child,
 * as boot.c does before a run.
 */
static void check_tmpdir(const struct doctor_input *in, struct doctor_report *r)
{
	const char *dir = in->tmpdir && *in->tmpdir ? in->tmpdir : "/tmp";
	_cleanup_free_ char *what = NULL;
	_cleanup_free_ char *msg = NULL;
	int err;
	pid_t pid;

	what = in->as_root ? xasprintf("TMPDIR %s reachable by the guest's user (uid %u)", dir,
				       (unsigned)in->guest_uid)
			   : xasprintf("TMPDIR %s writable", dir);
	if (!is_dir(dir) || access(dir, W_OK | X_OK) < 0) {
		msg = xasprintf("not a folder umlrun can write (%s); set TMPDIR to one (e.g. /tmp)",
				is_dir(dir) ? strerror(errno) : "no such folder");
		doctor_add(r, DOCTOR_FAIL, what, msg);
		return;
	}
	if (!in->as_root) {
		doctor_add(r, DOCTOR_OK, what, NULL);
		return;
	}
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setgid(in->guest_gid) < 0 ||
		    setuid(in->guest_uid) < 0)
			_exit(errno);
		_exit(access(dir, X_OK) < 0 ? errno : 0);
	}
	err = pid < 0 ? errno : child_errno(pid);
	if (err == 0) {
		doctor_add(r, DOCTOR_OK, what, NULL);
		return;
	}
	msg = xasprintf("the guest's user cannot traverse it (%s); set TMPDIR to a folder "
			"every user can traverse (e.g. /tmp)",
			err > 0 ? strerror(err) : "the check died");
	doctor_add(r, DOCTOR_FAIL, what, msg);
}

void doctor_disk_result(struct doctor_report *r, const char *dir, unsigned long long free_bytes)
{
	_cleanup_free_ char *what =
	    xasprintf("free disk in %s: %.1f GB", dir, (double)free_bytes / (1ULL << 30));

	if (free_bytes >= DOCTOR_DISK_MIN) {
		doctor_add(r, DOCTOR_OK, what, NULL);
		return;
	}
	doctor_add(r, DOCTOR_WARN, what,
		   "below 5 GB; a kernel build takes about 1.5 GB: free some ('umlrun prune' "
		   "removes unused kernels) or set XDG_CACHE_HOME to a larger disk");
}

/* The cache folder may not exist yet: its nearest existing parent's disk. */
static void check_disk(const struct doctor_input *in, struct doctor_report *r)
{
	_cleanup_free_ char *dir = xstrdup(in->cache_dir);
	_cleanup_free_ char *msg = NULL;
	struct statvfs sv;

	while (statvfs(dir, &sv) < 0) {
		char *slash = strrchr(dir, '/');

		if (errno != ENOENT || !slash || slash == dir) {
			msg = xasprintf("statvfs %s: %s", dir, strerror(errno));
			doctor_add(r, DOCTOR_WARN, "free disk in the cache folder", msg);
			return;
		}
		*slash = '\0';
	}
	doctor_disk_result(r, in->cache_dir, (unsigned long long)sv.f_bavail * sv.f_frsize);
}

static void check_kernel(const struct doctor_input *in, struct doctor_report *r)
{
	_cleanup_free_ char *what = xasprintf("kernel %s", in->kernel_name);
	_cleanup_free_ char *binary = NULL;

	if (!in->kernel_dir) {
		doctor_add(r, DOCTOR_WARN, what, in->kernel_error);
		return;
	}
	binary = xasprintf("%s/linux", in->kernel_dir);
	if (path_exists(binary)) {
		free(what);
		what = xasprintf("kernel %s built (%s)", in->kernel_name, binary);
		doctor_add(r, DOCTOR_OK, what, NULL);
		return;
	}
	doctor_add(r, DOCTOR_WARN, what,
		   "not built yet: the first run builds it (about 5 minutes on 2 CPUs), or "
		   "'umlrun build' now");
}

void doctor_run(const struct doctor_input *in, struct doctor_report *r)
{
	int abi = confine_landlock_abi();

	memset(r, 0, sizeof(*r));
	check_packages(in, r);
	check_ptrace(r);
	check_shm(r);
	check_seccomp(r);
	check_landlock(r, abi, in->as_root);
	check_namespaces(r, abi, in->as_root);
	check_tmpdir(in, r);
	if (in->cache_error) {
		doctor_add(r, DOCTOR_FAIL, "the cache folder", in->cache_error);
		return;
	}
	check_disk(in, r);
	check_kernel(in, r);
}
