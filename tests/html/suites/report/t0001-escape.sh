#!/bin/sh
# For the HTML report: artifacts to link (a name that needs percent-encoding,
# one in a subfolder) and titles that are HTML, which must stay text.
echo "KTAP version 1"
echo "1..2"
echo capture >"$UMLRUN_ARTIFACTS/a b&c.pcap" &&
	mkdir "$UMLRUN_ARTIFACTS/sub" &&
	echo log >"$UMLRUN_ARTIFACTS/sub/hostapd.log" &&
	echo "ok 1 wrote <artifacts> & \"logs\"" ||
	echo "not ok 1 wrote <artifacts> & \"logs\""
echo "ok 2 <script>document.title='x'</script><img src=x>"
