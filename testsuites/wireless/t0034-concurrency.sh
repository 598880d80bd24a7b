#!/bin/sh
test_description='an AP and a station on one radio set: one channel shared, a second channel refused, two channels with --channels 2'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# up: the uplink AP on channel 6. rep: a radio with an AP (rep) and, beside
# it, a station (repsta) connected to the uplink. sta0: a client of rep.
uplink () {
	wl_net_ap up psk umlrun-uplink "uplink passphrase" channel=6 &&
	wl_net_sta repsta psk umlrun-uplink "uplink passphrase" &&
	wl_connected repsta
}

# rep_ap CHANNEL: the AP on rep, on CHANNEL.
rep_ap () {
	printf '%s\n' ssid=umlrun-rep "channel=$1" >rep.conf &&
	wl_ap rep rep.conf
}

# rep_client: sta0 connected to the AP on rep (open).
rep_client () {
	wl_net_sta sta0 open umlrun-rep &&
	wl_connected sta0
}

# uplink_data, local_data: addresses on either link, a ping across it.
uplink_data () {
	wl_ip up 10.0.1.1/24 &&
	wl_ip repsta 10.0.1.2/24 &&
	wl_ping repsta 10.0.1.1
}

local_data () {
	wl_ip rep 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
}

# freq IFACE: the frequency IFACE is on now (iw).
freq () {
	wl_in "$1" iw dev "$1" info | sed -n "s/.*channel [0-9]* (\([0-9]*\) MHz).*/\1/p"
}

test_expect_success 'a station and an AP share the radio on one channel, each passing data' '
	wl_setup &&
	wl_radios up rep sta0 &&
	wl_iface rep repsta &&
	uplink &&
	rep_ap 6 &&
	rep_client &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr rep)" &&
	test "$(wl_status repsta bssid)" = "$(wl_addr up)" &&
	test "$(freq rep)" = 2437 &&
	test "$(freq repsta)" = 2437 &&
	uplink_data &&
	local_data &&
	# On the air: the beacons of both APs, the local data in the clear
	# (an open AP), the uplink data encrypted (WPA2).
	wl_air_has "Beacon (umlrun-rep)" &&
	wl_air_has "Beacon (umlrun-uplink)" &&
	wl_air_has "10.0.0.2 > 10.0.0.1: ICMP echo request" &&
	wl_air_lacks "10.0.1.2 > 10.0.1.1: ICMP"
'

test_expect_success 'a one-channel radio refuses an AP on a second channel while its station is connected' '
	wl_setup &&
	wl_radios up rep &&
	wl_iface rep repsta &&
	uplink &&
	! rep_ap 1 &&
	# The kernel refuses the AP start (START_AP: -ENOENT on 7.2, no
	# channel context can be had); on the same channel, case 1, it starts.
	grep -q "nl80211: Beacon set failed: -" "$(wl_log rep)" &&
	grep -q "Interface initialization failed" "$(wl_log rep)" &&
	# The station is not disturbed.
	uplink_data &&
	test "$(wl_status repsta wpa_state)" = COMPLETED
'

test_expect_success 'with two channels (channel contexts) the AP runs on channel 1 and the station on 6, both passing data' '
	wl_setup &&
	wl_radio up &&
	wl_radio rep --channels 2 &&
	wl_radio sta0 &&
	wl_iface rep repsta &&
	uplink &&
	rep_ap 1 &&
	rep_client &&
	test "$(freq rep)" = 2412 &&
	test "$(freq repsta)" = 2437 &&
	local_data &&
	uplink_data &&
	wl_ping sta0 10.0.0.1 &&
	test "$(wl_status repsta wpa_state)" = COMPLETED
'

test_done
