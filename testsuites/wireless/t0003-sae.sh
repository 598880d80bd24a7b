#!/bin/sh
test_description='WPA3-SAE and WPA2/WPA3 mixed mode'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

test_expect_success 'a WPA3-SAE station associates with PMF and passes data' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 sae umlrun-sae "dragonfly handshake" &&
	wl_net_sta sta0 sae umlrun-sae "dragonfly handshake" &&
	wl_connected sta0 &&
	test "$(wl_status sta0 key_mgmt)" = SAE &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_lacks "ICMP echo request" &&
	# hostapd went through SAE commit and confirm with this station.
	grep -q "SAE: State Confirmed -> Accepted for peer $(wl_addr sta0)" "$(wl_log ap0)"
'

test_expect_success 'mixed mode: a WPA2-PSK and a WPA3-SAE station share one AP' '
	wl_setup &&
	wl_radios ap0 psk0 sae0 &&
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-mixed
	wpa=2
	wpa_key_mgmt=WPA-PSK SAE
	rsn_pairwise=CCMP
	ieee80211w=1
	wpa_passphrase=transition mode
	EOF
	wl_net_sta psk0 psk umlrun-mixed "transition mode" &&
	wl_net_sta sae0 sae umlrun-mixed "transition mode" &&
	wl_connected psk0 &&
	wl_connected sae0 &&
	test "$(wl_status psk0 key_mgmt)" = WPA2-PSK &&
	test "$(wl_status sae0 key_mgmt)" = SAE &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip psk0 10.0.0.11/24 &&
	wl_ip sae0 10.0.0.12/24 &&
	wl_ping psk0 10.0.0.1 &&
	wl_ping sae0 10.0.0.1 &&
	wl_ping psk0 10.0.0.12
'

test_expect_success 'a wrong SAE password is rejected at the confirm' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 sae umlrun-sae "dragonfly handshake" &&
	wl_net_sta sta0 sae umlrun-sae "wrong dragon" disabled=1 &&
	# auth_type=3 is SAE, transaction 2 its confirm: the AP could not
	# verify our confirm and refused.
	wl_wait sta0 -t 60 -c "ENABLE_NETWORK 0" CTRL-EVENT-AUTH-REJECT >reject &&
	grep -q "auth_type=3 auth_transaction=2" reject &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED
'

test_done
