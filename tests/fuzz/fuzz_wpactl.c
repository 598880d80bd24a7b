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
 * wanted. Each datagram is also what a monitor logs (an event goes through
 * format_log_line and back through parse_log_line), a line of its LOG as
 * a client reads it (parse_log_line) and a client's request to a monitor
 * (monitor_answer, its LOG /dev/null). The whole input is also a monitor's
 * LOG, read by log_fill and log_next as a waiting client reads it.
 *
 * Asserts, beyond not crashing:
 *   - datagram_text gives a NUL-terminated text of its length, no longer
 *     than the datagram, with no newline at its end;
 *   - event_text drops exactly a "<digits>" prefix, and nothing else;
 *   - every event is remembered (ev.seen counts them), truncated to fit;
 *   - matches are never more than wanted, nor than lines and events seen,
 *     and the wait is done exactly when enough have come;
 *   - an event logged is one line, read back as an event of the same time,
 *     its text a cut of what was sent; a line read is an event or a note
 *     only with a stamp of 9 decimals, its text inside the line;
 *   - a monitor answers "OK OFFSET" (then parse_answer takes it, and the
 *     log goes along only then) or "FAIL ...", never moves its cursor back
 *     or past its log;
 *   - the LOG reader hands out lines without newlines, in order, the
 *     offset after each one further on, never past the input.
 */
#include "fuzz.h"

int wpactl_main(int argc, char **argv);
#define main wpactl_main
#include "../../rootfs/helpers/wpactl.c"
#undef main

#include <ctype.h>
#include <stdint.h>
#include <sys/mman.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

static char *patterns[] = { "CTRL-EVENT-CONNECTED", "wpa_state=COMPLETED", "=" };

/* A file for the LOG the reader reads (the input, each time). */
static int log_file = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Matches are printed to stdout: nowhere, here. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	/* The monitor's notes go nowhere; its size is 0. */
	mon.log = open("/dev/null", O_WRONLY | O_CLOEXEC);
	log_file = memfd_create("fuzz_wpactl_log", MFD_CLOEXEC);
	if (mon.log < 0 || log_file < 0)
		abort();
	return 0;
}

/* As the monitor logs an event, and as a client reads it back. */
static void check_log_roundtrip(const char *msg)
{
	static char line[LOG_LINE_MAX + 1];
	struct timespec ts = { 1234, 567890123 }, at;
	const char *text, *sent = event_text(msg);
	size_t n = format_log_line(line, false, msg, &ts);

	expect(n <= LOG_LINE_MAX && n == strlen(line) && line[n - 1] == '\n');
	expect(!memchr(line, '\n', n - 1));
	line[n - 1] = '\0';
	expect(parse_log_line(line, &at, &text) == LOG_EVENT);
	expect(at.tv_sec == ts.tv_sec && at.tv_nsec == ts.tv_nsec);
	/* What was sent, newlines as spaces, maybe cut. */
	expect(strlen(text) <= strlen(sent));
	for (size_t i = 0; text[i]; i++)
		expect(text[i] == (sent[i] == '\n' ? ' ' : sent[i]));
}

/* Any line, as a client reads it. */
static void check_log_line(const char *line)
{
	struct timespec at;
	const char *text = NULL;
	enum log_kind kind = parse_log_line(line, &at, &text);

	if (kind == LOG_OTHER)
		return;
	expect(text > line && text <= line + strlen(line));
	expect(at.tv_nsec >= 0 && at.tv_nsec < 1000000000L && at.tv_sec >= 0);
	expect(strchr(line, '.') && line[strspn(line, "0123456789")] == '.');
}

/* Any request, as the monitor answers it. */
static void check_answer(const char *req)
{
	char reply[96];
	off_t before = mon.cursor;
	long long at;
	bool pass = false;

	if (monitor_answer(req, reply, sizeof(reply), &pass)) {
		expect(!strcmp(req, "DETACH"));
		return;
	}
	expect(mon.cursor >= before && mon.cursor <= log_size());
	if (!strncmp(reply, "OK ", 3)) {
		expect(parse_answer(reply, &at) && at == (long long)mon.cursor);
	} else {
		expect(!strncmp(reply, "FAIL ", 5) && !pass && !parse_answer(reply, &at));
	}
}

/* The whole input as a monitor's LOG, read as a waiting client reads it. */
static void check_log_reader(const uint8_t *data, size_t size)
{
	off_t last = 0, after;
	char *line;
	int rounds = 0;

	if (ftruncate(log_file, 0) < 0 || pwrite(log_file, data, size, 0) != (ssize_t)size)
		abort();
	mon.logfd = log_file;
	memset(&lr, 0, sizeof(lr));
	for (;;) {
		while ((line = log_next(&after))) {
			expect(!strchr(line, '\n'));
			expect(after > last && (size_t)after <= size);
			last = after;
			check_log_line(line);
		}
		if (!log_fill())
			break;
		expect(++rounds <= (int)(size / 2 + 2));
	}
	mon.logfd = -1;
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
	check_log_line(buf);
	check_answer(buf);
	if (is_event(buf)) {
		check_event_text(buf);
		check_log_roundtrip(buf);
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

	check_log_reader(data, size);
	mon.cursor = 0;
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
