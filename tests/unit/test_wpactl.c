// SPDX-License-Identifier: MIT
/*
 * test_wpactl.c - wpactl's reading of control-socket replies and events,
 * and its monitor's log and answers (rootfs/helpers/wpactl.c), included
 * with its main renamed, as tests/fuzz/fuzz_wpactl.c does.
 */
int wpactl_main(int argc, char **argv);
#define main wpactl_main
#include "../../rootfs/helpers/wpactl.c"
#undef main

#include "tap.h"

/* A monitor's LOG: lines formatted, read back as a client reads them. */
static void test_log_lines(void)
{
	static char line[LOG_LINE_MAX + 1];
	struct timespec ts = { 12, 345678901 }, at;
	const char *text;
	size_t n;

	n = format_log_line(line, false, "<3>CTRL-EVENT-CONNECTED - Connection to x", &ts);
	is_str(line, "12.345678901 <3>CTRL-EVENT-CONNECTED - Connection to x\n",
	       "format_log_line: an event, as the daemon sent it");
	is_int((long long)n, (long long)strlen(line), "format_log_line: its length");
	line[n - 1] = '\0';
	ok(parse_log_line(line, &at, &text) == LOG_EVENT && at.tv_sec == 12 &&
	       at.tv_nsec == 345678901,
	   "parse_log_line: an event and its time");
	is_str(text, "CTRL-EVENT-CONNECTED - Connection to x", "parse_log_line: without its level");

	n = format_log_line(line, false, "<3>two\nlines", &ts);
	is_str(line, "12.345678901 <3>two lines\n", "format_log_line: a newline becomes a space");

	/* An event that looks like a note is read as an event. */
	n = format_log_line(line, false, "<3># end: not the end", &ts);
	line[n - 1] = '\0';
	ok(parse_log_line(line, &at, &text) == LOG_EVENT && !strcmp(text, "# end: not the end"),
	   "parse_log_line: an event starting with '#' is no note");

	n = format_log_line(line, true, "end: the daemon (pid 7) exited", &ts);
	line[n - 1] = '\0';
	ok(parse_log_line(line, &at, &text) == LOG_NOTE &&
	       !strcmp(text, "end: the daemon (pid 7) exited"),
	   "parse_log_line: a note");

	ok(parse_log_line("wpactl: cannot reach /run/hostapd/ap0", &at, &text) == LOG_OTHER &&
	       parse_log_line("1.2345 <3>X", &at, &text) == LOG_OTHER &&
	       parse_log_line("1.234567890 X", &at, &text) == LOG_OTHER &&
	       parse_log_line(".234567890 <3>X", &at, &text) == LOG_OTHER &&
	       parse_log_line("1.2345678901 <3>X", &at, &text) == LOG_OTHER,
	   "parse_log_line: anything else is no event (a message, a short stamp, no '<')");

	{
		static char long_event[LOG_LINE_MAX + 100];

		memset(long_event, 'x', sizeof(long_event) - 1);
		long_event[0] = '<';
		n = format_log_line(line, false, long_event, &ts);
	}
	ok(n == LOG_LINE_MAX && line[n - 1] == '\n' && !memchr(line, '\n', n - 1),
	   "format_log_line: a long event is cut to one line of LOG_LINE_MAX");
}

/* A client's reading of LOG: whole lines only, the rest when it comes. */
static void test_log_reader(void)
{
	char path[] = "/tmp/test_wpactl.XXXXXX";
	const char *first = "1.000000001 <3>A\n2.000000002 <3>B\n3.0000";
	char *l1, *l2;
	off_t after1 = 0, after2 = 0, after3 = 0;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, first, strlen(first)) != (ssize_t)strlen(first))
		abort();
	unlink(path);
	mon.logfd = fd;
	memset(&lr, 0, sizeof(lr));
	lr.pos = 0;
	ok(log_fill(), "log_fill: something new");
	l1 = log_next(&after1);
	l2 = log_next(&after2);
	ok(l1 && l2 && !strcmp(l1, "1.000000001 <3>A") && !strcmp(l2, "2.000000002 <3>B") &&
	       after1 == 17 && after2 == 34,
	   "log_next: two whole lines and the offsets after them");
	ok(!log_next(&after3), "log_next: a line not yet whole waits");
	ok(!log_fill(), "log_fill: nothing new");
	if (write(fd, "00003 <3>C\n", 11) != 11)
		abort();
	ok(log_fill() && (l1 = log_next(&after3)) && !strcmp(l1, "3.000000003 <3>C") &&
	       after3 == 51,
	   "log_fill, log_next: the rest of the line, once written");
	close(fd);
	mon.logfd = -1;
}

/* The monitor's answers to its clients. */
static void test_monitor_answers(void)
{
	char path[] = "/tmp/test_wpactl.XXXXXX";
	char reply[96];
	long long at;
	bool pass;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, "0.000000001 # attached\n", 23) != 23)
		abort();
	mon.log = fd;
	mon.cursor = 23;
	ok(!monitor_answer("CURSOR", reply, sizeof(reply), &pass) && pass &&
	       !strcmp(reply, "OK 23") && log_size() == 23,
	   "CURSOR: the cursor, with the log");
	ok(!monitor_answer("CURSOR wait X", reply, sizeof(reply), &pass) && pass &&
	       !strcmp(reply, "OK 23") && log_size() > 23,
	   "CURSOR TEXT: the same cursor, TEXT noted");
	ok(!monitor_answer("MARK > REASSOCIATE", reply, sizeof(reply), &pass) && pass &&
	       mon.cursor == log_size() && mon.cursor > 23,
	   "MARK TEXT: a note, the cursor after it");
	{
		char buf[128] = "";
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 23);

		ok(n > 0 && strstr(buf, " # > REASSOCIATE\n"), "MARK TEXT: the note in the log");
	}
	at = (long long)mon.cursor;
	ok(!monitor_answer("SEEN 5", reply, sizeof(reply), &pass) && !pass &&
	       (long long)mon.cursor == at,
	   "SEEN: the cursor never moves back");
	if (write(fd, "9.000000009 <3>X\n", 17) != 17)
		abort();
	snprintf(reply, sizeof(reply), "SEEN %lld", at + 17);
	ok(!monitor_answer(reply, reply, sizeof(reply), &pass) && mon.cursor == at + 17,
	   "SEEN: forward, to a line the client read");
	monitor_answer("SEEN 99999", reply, sizeof(reply), &pass);
	is_str(reply, "FAIL bad offset", "SEEN: not beyond the log");
	monitor_answer("SEEN 1x", reply, sizeof(reply), &pass);
	is_str(reply, "FAIL bad offset", "SEEN: a number");
	ok(monitor_answer("DETACH", reply, sizeof(reply), &pass), "DETACH: the caller detaches");
	monitor_answer("PING", reply, sizeof(reply), &pass);
	is_str(reply, "FAIL unknown request", "an unknown request");
	close(fd);
	unlink(path);
	mon.log = -1;

	ok(parse_answer("OK 12", &at) && at == 12, "parse_answer: OK and the offset");
	ok(!parse_answer("OK", &at) && !parse_answer("OK -1", &at) && !parse_answer("OK 1x", &at) &&
	       !parse_answer("FAIL bad offset", &at),
	   "parse_answer: anything else");
}

int main(void)
{
	static char *pat[] = { "CTRL-EVENT-CONNECTED", "wpa_state=COMPLETED" };
	char buf[64] = "OK\n\n";
	FILE *out;

	plan(41);
	test_log_lines();
	test_log_reader();
	test_monitor_answers();
	is_int((long long)datagram_text(buf, 4), 2, "datagram_text: trailing newlines dropped");
	is_str(buf, "OK", "datagram_text: the reply");
	memcpy(buf, "\n\n", 2);
	is_int((long long)datagram_text(buf, 2), 0, "datagram_text: only newlines, empty");

	is_str(event_text("<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed"),
	       "CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed",
	       "event_text: the level goes");
	is_str(event_text("<12>X"), "X", "event_text: a level of two digits");
	/* It dropped everything up to the first '>' in the text. */
	is_str(event_text("<x AP-STA-CONNECTED a>b"), "<x AP-STA-CONNECTED a>b",
	       "event_text: no level, nothing dropped");
	is_str(event_text("<>x"), "<>x", "event_text: an empty level is no level");
	is_str(event_text("<3"), "<3", "event_text: an unclosed level is no level");

	ok(is_failure("FAIL-BUSY") && is_failure("UNKNOWN COMMAND") && !is_failure("OK"),
	   "is_failure: FAIL... and UNKNOWN COMMAND");

	/* Matches are printed on stdout, the TAP stream: elsewhere here. */
	out = stdout;
	stdout = fopen("/dev/null", "w");
	ev.want = 2;
	ev.npat = 2;
	ev.pat = pat;
	take_event("<3>CTRL-EVENT-SCAN-RESULTS ");
	take_event("<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed");
	{
		char reply[] = "bssid=02:00:00:00:01:00\nwpa_state=COMPLETED\nid=0";

		match_reply_lines(reply);
	}
	fclose(stdout);
	stdout = out;
	is_int(ev.seen, 2, "take_event: every event remembered");
	is_str(ev.text[1], "CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed",
	       "take_event: without its level");
	is_int(ev.matched, 2, "an event and a reply line matched");
	ok(ev.done, "two matches of two wanted: done");
	{
		char long_event[700];

		memset(long_event, 'x', sizeof(long_event) - 1);
		long_event[sizeof(long_event) - 1] = '\0';
		take_event(long_event);
		is_int((long long)strlen(ev.text[2]), 511, "a long event: truncated to fit");
		is_int(ev.matched, 2, "after done: no more matches");
	}
	return done_testing();
}
