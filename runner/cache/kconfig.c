// SPDX-License-Identifier: MIT
/* kconfig.c - parse config fragments and verify the merged .config. */
#define _GNU_SOURCE
#include "kconfig.h"

#include <ctype.h>
#include <string.h>

static bool valid_name(const char *s, size_t len)
{
	if (len <= 7 || strncmp(s, "CONFIG_", 7))
		return false;
	for (size_t i = 7; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static void kreq_put(struct kreq_set *set, char *name, char *value, char *origin, bool user)
{
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->v[i].name, name))
			continue;
		free(set->v[i].name);
		free(set->v[i].value);
		free(set->v[i].origin);
		set->v[i] = (struct kreq){ name, value, origin, user };
		return;
	}
	set->v = xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
	set->v[set->n++] = (struct kreq){ name, value, origin, user };
}

/* "CONFIG_X=v" or "# CONFIG_X is not set"; NULL name for other lines. */
static int parse_line(const char *line, size_t len, char **name, char **value)
{
	static const char unset[] = " is not set";
	const char *eq;

	*name = *value = NULL;
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (len > 2 && !strncmp(line, "# CONFIG_", 9)) {
		size_t ul = sizeof(unset) - 1;

		if (len < ul || memcmp(line + len - ul, unset, ul))
			return 0; /* an ordinary comment */
		if (!valid_name(line + 2, len - ul - 2))
			return -1;
		*name = xstrndup(line + 2, len - ul - 2);
		*value = xstrdup("n");
		return 0;
	}
	if (len == 0 || line[0] == '#')
		return 0;
	eq = memchr(line, '=', len);
	if (!eq || !valid_name(line, (size_t)(eq - line)) || eq + 1 == line + len)
		return -1;
	*name = xstrndup(line, (size_t)(eq - line));
	*value = xstrndup(eq + 1, len - (size_t)(eq + 1 - line));
	return 0;
}

int kreq_parse(struct kreq_set *set, const char *text, const char *file, bool user, struct uerr *e)
{
	const char *p = text;

	for (int lineno = 1; *p; lineno++) {
		const char *nl = strchrnul(p, '\n');
		char *name, *value;

		if (parse_line(p, (size_t)(nl - p), &name, &value) < 0)
			return uerr_set(e, user ? EXIT_USAGE : EXIT_INFRA,
					"%s:%d: not a config line (want CONFIG_FOO=y or "
					"'# CONFIG_FOO is not set'): %.*s",
					file, lineno, (int)(nl - p), p);
		if (name)
			kreq_put(set, name, value, xasprintf("%s:%d", file, lineno), user);
		p = *nl ? nl + 1 : nl;
	}
	return 0;
}

int kreq_add_fragment(struct kreq_set *set, const char *path, bool user, struct uerr *e)
{
	_cleanup_free_ char *text = NULL;
	int r = read_file(path, &text, NULL);

	if (r < 0)
		return uerr_set(e, user ? EXIT_USAGE : EXIT_INFRA, "config fragment %s: %s", path,
				read_file_error(r));
	return kreq_parse(set, text, path, user, e);
}

/* The value .config gives NAME: "n" when unset or absent. */
static char *dotconfig_value(const char *dotconfig, const char *name)
{
	size_t nl = strlen(name);
	const char *p = dotconfig;

	while (*p) {
		const char *end = strchrnul(p, '\n');

		if (!strncmp(p, name, nl) && p[nl] == '=')
			return xstrndup(p + nl + 1, (size_t)(end - p - (ptrdiff_t)nl - 1));
		p = *end ? end + 1 : end;
	}
	return xstrdup("n");
}

char *kreq_verify(const struct kreq_set *set, const char *dotconfig, bool *user_lost)
{
	struct strbuf sb = { 0 };

	*user_lost = false;
	for (size_t i = 0; i < set->n; i++) {
		_cleanup_free_ char *got = dotconfig_value(dotconfig, set->v[i].name);

		if (!strcmp(got, set->v[i].value))
			continue;
		sb_printf(&sb, "%s%s=%s (%s) became %s", sb.len ? "; " : "", set->v[i].name,
			  set->v[i].value, set->v[i].origin,
			  strcmp(got, "n")
			      ? got
			      : "unset (no such option, or its dependencies are not met)");
		*user_lost |= set->v[i].user;
	}
	return sb.len ? sb_detach(&sb) : NULL;
}

void kreq_free(struct kreq_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->v[i].name);
		free(set->v[i].value);
		free(set->v[i].origin);
	}
	free(set->v);
	set->v = NULL;
	set->n = 0;
}
