// SPDX-License-Identifier: MIT
/*
 * fuzz_wpactl.c - wpactl's reading of what hostapd and wpa_supplicant send
 * on their control sockets (rootfs/helpers/wpactl.c).
 *
 * wpactl.c is a program: it is included here with its main renamed, so
 * that its static reply and event handling can be called; nothing is sent
 * or received.
 *
 * Feeds: the input split at the byte 0x1e into datagrams, each cut to the
 * MSG_MAX - 1 bytes recv takes; each goes through datagram_text, then, as
 * in `wpactl wait -s STATUS`, an event ("<N>...") to take_event and a
 * reply to is_failure and match_reply_lines. The wait's patterns are
 * fixed: CTRL-EVENT-CONNECTED, wpa_state=COMPLETED and "=", three matches
 * wanted.
 *
 * Asserts, beyond not crashing:
 *   - datagram_text gives a NUL-terminated text of its length, no longer
 *     than the datagram, with no newline at its end;
 *   - event_text drops exactly a "<digits>" prefix, and nothing else;
 *   - every event is remembered (ev.seen counts them), truncated to fit;
 *   - matches are never more than wanted, nor than lines and events seen,
 *     and the wait is done exactly when enough have come.
 */
#include "fuzz.h"

int wpactl_main(int argc, char **argv);
#define main wpactl_main
#include "../../rootfs/helpers/wpactl.c"
#undef main

#include <ctype.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

static char *patterns[] = { "CTRL-EVENT-CONNECTED", "wpa_state=COMPLETED", "=" };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Matches are printed to stdout: nowhere, here. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

static void check_event_text(const char *msg)
{
	const char *text = event_text(msg);
	size_t skipped = (size_t)(text - msg);

	expect(text >= msg && skipped <= strlen(msg));
	if (skipped) {
		expect(skipped >= 3 && msg[0] == '<' && msg[skipped - 1] == '>');
		for (size_t i = 1; i + 1 < skipped; i++)
			expect(isdigit((unsigned char)msg[i]));
	} else {
		expect(msg[0] != '<' || !isdigit((unsigned char)msg[1]) ||
		       msg[1 + strspn(msg + 1, "0123456789")] != '>');
	}
}

static void one_datagram(const uint8_t *data, size_t n, int *lines)
{
	static char buf[MSG_MAX];
	int seen = ev.seen, matched = ev.matched;
	size_t len;

	if (n > sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	memcpy(buf, data, n);
	len = datagram_text(buf, n);
	expect(len <= n && buf[len] == '\0' && (len == 0 || buf[len - 1] != '\n'));
	if (is_event(buf)) {
		check_event_text(buf);
		take_event(buf);
		expect(ev.seen == seen + 1);
		expect(strlen(ev.text[seen % HISTORY]) < sizeof(ev.text[0]));
		expect(ev.matched - matched <= 1);
		(*lines)++;
	} else {
		(void)is_failure(buf);
		if (!ev.done) {
			for (const char *p = buf; *p; p++)
				*lines += *p == '\n';
			(*lines)++;
			match_reply_lines(buf);
		}
		expect(ev.seen == seen);
	}
	expect(ev.matched <= ev.want && ev.matched <= *lines);
	expect(ev.done == (ev.matched >= ev.want));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *p = data;
	int lines = 0;

	memset(&ev, 0, sizeof(ev));
	ev.want = 3;
	ev.npat = sizeof(patterns) / sizeof(patterns[0]);
	ev.pat = patterns;
	while (p <= end) {
		const uint8_t *sep = memchr(p, 0x1e, (size_t)(end - p));

		if (!sep)
			sep = end;
		one_datagram(p, (size_t)(sep - p), &lines);
		p = sep + 1;
	}
	return 0;
}
