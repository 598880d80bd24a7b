#!/bin/sh
test_description='group and pairwise key handshakes that the station does not answer'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# gk_net EXTRA: a WPA2-PSK AP with EXTRA lines, a station connected to it.
gk_net () {
	wl_net_ap ap0 psk umlrun-gk "keys for everyone" disassoc_low_ack=0 "$@" &&
	wl_net_sta sta0 psk umlrun-gk "keys for everyone" &&
	wl_connected sta0
}

test_expect_success 'a station that never answers the group key handshake is deauthenticated after the retries' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	gk_net wpa_group_update_count=3 &&
	# Out of range: the AP rekeys the group, sends message 1/2 three
	# times (EAPOL-Key timeouts of 500, 1000 and 1000 ms), gives up and
	# lets the station go, 2.5 s after the rekey.
	wl_range sta0 off &&
	echo "$(wl_uptime) rekey" >gone &&
	wl_wait ap0 -T -t 30 -c REKEY_GTK "AP-STA-DISCONNECTED $(wl_addr sta0)" >>gone &&
	wl_intervals gone 2.4 2.7 &&
	grep -q "group key handshake failed (RSN) after 3 tries" "$(wl_log ap0)" &&
	test $(grep -c "$(wl_addr sta0) WPA: sending 1/2 msg of Group Key Handshake" "$(wl_log ap0)") = 3
'

test_expect_success 'a station that answers completes the group key handshake REKEY_GTK asked for' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	gk_net &&
	wl_wait sta0 -t 10 -x "wpactl -p $WL_HOSTAPD_DIR -i ap0 REKEY_GTK" \
		"WPA: Group rekeying completed" >/dev/null &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping ap0 10.0.0.2
'

test_expect_success 'an unanswered PTK rekey ends in a deauthentication after wpa_pairwise_update_count tries' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	gk_net wpa_pairwise_update_count=2 &&
	wl_range sta0 off &&
	wl_wait ap0 -T -t 30 -c "REKEY_PTK $(wl_addr sta0)" "AP-STA-DISCONNECTED $(wl_addr sta0)" >gone &&
	grep -q "PTKSTART: Retry limit 2 reached" "$(wl_log ap0)" &&
	test $(grep -c "$(wl_addr sta0) WPA: sending 1/4 msg of 4-Way Handshake" "$(wl_log ap0)") = 3
'

test_done
