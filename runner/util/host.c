// SPDX-License-Identifier: MIT
/*
 * host.c - the host: its CPU, the CPUs usable, its kernel's release, the
 * monotonic clock.
 */
#define _GNU_SOURCE
#include "host.h"

#include "alloc.h"
#include "text.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool host_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

int cpus_usable(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

char *host_cpu_describe(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	_cleanup_free_ char *line = NULL, *model = NULL;
	size_t cap = 0;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	while (f && !model && getline(&line, &cap, f) > 0) {
		char *v = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !v)
			continue;
		v += strspn(v + 1, " \t") + 1;
		v[strcspn(v, "\n")] = '\0';
		if (*v)
			model = str_shown(v);
	}
	if (f)
		fclose(f);
	return xasprintf("%s, %ld CPU%s", model ? model : "unknown CPU", n, n == 1 ? "" : "s");
}
