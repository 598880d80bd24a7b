// SPDX-License-Identifier: MIT
/* profile.c - the debug kernel profiles. */
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
