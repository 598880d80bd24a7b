// SPDX-License-Identifier: MIT
/*
 * test_hostcalls.c - the seccomp filter linux runs under (deny_host_calls):
 * what code of the guest's kernel (a module a test loads) may not do on
 * the host, and what UML itself needs still works.
 */
#define _GNU_SOURCE
#include "supervise.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <linux/keyctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

struct call {
	const char *what;
	int want; /* the errno the filter gives, 0: allowed */
};

static const struct call calls[] = {
	{ "keyctl(KEYCTL_GET_KEYRING_ID, session)", EPERM },
	{ "add_key(user, in the session keyring)", EPERM },
	{ "request_key(user)", EPERM },
	{ "connect(AF_UNIX, a path)", EACCES },
	{ "sendto(AF_UNIX datagram, a path)", EACCES },
	{ "socket(AF_VSOCK)", EAFNOSUPPORT },
	{ "getrandom", ENOSYS },
	{ "socketpair(AF_UNIX) and send on it", 0 },
	{ "socket(AF_UNIX)", 0 },
	{ "io_uring_setup", ENOSYS },
	{ "sendto with an address above 4 GiB (the high half checked)", EACCES },
	{ "getpid through int 0x80 (i386)", ENOSYS },
	{ "getpid by its x32 number", ENOSYS },
	{ "unshare(CLONE_NEWUSER | CLONE_NEWNET)", EPERM },
	{ "clone(CLONE_NEWUSER)", EPERM },
	{ "clone3", ENOSYS },
	{ "setns", EPERM },
	{ "fork and a thread (clone3 refused: glibc falls back to clone)", 0 },
};

static void *thread_main(void *arg)
{
	return arg;
}

/* Runs call i in the filtered child: 0, or the errno it failed with. */
static int make_call(int i)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = "/nonexistent/sock" };
	int sv[2], fd;
	char b[4];
	long r = -1;

	errno = 0;
	switch (i) {
	case 0:
		r = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0);
		break;
	case 1:
		r = syscall(SYS_add_key, "user", "umlrun-test", "x", 1, KEY_SPEC_SESSION_KEYRING);
		break;
	case 2:
		r = syscall(SYS_request_key, "user", "umlrun-test", NULL, 0);
		break;
	case 3:
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		r = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
		break;
	case 4:
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		r = sendto(fd, "x", 1, 0, (struct sockaddr *)&sun, sizeof(sun));
		break;
	case 5:
		r = socket(AF_VSOCK, SOCK_STREAM, 0);
		break;
	case 6:
		r = getrandom(b, sizeof(b), 0);
		break;
	case 7:
		r = socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
		if (r == 0)
			r = send(sv[0], "x", 1, 0) == 1 && recv(sv[1], b, 1, 0) == 1 ? 0 : -1;
		break;
	case 8:
		r = socket(AF_UNIX, SOCK_DGRAM, 0);
		break;
	case 9:
		/* Unfiltered, a NULL params pointer gives EFAULT (or EPERM, disabled). */
		r = syscall(SYS_io_uring_setup, 1, NULL);
		break;
	case 10:
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		r = syscall(SYS_sendto, fd, "x", 1, 0, (void *)0x100000000UL, sizeof(sun));
		break;
	case 11: {
		long ret = 20; /* i386 getpid */

		__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
		if (ret < 0 && ret > -4096) {
			errno = (int)-ret;
			r = -1;
		} else {
			r = 0;
		}
		break;
	}
	case 12:
		r = syscall(0x40000000 | SYS_getpid);
		break;
	case 13:
		r = unshare(CLONE_NEWUSER | CLONE_NEWNET);
		break;
	case 14:
		r = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
		if (r == 0)
			_exit(0);
		if (r > 0)
			waitpid((pid_t)r, NULL, 0);
		break;
	case 15: {
		struct clone_args {
			uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
			    stack_size, tls;
		} ca = { .exit_signal = SIGCHLD };

		r = syscall(SYS_clone3, &ca, sizeof(ca));
		if (r == 0)
			_exit(0);
		if (r > 0)
			waitpid((pid_t)r, NULL, 0);
		break;
	}
	case 16:
		fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		r = setns(fd, CLONE_NEWNET);
		break;
	case 17: {
		pthread_t th;
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		r = pid > 0 && waitpid(pid, NULL, 0) == pid ? 0 : -1;
		if (r == 0 && (errno = pthread_create(&th, NULL, thread_main, NULL)) == 0)
			r = pthread_join(th, NULL) == 0 ? 0 : -1;
		else if (r == 0)
			r = -1;
		break;
	}
	}
	return r < 0 ? (errno ? errno : EIO) : 0;
}

/*
 * Whether this host answers the i386 ABI at all: a host kernel without
 * IA32 emulation (or booted with ia32_emulation=0) kills a process's
 * int 0x80 with a signal before any filter sees it.
 */
static bool host_has_i386(void)
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		long ret = 20; /* i386 getpid */

		__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st);
}

int main(void)
{
	size_t n = sizeof(calls) / sizeof(calls[0]);
	bool i386 = host_has_i386();

	plan((int)n + 3);
	for (size_t i = 0; i < n; i++) {
		int p[2], got = -1, st = 0;
		pid_t pid;

		if (!strcmp(calls[i].what, "getpid through int 0x80 (i386)") && !i386) {
			ok(true, "# SKIP this host has no i386 ABI: int 0x80 is killed unfiltered "
				 "too");
			continue;
		}
		if (pipe(p) < 0)
			return 1;
		pid = fork();
		if (pid == 0) {
			int e = -1;

			close(p[0]);
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && deny_host_calls() == 0)
				e = make_call((int)i);
			(void)!write(p[1], &e, sizeof(e));
			_exit(0);
		}
		close(p[1]);
		if (read(p[0], &got, sizeof(got)) != sizeof(got))
			got = -1;
		close(p[0]);
		waitpid(pid, &st, 0);
		/* Where the host lacks the call (no keyrings), ENOSYS stands for EPERM. */
		if (calls[i].want == EPERM && got == ENOSYS)
			got = EPERM;
		if (calls[i].want)
			ok(got == calls[i].want, "%s: refused (%s), got %s", calls[i].what,
			   strerror(calls[i].want), got < 0 ? "no answer" : strerror(got));
		else
			ok(got == 0, "%s: allowed, got %s", calls[i].what,
			   got < 0 ? "no answer"
			   : got   ? strerror(got)
				   : "success");
	}
	/* Unfiltered, these fail otherwise or not at all: the filter decided. */
	{
		int fd = socket(AF_VSOCK, SOCK_STREAM, 0);

		if (fd < 0 && errno == EAFNOSUPPORT)
			ok(true, "# SKIP this host has no vsock: socket(AF_VSOCK) refuses "
				 "unfiltered too");
		else
			ok(true, "unfiltered, socket(AF_VSOCK) gives %s",
			   fd >= 0 ? "a socket" : strerror(errno));
		if (fd >= 0)
			close(fd);
		long r = syscall(SYS_io_uring_setup, 1, NULL);
		int err = errno;

		if (r < 0 && err == ENOSYS)
			ok(true, "# SKIP this host has no io_uring");
		else
			ok(r < 0, "unfiltered, io_uring_setup fails otherwise (%s)", strerror(err));
	}

	{
		struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = "/nonexistent/sock" };
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		ok(connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 && errno == ENOENT,
		   "without the filter connect to a missing path gives ENOENT");
		close(fd);
	}
	return done_testing();
}
