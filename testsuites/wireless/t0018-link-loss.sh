#!/bin/sh
test_description='beacon loss, background scanning and disassoc_low_ack'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

ll_ap () {
	wl_net_ap "$1" open umlrun-ll "channel=${2:-1}" "$3"
}

# low_ack_pair 0|1: ap0 with disassoc_low_ack set so (and an inactivity
# timer far off), sta0 connected to it, data passing from the AP.
low_ack_pair () {
	wl_radios ap0 sta0 &&
	ll_ap ap0 1 "disassoc_low_ack=$1
ap_max_inactivity=600" &&
	wl_net_sta sta0 open umlrun-ll &&
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping ap0 10.0.0.2
}

test_expect_success 'beacon loss: the station notices its AP is gone and moves to the other one' '
	wl_setup &&
	wl_radios apa apb sta0 &&
	ll_ap apa 1 &&
	ll_ap apb 11 &&
	wl_net_sta sta0 open umlrun-ll &&
	wl_connected sta0 &&
	if test "$(wl_status sta0 bssid)" = "$(wl_addr apa)"
	then
		gone=apa to=apb
	else
		gone=apb to=apa
	fi &&
	# The AP goes silent without a word (out of range): only the missed
	# beacons tell the station.
	wl_wait sta0 -t 60 -x "$(wl_range_cmd $gone off)" \
		"CTRL-EVENT-CONNECTED - Connection to $(wl_addr $to)" >/dev/null &&
	grep -q "CTRL-EVENT-DISCONNECTED bssid=$(wl_addr $gone)" "$(wl_log sta0)" &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr $to)"
'

test_expect_success 'bgscan simple: a weak signal makes the station scan every short interval' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	ll_ap ap0 1 &&
	# hwsim reports -30 dBm: above -20 is strong, so -30 is weak here and
	# the short interval (10 s) applies.
	wl_net_sta sta0 open umlrun-ll "bgscan=\"simple:10:-20:300\"" &&
	wl_connected sta0 &&
	# Each background scan (all bands, about 11.3 s) is requested 10 s
	# after the results of the one before.
	wl_wait sta0 -T -t 70 -n 3 CTRL-EVENT-SCAN-STARTED >scans &&
	wl_intervals scans 21 22 &&
	test $(grep -c "bgscan simple: Request a background scan" "$(wl_log sta0)") -ge 3 &&
	grep -q "bgscan simple: Signal strength threshold -20  Short bgscan interval 10  Long bgscan interval 300" "$(wl_log sta0)"
'

test_expect_success 'disassoc_low_ack: the AP lets a station go after a run of frames it never acknowledged' '
	wl_setup &&
	low_ack_pair 1 &&
	# Out of range, nothing the AP sends is acknowledged (hwsim acks a
	# frame only when a radio received it). mac80211 reports the loss
	# after 50 frames in a row and at least a second since the last ACK;
	# the AP sends one ping every 50 ms to the address it knows.
	{ wl_in ap0 ping -q -c 100 -i 0.05 10.0.0.2 >ping.out 2>&1 & } &&
	pinger=$! &&
	echo "$(wl_uptime) out of range" >gone &&
	wl_wait ap0 -T -t 30 -x "$(wl_range_cmd sta0 off)" \
		"AP-STA-DISCONNECTED $(wl_addr sta0)" >>gone &&
	{ wait $pinger || :; } &&
	# 50 frames at 50 ms: 2.5 s, long before any inactivity check.
	wl_intervals gone 2 6 &&
	grep -q "$(wl_addr sta0) IEEE 802.11: disconnected due to excessive missing ACKs" "$(wl_log ap0)" &&
	! grep -q "has been inactive too long" "$(wl_log ap0)"
'

test_expect_success 'disassoc_low_ack=0: the same lost frames do not cost the station its association' '
	wl_setup &&
	low_ack_pair 0 &&
	wl_range sta0 off &&
	# Twice the frames that were enough above; the ping ends in 10 s.
	! wl_in ap0 ping -q -c 200 -i 0.05 10.0.0.2 >ping.out 2>&1 &&
	grep -q "200 packets transmitted, 0 " ping.out &&
	wl_authorized ap0 sta0 &&
	! grep -q "excessive missing ACKs" "$(wl_log ap0)"
'

test_done
