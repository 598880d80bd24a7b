#!/bin/sh
test_description='DFS: the channel availability check, a radar while operating or listening, the 30-minute non-occupancy period'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# Channel 52 (5260 MHz) is a radar channel in the US (FCC): an AP listens
# for 60 s (the CAC, a timer of cfg80211) before its first beacon. The
# radar is hwsim's dfs_simulate_radar (wl_radar). hostapd sets the
# country as a user hint; the station's radio shares it.
#
# The CAC and non-occupancy timers are the kernel's (cfg80211 and
# mac80211 run them from delayed work): under time travel they came 1.5 to
# 4.5 s (CAC) and about 18 s (non-occupancy) after their nominal 60 s and
# 1800 s, the same in every run of a file; the bounds below allow that.
#
# After a radar hostapd draws the next channel at random among those it
# may use: chanlist leaves it channel 44 (5220 MHz, no radar duty), so
# that the draw, and what follows (another CAC or none), is the same in
# every run (the guest's random numbers are seeded, but the kernel's pool
# also takes in interrupt timing: docs/guest.md).
#
# dfs_ap [LINES...]: hostapd on ap0, channel 52, not waiting for the CAC.
dfs_ap () {
	printf '%s\n' ssid=umlrun-dfs country_code=US ieee80211d=1 ieee80211h=1 \
		hw_mode=a channel=52 "chanlist=44 52" "$@" >ap.conf &&
	wl_ap_start ap0 ap.conf
}

# dfs_sta: sta0 connects to the AP, and the country the AP announces has
# become the regulatory hint of the station's radio. cfg80211 applies such
# a hint a little after the association, and applying it resets every
# radio's DFS channel states: a radar that came first would see its
# channel's non-occupancy forgotten (no DFS-NOP-FINISHED ever). Under
# basic time travel it came first in 8 of 201 runs; hence the wait.
dfs_sta () {
	wl_net_sta sta0 open umlrun-dfs &&
	wl_connected sta0 &&
	wl_until 5 grep -q "CTRL-EVENT-REGDOM-CHANGE init=COUNTRY_IE" "$(wl_log sta0)"
}

# dfs_at FILE EVENT: the stamp of the first line of FILE holding EVENT
# (wl_wait -T output, or a daemon log: its "SECONDS.USEC:" prefix).
dfs_at () {
	grep -F -- "$2" "$1" | awk '{ sub(/:$/, "", $1); print $1; exit }'
}

# dfs_gap A B MIN MAX: B - A is within [MIN, MAX] seconds.
dfs_gap () {
	awk -v a="$1" -v b="$2" -v min="$3" -v max="$4" \
		'BEGIN { d = b - a; if (d < min || d > max) { printf "gap %.3f s not in [%s, %s]\n", d, min, max; exit 1 } }' >&2
}

test_expect_success 'CAC: 60 s of listening on channel 52, then the AP beacons and a station joins' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	dfs_ap &&
	wl_wait ap0 -T -t 80 -n 2 -s STATUS state=DFS AP-ENABLED >cac &&
	wl_ctl ap0 STATUS >status &&
	grep -q "^state=ENABLED" status &&
	grep -q "^freq=5260" status &&
	grep -q "DFS-CAC-START freq=5260 chan=52" "$(wl_log ap0)" &&
	grep -q "DFS-CAC-COMPLETED success=1 freq=5260" "$(wl_log ap0)" &&
	# Timed by hostapd itself: a poll that sees state=DFS may come a
	# little after the CAC began (under basic time travel, by the CPU
	# time spent in between).
	dfs_gap $(dfs_at "$(wl_log ap0)" DFS-CAC-START) \
		$(dfs_at "$(wl_log ap0)" DFS-CAC-COMPLETED) 60 66 &&
	dfs_sta &&
	test "$(wl_status sta0 freq)" = 5260 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'a radar while operating: the AP switches to a channel without radar duty, the station follows' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	dfs_ap &&
	wl_wait ap0 -t 80 -s STATUS state=ENABLED AP-ENABLED >/dev/null &&
	dfs_sta &&
	wl_wait ap0 -t 20 -x "$(wl_radar_cmd ap0)" \
		AP-CSA-FINISHED >csa &&
	grep -q "DFS-RADAR-DETECTED freq=5260" "$(wl_log ap0)" &&
	new=$(sed -n "s/.*DFS-NEW-CHANNEL freq=\([0-9]*\).*/\1/p" "$(wl_log ap0)" | head -n 1) &&
	test "$new" = 5220 &&
	grep -q "AP-CSA-FINISHED freq=5220 dfs=0" csa &&
	wl_wait sta0 -t 20 -s "STATUS" "freq=$new" "CTRL-EVENT-CHANNEL-SWITCH freq=$new" >/dev/null &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'a radar during the CAC: the AP never beacons on channel 52 and starts elsewhere' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	dfs_ap &&
	wl_wait ap0 -t 10 -s STATUS state=DFS DFS-CAC-START >/dev/null &&
	wl_wait ap0 -t 80 -x "$(wl_radar_cmd ap0)" \
		AP-ENABLED >/dev/null &&
	grep -q "DFS-RADAR-DETECTED freq=5260" "$(wl_log ap0)" &&
	! grep -q "DFS-CAC-COMPLETED success=1 freq=5260" "$(wl_log ap0)" &&
	freq=$(wl_ctl ap0 STATUS | sed -n "s/^freq=//p") &&
	test "$freq" = 5220 &&
	dfs_sta &&
	test "$(wl_status sta0 freq)" = "$freq" &&
	wl_air_lacks "5260 MHz"
'

test_expect_success 'non-occupancy: after a radar, channel 52 is barred for 30 minutes, then free again' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	dfs_ap &&
	wl_wait ap0 -t 80 -s STATUS state=ENABLED AP-ENABLED >/dev/null &&
	dfs_sta &&
	wl_wait ap0 -T -t 20 -x "$(wl_radar_cmd ap0)" \
		DFS-RADAR-DETECTED >radar &&
	# The non-occupancy period is a timer of cfg80211: 1800 s. Its
	# delayed work sits 180000 jiffies out (HZ=100), on the level of the
	# timer wheel whose slots are 4096 jiffies wide: it may run up to
	# 40.96 s late, never early. Where it lands depends on the jiffies at
	# the radar (6.1 and 7.2 differ), the same every run.
	wl_wait ap0 -T -t 1900 "DFS-NOP-FINISHED freq=5260" >nop &&
	dfs_gap $(dfs_at radar DFS-RADAR-DETECTED) $(dfs_at nop DFS-NOP-FINISHED) 1800 1841 &&
	# The station stayed with the AP on its new channel all along.
	test "$(wl_status sta0 wpa_state)" = COMPLETED &&
	test $(grep -c CTRL-EVENT-CONNECTED "$(wl_log sta0)") = 1
'

test_done
