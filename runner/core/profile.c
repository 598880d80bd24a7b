// SPDX-License-Identifier: MIT
/* profile.c - the debug kernel profiles and the reports their tools print. */
#define _GNU_SOURCE
#include "profile.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static const struct profile profiles[] = {
	{ "hardened", "memory zeroed on allocation and free, hardened lists and usercopy", false },
	{ "kasan", "KASAN: out-of-bounds and use-after-free reports", false },
	{ "lockdep", "lockdep (PROVE_LOCKING) and sleeping-in-atomic checks", false },
	{ "gcov", "kernel coverage (UML's CONFIG_GCOV): .gcda per test, an HTML report per run",
	  true },
};

const struct profile *profile_find(const char *name)
{
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *profile_names(void)
{
	static char names[128];

	if (!names[0])
		for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", profiles[i].name);
	return names;
}

char *profile_fragment(const char *project, const struct profile *p)
{
	return xasprintf("%s/uml-config/profiles/%s.config", project, p->name);
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
