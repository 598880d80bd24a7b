#!/bin/sh
test_description='protected management frames (802.11w): required, optional, SA Query'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# pmf_ap NAME PMF: a WPA2-PSK AP with ieee80211w=PMF (0, 1 or 2).
pmf_ap () {
	wl_net_ap "$1" pmf umlrun-pmf "protect the frames" "ieee80211w=$2"
}

# pmf_sta NAME PMF: a station of it with ieee80211w=PMF.
pmf_sta () {
	wl_net_sta "$1" pmf umlrun-pmf "protect the frames" "ieee80211w=$2"
}

test_expect_success 'an AP with ieee80211w=2 is not joined by a station without PMF' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pmf_ap ap0 2 &&
	pmf_sta sta0 0 &&
	# The station sees the AP and finds no network it may join.
	wl_wait sta0 -t 30 CTRL-EVENT-NETWORK-NOT-FOUND >/dev/null &&
	grep -q "skip RSN IE - no mgmt frame protection" "$(wl_log sta0)" &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED &&
	wl_air_lacks "SA:$(wl_addr sta0) Assoc Request"
'

test_expect_success 'with ieee80211w=1 a PMF station and a legacy station both join, only one with MFP' '
	wl_setup &&
	wl_radios ap0 sta1 sta2 &&
	pmf_ap ap0 1 &&
	pmf_sta sta1 2 &&
	wl_net_sta sta2 psk umlrun-pmf "protect the frames" ieee80211w=0 &&
	wl_connected sta1 &&
	wl_connected sta2 &&
	wl_ctl ap0 STA $(wl_addr sta1) >sta1 &&
	wl_ctl ap0 STA $(wl_addr sta2) >sta2 &&
	grep -q "^flags=.*\[MFP\]" sta1 &&
	! grep -q "^flags=.*\[MFP\]" sta2 &&
	grep -q "^AKMSuiteSelector=00-0f-ac-6" sta1 &&
	grep -q "^AKMSuiteSelector=00-0f-ac-2" sta2 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta1 10.0.0.2/24 &&
	wl_ip sta2 10.0.0.3/24 &&
	wl_ping sta1 10.0.0.1 &&
	wl_ping sta2 10.0.0.1
'

test_expect_success 'an unprotected deauthentication is dropped and checked with an SA Query' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pmf_ap ap0 2 &&
	pmf_sta sta0 2 &&
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	# A forger on the AP radio sends a deauthentication in the name of
	# the AP, without protection, with reason 7 (class 3 frame from a
	# non-associated station). The station drops it, asks the AP with a
	# protected SA Query, gets the answer and stays: the pings go through.
	wl_inject ap0 "c0000000$(wl_hex sta0)$(wl_hex ap0)$(wl_hex ap0)00000700" &&
	wl_ping sta0 10.0.0.1 &&
	grep -q "Unprotected Deauthentication frame dropped" "$(wl_log sta0)" &&
	grep -q "SME: Unprotected disconnect dropped - possible AP/STA state mismatch - trigger SA Query" "$(wl_log sta0)" &&
	grep -q "SME: Sending SA Query Request to $(wl_addr ap0)" "$(wl_log sta0)" &&
	grep -q "SME: Received SA Query frame from $(wl_addr ap0)" "$(wl_log sta0)" &&
	grep -q "IEEE 802.11: Received SA Query Request from $(wl_addr sta0)" "$(wl_log ap0)" &&
	! grep -q CTRL-EVENT-DISCONNECTED "$(wl_log sta0)" &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED &&
	wl_air_has "DeAuthentication" &&
	wl_authorized ap0 sta0
'

test_expect_success 'a returning PMF station waits out the SA Query timeout of the AP' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-pmf
	wpa=2
	wpa_key_mgmt=WPA-PSK-SHA256
	rsn_pairwise=CCMP
	wpa_passphrase=protect the frames
	ieee80211w=2
	assoc_sa_query_max_timeout=2000
	assoc_sa_query_retry_timeout=500
	EOF
	pmf_sta sta0 2 &&
	wl_connected sta0 &&
	# The station walks away and loses the AP; the AP still holds its
	# association. When it comes back, the AP refuses it for a while
	# (status 30) and asks the old association with SA Queries, which
	# nobody can answer, until assoc_sa_query_max_timeout.
	wl_wait sta0 -t 30 -x "$(wl_range_cmd sta0 off)" CTRL-EVENT-DISCONNECTED >/dev/null &&
	wl_wait sta0 -t 60 -x "$(wl_range_cmd sta0 on)" CTRL-EVENT-CONNECTED >/dev/null &&
	# Four SA Queries 500 TU apart, the last one left to time out at
	# 2000 TU (2.05 s) after the first; then the association is let in.
	test $(grep -c "association SA Query attempt" "$(wl_log ap0)") = 4 &&
	grep -q "Allowing association after timed out SA Query procedure" "$(wl_log ap0)" &&
	awk -F: "/association SA Query attempt 1/ { t = \$1 }
		/association SA Query timed out/ { d = \$1 - t }
		END { exit !(d >= 2.0 && d <= 2.1) }" "$(wl_log ap0)" &&
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_done
