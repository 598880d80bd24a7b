// SPDX-License-Identifier: MIT
/*
 * test_wpactl.c - wpactl's reading of control-socket replies and events
 * (rootfs/helpers/wpactl.c), included with its main renamed, as
 * tests/fuzz/fuzz_wpactl.c does.
 */
int wpactl_main(int argc, char **argv);
#define main wpactl_main
#include "../../rootfs/helpers/wpactl.c"
#undef main

#include "tap.h"

int main(void)
{
	static char *pat[] = { "CTRL-EVENT-CONNECTED", "wpa_state=COMPLETED" };
	char buf[64] = "OK\n\n";
	FILE *out;

	plan(15);
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
