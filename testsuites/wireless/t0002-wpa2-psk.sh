#!/bin/sh
test_description='WPA2-PSK: association, encrypted data, wrong passphrase'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

test_expect_success 'a WPA2-PSK station associates and passes encrypted data' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 psk umlrun-wpa2 "correct horse battery" &&
	wl_net_sta sta0 psk umlrun-wpa2 "correct horse battery" &&
	wl_connected sta0 &&
	test "$(wl_status sta0 key_mgmt)" = WPA2-PSK &&
	test "$(wl_status sta0 pairwise_cipher)" = CCMP &&
	# The AP agrees: the station is authorized.
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_ping ap0 10.0.0.2 &&
	# The 4-way handshake is on the air, the echo requests are not.
	wl_air_has "EAPOL" &&
	wl_air_lacks "ICMP echo request"
'

test_expect_success 'a wrong passphrase is rejected as WRONG_KEY, twice' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 psk umlrun-wpa2 "correct horse battery" &&
	wl_net_sta sta0 psk umlrun-wpa2 "wrong horse battery" disabled=1 &&
	# After a failure the network is disabled for 10 s, then 20 s: the
	# second rejection comes after the first back-off timer.
	wl_wait sta0 -T -t 90 -n 2 -c "ENABLE_NETWORK 0" \
		CTRL-EVENT-SSID-TEMP-DISABLED >rejects &&
	sed -n 1p rejects | grep -q "auth_failures=1 duration=10 reason=WRONG_KEY" &&
	sed -n 2p rejects | grep -q "auth_failures=2 duration=20 reason=WRONG_KEY" &&
	wl_intervals rejects 10 30 &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED &&
	# hostapd saw message 2 of the handshake with a MIC it cannot verify.
	grep -q "AP-STA-POSSIBLE-PSK-MISMATCH $(wl_addr sta0)" "$(wl_log ap0)"
'

test_expect_success 'two WPA2 stations talk to each other through the AP' '
	wl_setup &&
	wl_radios ap0 sta1 sta2 &&
	wl_net_ap ap0 psk umlrun-wpa2 "correct horse battery" &&
	for s in sta1 sta2
	do
		wl_net_sta $s psk umlrun-wpa2 "correct horse battery" || return 1
	done &&
	wl_connected sta1 &&
	wl_connected sta2 &&
	wl_authorized ap0 sta1 &&
	wl_authorized ap0 sta2 &&
	wl_ip sta1 10.0.0.11/24 &&
	wl_ip sta2 10.0.0.12/24 &&
	# ARP goes out as broadcast: the AP relays it under the group key.
	wl_ping sta1 10.0.0.12 &&
	wl_ping sta2 10.0.0.11
'

test_done
