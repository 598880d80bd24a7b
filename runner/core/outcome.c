// SPDX-License-Identifier: MIT
/* outcome.c - how a guest ended, and the console's crash and report marks. */
#define _GNU_SOURCE
#include "outcome.h"
#include "util.h"

const char *guest_end_name(enum guest_end e)
{
	static const char *const names[] = { "reported", "sim-timeout", "wall-timeout", "crash",
					     "killed",	 "interrupted", "init-error" };

	return names[e];
}

const char *guest_crash_mark(const char *text, size_t len)
{
	static const char *const marks[] = { "Kernel panic - not syncing", "Oops",
					     "BUG: ", "general protection fault" };

	return first_mark(text, len, marks, sizeof(marks) / sizeof(marks[0]));
}

const char *kernel_report_mark(const char *text, size_t len)
{
	/*
	 * The first line of each tool's report (mm/kasan/report.c,
	 * kernel/locking/lockdep.c, kernel/sched/core.c, lib/ubsan.c), and the
	 * kernel's word that a --trace-event it was given does not exist.
	 */
	static const char *const marks[] = {
		"BUG: KASAN: ",
		"WARNING: possible circular locking dependency detected",
		"WARNING: possible recursive locking detected",
		"WARNING: inconsistent lock state",
		"WARNING: possible irq lock inversion dependency detected",
		"WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected",
		"WARNING: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected",
		"WARNING: suspicious RCU usage",
		"WARNING: bad unlock balance detected!",
		"WARNING: lock held when returning to user space!",
		"WARNING: held lock freed!",
		"BUG: sleeping function called from invalid context",
		"BUG: scheduling while atomic",
		"BUG: workqueue leaked lock",
		"BUG: spinlock ",
		"UBSAN: ",
		"Failed to enable trace event: ",
	};

	return first_mark(text, len, marks, sizeof(marks) / sizeof(marks[0]));
}
