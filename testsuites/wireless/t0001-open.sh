#!/bin/sh
test_description='open networks: association, data, hidden SSID'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

test_expect_success 'a station joins an open AP and passes data' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-open
	EOF
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-open"
		key_mgmt=NONE
	}
	EOF
	wl_connected sta0 &&
	test "$(wl_status sta0 key_mgmt)" = NONE &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr ap0)" &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_ping ap0 10.0.0.2 &&
	# Open: the echo requests cross the air in clear.
	wl_air icmp >air &&
	grep -q "10.0.0.2 > 10.0.0.1: ICMP echo request" air
'

test_done
