#!/bin/sh
test_description='fast BSS transition over the DS: two APs on a wired bridge, the FT request relayed through the current AP'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# Event monitors on every daemon: `wl_ctl sta0 SCAN && wl_wait sta0
# CTRL-EVENT-SCAN-RESULTS` sees the results even when they come before the
# wait starts.
WL_MONITOR=1

# Two APs, each in its own namespace, each bridging its radio with a
# cable to the other (br0 on both sides): hostapd sends its RRB frames
# (ethertype 0x890d) over the bridge, so an FT request a station sends to
# its current AP reaches the target AP over the wire.
#
# ds_ap NAME [LINES...]: hostapd on NAME, FT-PSK in mobility domain a1b2,
# over the DS, its radio on br0; LINES are added.
ds_ap () {
	ds_n=$1
	shift
	{
		printf '%s\n' ssid=umlrun-ftds wpa=2 wpa_key_mgmt=FT-PSK rsn_pairwise=CCMP \
			"wpa_passphrase=over the wire" mobility_domain=a1b2 ft_over_ds=1 \
			"nas_identifier=$ds_n.umlrun.example" \
			"r1_key_holder=$(wl_addr "$ds_n" | tr -d :)" \
			ft_psk_generate_local=1 bridge=br0 \
			'r0kh=ff:ff:ff:ff:ff:ff * 00112233445566778899aabbccddeeff' \
			'r1kh=00:00:00:00:00:00 00:00:00:00:00:00 00112233445566778899aabbccddeeff' \
			"$@"
	} >"$ds_n.conf" &&
	wl_ap "$ds_n" "$ds_n.conf"
}

# ds_bridge NAME: br0 in NAME's namespace, holding the cable (eth-OTHER).
ds_bridge () {
	wl_in "$1" $WL_IP link add br0 type bridge &&
	wl_in "$1" $WL_IP link set "$2" master br0 &&
	wl_in "$1" $WL_IP link set br0 up
}

# ds_setup: radios ap0, ap1, sta0, the cable and the bridges, both APs up;
# sta0 connected to ap0 (ap1 is out of range until then).
ds_setup () {
	wl_radios ap0 ap1 sta0 &&
	wl_link ap0 192.168.60.1/24 ap1 192.168.60.2/24 &&
	ds_bridge ap0 eth-ap1 &&
	ds_bridge ap1 eth-ap0 &&
	ds_ap ap0 &&
	ds_ap ap1 &&
	wl_range ap1 off &&
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-ftds"
		key_mgmt=FT-PSK
		psk="over the wire"
	}
	EOF
	wl_connected sta0 &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr ap0)" &&
	wl_range ap1 on &&
	wl_ctl sta0 SCAN >/dev/null &&
	wl_wait sta0 -t 30 CTRL-EVENT-SCAN-RESULTS >/dev/null
}

test_expect_success 'FT over the DS: the request goes to the current AP, the target answers over the wire' '
	wl_setup &&
	ds_setup &&
	wl_ctl sta0 FT_DS $(wl_addr ap1) >/dev/null &&
	wl_wait sta0 -t 30 "CTRL-EVENT-CONNECTED - Connection to $(wl_addr ap1)" >/dev/null &&
	test "$(wl_status sta0 key_mgmt)" = FT-PSK &&
	wl_authorized ap1 sta0 &&
	# No 4-way handshake at the target: the keys came with the reassociation.
	! grep -q "WPA: RX message 1 of 4-Way Handshake from $(wl_addr ap1)" "$(wl_log sta0)" &&
	grep -q "FT: Received FT Action Response" "$(wl_log sta0)" &&
	# ap1 is a port of br0: the address goes on the bridge.
	wl_in ap1 $WL_IP addr add 10.0.0.1/24 dev br0 &&
	wl_ip sta0 10.0.0.100/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'without the wire, FT over the DS gets no answer and the station stays' '
	wl_setup &&
	ds_setup &&
	wl_in ap0 $WL_IP link set eth-ap1 down &&
	wl_ctl sta0 FT_DS $(wl_addr ap1) >/dev/null &&
	test_must_fail wl_wait sta0 -t 15 "CTRL-EVENT-CONNECTED - Connection to $(wl_addr ap1)" >/dev/null &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr ap0)" &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED
'

test_done
