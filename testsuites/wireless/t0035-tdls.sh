#!/bin/sh
test_description='TDLS (802.11z): a direct link between two stations of one BSS, its teardown, the AP prohibiting it, the 12-hour TPK lifetime'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# tdls_pair SECURITY [AP LINES]: ap0 and two stations sta1 and sta2
# connected to it, 10.0.0.11 and 10.0.0.12. SECURITY: open or wpa2.
tdls_pair () {
	wl_radios ap0 sta1 sta2 || return 1
	case $1 in
	open)
		printf '%s\n' "ssid=umlrun-tdls" "$2" >ap.conf &&
		printf "network={\n\tssid=\"umlrun-tdls\"\n\tkey_mgmt=NONE\n}\n" >sta.conf ;;
	wpa2)
		printf '%s\n' "ssid=umlrun-tdls" wpa=2 wpa_key_mgmt=WPA-PSK \
			rsn_pairwise=CCMP "wpa_passphrase=direct link" "$2" >ap.conf &&
		printf "network={\n\tssid=\"umlrun-tdls\"\n\tpsk=\"direct link\"\n}\n" >sta.conf ;;
	esac &&
	wl_ap ap0 ap.conf &&
	wl_sta sta1 sta.conf &&
	wl_sta sta2 sta.conf &&
	wl_connected sta1 &&
	wl_connected sta2 &&
	wl_ip sta1 10.0.0.11/24 &&
	wl_ip sta2 10.0.0.12/24 &&
	wl_ping sta1 10.0.0.12 1
}

# tdls_status FROM TO: the TDLS link status FROM reports for TO.
tdls_status () {
	wl_ctl "$1" TDLS_LINK_STATUS "$(wl_addr "$2")" | sed -n "s/^TDLS link status: //p"
}

tdls_connected () {
	test "$(tdls_status "$1" "$2")" = connected
}

test_expect_success 'a direct link: data between the stations stops going through the AP' '
	wl_setup &&
	tdls_pair open &&
	a=$(wl_addr sta1) b=$(wl_addr sta2) ap=$(wl_addr ap0) &&
	# Through the AP: to the AP (BSSID first), then from it; never direct
	# (a frame with neither ToDS nor FromDS: destination, source, BSSID).
	wl_air_has "BSSID:$ap SA:$a DA:$b" &&
	wl_air_lacks "DA:$b SA:$a BSSID:$ap" &&
	test "$(tdls_status sta1 sta2)" = "peer does not exist" &&
	wl_ctl sta1 TDLS_SETUP "$b" >/dev/null &&
	wl_until 5 tdls_connected sta1 sta2 &&
	wl_until 5 tdls_connected sta2 sta1 &&
	wl_ping sta1 10.0.0.12 3 &&
	wl_air_has "DA:$b SA:$a BSSID:$ap" &&
	wl_air "ether src $a and ether dst $b" >direct &&
	grep -q "DA:$b SA:$a BSSID:$ap .*ICMP echo request" direct
'

test_expect_success 'a teardown ends the direct link on both sides; data goes through the AP again' '
	wl_setup &&
	tdls_pair wpa2 &&
	b=$(wl_addr sta2) &&
	wl_ctl sta1 TDLS_SETUP "$b" >/dev/null &&
	wl_until 5 tdls_connected sta1 sta2 &&
	wl_ping sta1 10.0.0.12 &&
	wl_ctl sta2 TDLS_TEARDOWN "$(wl_addr sta1)" >/dev/null &&
	wl_until 5 test "$(tdls_status sta1 sta2)" = "peer does not exist" &&
	test "$(tdls_status sta2 sta1)" = "peer does not exist" &&
	wl_ping sta1 10.0.0.12 &&
	# The teardown came with a MIC under the TPK: sta1 checked it.
	grep -q "TDLS: TDLS Teardown Request from $(wl_addr sta2)" "$(wl_log sta1)"
'

test_expect_success 'an AP with tdls_prohibit=1: the stations refuse to set up a direct link' '
	wl_setup &&
	tdls_pair wpa2 tdls_prohibit=1 &&
	! wl_ctl sta1 TDLS_SETUP "$(wl_addr sta2)" >setup 2>&1 &&
	sleep 5 &&
	! tdls_connected sta1 sta2 &&
	grep -q "TDLS: TDLS is prohibited in this BSS" "$(wl_log sta1)"
'

test_expect_success 'the TPK lives 12 hours: the initiator renews it 3 s early, the responder keeps the link' '
	wl_setup &&
	# A beacon every 10 s (10000 TU, the most cfg80211 allows) rather than
	# 10 a second: half a day of beacons would be most of the run.
	tdls_pair wpa2 beacon_int=10000 &&
	b=$(wl_addr sta2) &&
	wl_ctl sta1 TDLS_SETUP "$b" >/dev/null &&
	wl_until 5 tdls_connected sta1 sta2 &&
	# Half a day of simulated time, the link in use halfway.
	sleep 21600 &&
	tdls_connected sta1 sta2 &&
	wl_ping sta1 10.0.0.12 1 &&
	! grep -q "TPK lifetime expired" "$(wl_log sta1)" "$(wl_log sta2)" &&
	sleep 21700 &&
	# wpa_supplicant times the initiator 3 s short of the 43200 s
	# lifetime, so that it renews before the responder tears down. The
	# -t stamps of the logs: from enabling the link to the renewal.
	grep "TDLS: TPK lifetime expired for $b - try to renew" "$(wl_log sta1)" >expired &&
	test $(wc -l <expired) = 1 &&
	grep "nl80211: TDLS_OPER: oper=3 mac=$b" "$(wl_log sta1)" | sed -n 1p >enabled &&
	cat enabled expired | awk -F: "NR == 1 { t = \$1 } NR == 2 { d = \$1 - t; exit !(d > 43196.9 && d < 43197.1) }" &&
	test $(grep -c "Sending TDLS Setup Request" "$(wl_log sta1)") = 2 &&
	! grep -q "TPK lifetime expired" "$(wl_log sta2)" &&
	wl_until 5 tdls_connected sta1 sta2 &&
	wl_until 5 tdls_connected sta2 sta1 &&
	wl_ping sta1 10.0.0.12 1
'

test_done
