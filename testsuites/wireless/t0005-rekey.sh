#!/bin/sh
test_description='group and pairwise rekeying on their timers'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

test_expect_success 'the AP renews the group key every wpa_group_rekey seconds' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 psk umlrun-gtk "group keys rotate" wpa_group_rekey=30 &&
	wl_net_sta sta0 psk umlrun-gtk "group keys rotate" &&
	wl_connected sta0 &&
	# Three group key handshakes, 30 s apart: about 90 s of waiting.
	wl_wait sta0 -T -t 100 -n 3 "WPA: Group rekeying completed" >rekeys &&
	test_line_count = 3 rekeys &&
	wl_intervals rekeys 29.9 30.5 &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED &&
	# A broadcast from the AP (its ARP request) under the newest key.
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping ap0 10.0.0.2
'

test_expect_success 'the AP renews the pairwise key every wpa_ptk_rekey seconds' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 psk umlrun-ptk "pairwise keys rotate" wpa_ptk_rekey=30 &&
	wl_net_sta sta0 psk umlrun-ptk "pairwise keys rotate" disabled=1 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	# The first 4-way handshake at association, then one every 30 s.
	wl_wait sta0 -T -t 100 -n 3 -c "ENABLE_NETWORK 0" \
		"WPA: Key negotiation completed" >handshakes &&
	wl_intervals handshakes 29.9 30.5 &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED &&
	test $(grep -c "EAPOL-4WAY-HS-COMPLETED $(wl_addr sta0)" "$(wl_log ap0)") = 3 &&
	wl_ping sta0 10.0.0.1
'

test_done
