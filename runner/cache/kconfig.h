/* SPDX-License-Identifier: MIT */
/*
 * kconfig.h - config fragments: read them, and check that every option they
 * ask for survived `make olddefconfig`.
 *
 * The merge itself is the kernel's scripts/kconfig/merge_config.sh; this
 * module only knows what was requested, so it can name what was lost
 * (an option the kernel does not have, or one whose dependencies are unmet).
 *
 *	struct kreq_set set = { 0 };
 *	if (kreq_add_fragment(&set, "uml-config/wireless.config", false, &err) < 0) ...
 *	char *lost = kreq_verify(&set, dotconfig_text);  // NULL when all survived
 */
#ifndef UMLRUN_KCONFIG_H
#define UMLRUN_KCONFIG_H

#include "util.h"

struct kreq {
	char *name;   /* CONFIG_FOO */
	char *value;  /* "y", "m", "\"str\"", "42", or "n" for "is not set" */
	char *origin; /* file:line */
	bool user;    /* from --config: a loss is the user's to fix (exit 2) */
};

struct kreq_set {
	struct kreq *v;
	size_t n;
};

/* Parse one fragment's text; later requests for a name override earlier. */
int kreq_parse(struct kreq_set *set, const char *text, const char *file, bool user, struct uerr *e);
int kreq_add_fragment(struct kreq_set *set, const char *path, bool user, struct uerr *e);
/*
 * Compare with a final .config. Returns NULL if everything survived,
 * otherwise one line naming each lost option; *user_lost tells whether a
 * user fragment asked for one of them.
 */
char *kreq_verify(const struct kreq_set *set, const char *dotconfig, bool *user_lost);
void kreq_free(struct kreq_set *set);

#endif
