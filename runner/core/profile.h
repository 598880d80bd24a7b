/* SPDX-License-Identifier: MIT */
/*
 * profile.h - debug kernel profiles (--profile=NAME).
 *
 * A profile is one more config fragment, uml-config/profiles/NAME.config,
 * merged after the project's own and before any --config: each profile is
 * its own cached kernel (its fragment is in the kernel's key), and every
 * option it asks for is checked after olddefconfig like the project's
 * (exit 3 when one does not survive: the fragment is the project's).
 *
 *	const struct profile *p = profile_find("kasan");   // NULL: unknown
 *	char *frag = profile_fragment(project, p);
 */
#ifndef UMLRUN_PROFILE_H
#define UMLRUN_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

struct profile {
	const char *name;
	const char *what; /* one line, for messages and docs */
	bool gcov;	  /* kernel coverage: .gcno kept, .gcda written per test */
};

const struct profile *profile_find(const char *name);
/* "hardened, kasan, lockdep, gcov": for messages. */
const char *profile_names(void);
/* PROJECT/uml-config/profiles/NAME.config, malloc'd. */
char *profile_fragment(const char *project, const struct profile *p);

#endif
