#!/bin/sh
test_description='channel switch announcements requested on the control interface of hostapd'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

csa_net () {
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-csa
	channel=1
	wpa=2
	wpa_key_mgmt=WPA-PSK
	rsn_pairwise=CCMP
	wpa_passphrase=follow the beacon
	EOF
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-csa"
		psk="follow the beacon"
	}
	EOF
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24
}

test_expect_success 'CHAN_SWITCH: the AP counts down in its beacons, the station follows to channel 6' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	csa_net &&
	wl_ping sta0 10.0.0.1 &&
	# Five beacons of countdown (100 TU each), then both are on 2437 MHz.
	wl_wait sta0 -t 10 -x "wpactl -p $WL_HOSTAPD_DIR -i ap0 CHAN_SWITCH 5 2437" \
		"CTRL-EVENT-CHANNEL-SWITCH freq=2437" >/dev/null &&
	grep -q "sta0: CTRL-EVENT-STARTED-CHANNEL-SWITCH freq=2437" "$(wl_log sta0)" &&
	grep -q "AP-CSA-FINISHED freq=2437" "$(wl_log ap0)" &&
	test "$(wl_status sta0 freq)" = 2437 &&
	test "$(wl_status ap0 freq)" = 2437 &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED &&
	wl_ping sta0 10.0.0.1 &&
	# The AP beacons on the new channel (at 1 Mb/s, the lowest basic rate:
	# data frames go at whatever rate minstrel_ht draws, CCK or OFDM).
	ap=$(wl_addr ap0) &&
	wl_air_has "2437 MHz 11b BSSID:$ap DA:ff:ff:ff:ff:ff:ff SA:$ap Beacon (umlrun-csa)"
'

test_expect_success 'CHAN_SWITCH blocktx: the station stops sending until the switch' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	csa_net &&
	wl_wait sta0 -T -t 10 -x "wpactl -p $WL_HOSTAPD_DIR -i ap0 CHAN_SWITCH 10 2462 blocktx" \
		"CTRL-EVENT-CHANNEL-SWITCH freq=2462" >switch &&
	grep -q "AP-CSA-FINISHED freq=2462" "$(wl_log ap0)" &&
	test "$(wl_status sta0 freq)" = 2462 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'a switch to a channel the AP cannot use is refused, and the AP stays' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	csa_net &&
	test_must_fail wl_ctl ap0 CHAN_SWITCH 5 2484 2>/dev/null &&
	test_must_fail wl_ctl ap0 CHAN_SWITCH 5 5000 2>/dev/null &&
	test "$(wl_status ap0 freq)" = 2412 &&
	wl_ping sta0 10.0.0.1
'

test_done
