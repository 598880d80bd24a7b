/* SPDX-License-Identifier: MIT */
/*
 * host.h - the host: its CPU, the CPUs usable, its kernel's release, the
 * monotonic clock.
 */
#ifndef UMLRUN_UTIL_HOST_H
#define UMLRUN_UTIL_HOST_H

#include <stdbool.h>

/*
 * The host's CPU as a person compares machines by: the model /proc/cpuinfo
 * names ("model name", else "unknown CPU") and how many are online,
 * "AMD EPYC, 2 CPUs". Allocated.
 */
char *host_cpu_describe(void);
/*
 * The CPUs this process may run on (its affinity: taskset, a cgroup's
 * cpuset), at least 1: the default -j, one guest per CPU.
 */
int cpus_usable(void);
/* Whether the host's kernel (uname's release) is MAJOR.MINOR or later. */
bool host_kernel_at_least(int major, int minor);
/* CLOCK_MONOTONIC in seconds: wall-clock durations. */
double monotonic_now(void);

#endif
