#!/bin/sh
test_description='scanning several channels, roaming between two APs'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# roam_ap NAME CHANNEL: a WPA2-PSK AP of the network "umlrun-roam"; roam_sta
# NAME: a station of it.
roam_ap () {
	wl_net_ap "$1" psk umlrun-roam "same everywhere" "channel=$2"
}

roam_sta () {
	wl_net_sta "$1" psk umlrun-roam "same everywhere"
}

test_expect_success 'a scan finds three APs on channels 1, 6 and 11' '
	wl_setup &&
	wl_radios ap1 ap6 ap11 sta0 &&
	for ch in 1 6 11
	do
		wl_ap ap$ch <<-EOF || return 1
		ssid=umlrun-ch$ch
		channel=$ch
		EOF
	done &&
	# No network configured: the station scans only when told to.
	wl_sta sta0 </dev/null &&
	wl_wait sta0 -t 30 -c SCAN CTRL-EVENT-SCAN-RESULTS >/dev/null &&
	wl_ctl sta0 SCAN_RESULTS >scan &&
	grep -q "^$(wl_addr ap1)	2412	.*	umlrun-ch1$" scan &&
	grep -q "^$(wl_addr ap6)	2437	.*	umlrun-ch6$" scan &&
	grep -q "^$(wl_addr ap11)	2462	.*	umlrun-ch11$" scan &&
	# A header line, then exactly the three BSSs.
	test_line_count = 4 scan
'

test_expect_success 'ROAM moves the station to the other AP, and its data with it' '
	wl_setup &&
	wl_radios apa apb sta0 &&
	roam_ap apa 1 &&
	roam_ap apb 6 &&
	wl_ip apa 10.0.0.1/24 &&
	wl_ip apb 10.0.0.2/24 &&
	roam_sta sta0 &&
	wl_connected sta0 &&
	wl_ip sta0 10.0.0.100/24 &&
	# Both APs are equally good: find out which one was picked.
	if test "$(wl_status sta0 bssid)" = "$(wl_addr apa)"
	then
		from=apa to=apb from_ip=10.0.0.1 to_ip=10.0.0.2
	else
		from=apb to=apa from_ip=10.0.0.2 to_ip=10.0.0.1
	fi &&
	wl_ping sta0 $from_ip &&
	wl_no_ping sta0 $to_ip &&
	wl_wait sta0 -t 30 -c "ROAM $(wl_addr $to)" \
		"CTRL-EVENT-CONNECTED - Connection to $(wl_addr $to)" >/dev/null &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr $to)" &&
	wl_authorized $to sta0 &&
	# The two APs are separate hosts: only the new one answers now.
	wl_ping sta0 $to_ip &&
	wl_no_ping sta0 $from_ip
'

test_expect_success 'when its AP goes away the station moves to the other one' '
	wl_setup &&
	wl_radios apa apb sta0 &&
	roam_ap apa 1 &&
	roam_ap apb 11 &&
	wl_ip apa 10.0.0.1/24 &&
	wl_ip apb 10.0.0.2/24 &&
	roam_sta sta0 &&
	wl_connected sta0 &&
	if test "$(wl_status sta0 bssid)" = "$(wl_addr apa)"
	then
		gone=apa to=apb to_ip=10.0.0.2
	else
		gone=apb to=apa to_ip=10.0.0.1
	fi &&
	wl_ip sta0 10.0.0.100/24 &&
	# hostapd deauthenticates its stations when it stops.
	wl_wait sta0 -t 60 -n 2 -x "$(wl_kill_cmd $gone)" \
		"CTRL-EVENT-DISCONNECTED bssid=$(wl_addr $gone) reason=3" \
		"CTRL-EVENT-CONNECTED - Connection to $(wl_addr $to)" >events &&
	wl_stop $gone &&
	test_line_count = 2 events &&
	wl_ping sta0 $to_ip
'

test_done
