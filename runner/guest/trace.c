// SPDX-License-Identifier: MIT
/* trace.c - the kernel's boot-time tracing parameters, and whether it can trace. */
#define _GNU_SOURCE
#include "trace.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

char *trace_event_param(char *const *lists, size_t n)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; i < n; i++)
		sb_printf(&sb, "%s%s", i ? "," : "", lists[i]);
	return sb.len ? sb_detach(&sb) : NULL;
}

char *kprobe_event_param(char *const *specs, size_t n)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_adds(&sb, ";");
		for (const char *p = specs[i]; *p; p++)
			sb_add(&sb, *p == ' ' ? "," : p, 1);
	}
	return sb.len ? sb_detach(&sb) : NULL;
}

static bool config_has(const char *config, const char *name)
{
	_cleanup_free_ char *line = xasprintf("\n%s=y\n", name);
	_cleanup_free_ char *text = xasprintf("\n%s", config);

	return strstr(text, line) != NULL;
}

int trace_check_kernel(const char *config, const char *release, bool events, bool kprobes,
		       struct uerr *e)
{
	if (kprobes && !config_has(config, "CONFIG_KPROBE_EVENTS"))
		return uerr_set(e, EXIT_USAGE,
				"--kprobe-event: kernel %s has no kprobes (CONFIG_KPROBE_EVENTS): "
				"User-Mode Linux does not support them (arch/um selects no "
				"HAVE_KPROBES); trace a tracepoint with --trace-event instead",
				release);
	if (events && !config_has(config, "CONFIG_EVENT_TRACING"))
		return uerr_set(e, EXIT_USAGE,
				"--trace-event: kernel %s has no event tracing "
				"(CONFIG_EVENT_TRACING); build it with uml-config/tracing.config "
				"(docs/debugging.md)",
				release);
	return 0;
}

bool trace_overflowed(const char *path, unsigned long long *kept, unsigned long long *written)
{
	static const char key[] = "# entries-in-buffer/entries-written: ";
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char head[4096];
	struct stat st;
	const char *at;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	n = read(fd, head, sizeof(head) - 1);
	if (n <= 0)
		return false;
	head[n] = '\0';
	at = strstr(head, key);
	return at && sscanf(at + strlen(key), "%llu/%llu", kept, written) == 2 && *kept < *written;
}
