// SPDX-License-Identifier: MIT
/*
 * probe - one kind of operation, N times, for bench/percall.sh: what a
 * guest process costs, piece by piece, on this host.
 *
 *   probe syscall N        N getppid() system calls
 *   probe fault N          N first touches of fresh anonymous pages
 *   probe cpuid N          N CPUID instructions (a VM exit under a hypervisor)
 *   probe switch N         N round trips between two processes on one CPU
 *                          over pipes: two context switches each, as a
 *                          guest system call costs the host
 *   probe spawn N PROG...  N times: start PROG, wait for it
 *   probe count PROG...    run PROG single-stepped; print how many
 *                          instructions and CPUIDs it executed
 *   probe exit             exit at once (after the C library's start-up)
 *
 * The guest copy is static, so it runs from an overlay with no library.
 * Timing is left to the caller (the wall of a whole umlrun exec): under
 * time travel the guest's own clock does not see CPU time.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static long count_arg(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 0) {
		fprintf(stderr, "probe: '%s' is not a count\n", s);
		exit(2);
	}
	return n;
}

static int spawn_wait(char **argv)
{
	int status;
	pid_t pid;
	int err = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);

	if (err) {
		fprintf(stderr, "probe: %s: %s\n", argv[0], strerror(err));
		return -1;
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return 0;
}

/* Single-steps PROG to its end, counting CPUID (0f a2) instructions. */
static int count(char **argv)
{
	long insns = 0, cpuids = 0;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status))
		return -1;
	for (;;) {
		struct user_regs_struct r;
		long word;

		if (ptrace(PTRACE_GETREGS, pid, NULL, &r) < 0)
			break;
		errno = 0;
		word = ptrace(PTRACE_PEEKTEXT, pid, (void *)r.rip, NULL);
		if (!errno && (word & 0xffff) == 0xa20f)
			cpuids++;
		insns++;
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) < 0 || waitpid(pid, &status, 0) < 0)
			break;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
	}
	printf("%ld instructions, %ld cpuid\n", insns, cpuids);
	return 0;
}

/* N round trips of one byte between this process and a child, both on the CPU this one runs on. */
static int ping_pong(long n)
{
	int there[2], back[2];
	cpu_set_t one;
	char c = 0;
	pid_t pid;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0 || pipe(there) < 0 || pipe(back) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(there[1]);
		close(back[0]);
		while (read(there[0], &c, 1) == 1 && write(back[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(there[0]);
	close(back[1]);
	for (long i = 0; i < n; i++)
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			return -1;
	close(there[1]);
	return waitpid(pid, NULL, 0) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "exit"))
		return 0;
	if (!strcmp(what, "count") && argc > 2)
		return count(argv + 2) < 0 ? 1 : 0;
	if (argc < 3) {
		fprintf(stderr, "usage: probe syscall|fault|cpuid|switch N | spawn N PROG... | "
				"count PROG... | exit\n");
		return 2;
	}
	long n = count_arg(argv[2]);

	if (!strcmp(what, "syscall")) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (!strcmp(what, "fault")) {
		long page = sysconf(_SC_PAGESIZE);
		char *p = n ? mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
			    : NULL;

		if (p == MAP_FAILED)
			return 1;
		for (long i = 0; i < n; i++)
			p[i * page] = 1;
	} else if (!strcmp(what, "cpuid")) {
		unsigned int a, b, c, d;

		for (long i = 0; i < n; i++)
			__cpuid_count(0, 0, a, b, c, d);
	} else if (!strcmp(what, "switch")) {
		if (ping_pong(n) < 0)
			return 1;
	} else if (!strcmp(what, "spawn") && argc > 3) {
		for (long i = 0; i < n; i++)
			if (spawn_wait(argv + 3) < 0)
				return 1;
	} else {
		fprintf(stderr, "probe: unknown operation '%s'\n", what);
		return 2;
	}
	return 0;
}
