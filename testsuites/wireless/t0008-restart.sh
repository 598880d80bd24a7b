#!/bin/sh
test_description='the station and an AP that restarts'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# Every daemon gets an event monitor: a wait sees what came since the last
# wait or command on that daemon, so a step and the wait for what it
# causes are two plain steps.
WL_MONITOR=1

# restart_ap PASSPHRASE: (re)start the AP of this file on ap0.
restart_ap () {
	wl_net_ap ap0 psk umlrun-restart "$1"
}

test_expect_success 'the station reconnects after the AP restarts' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	restart_ap "first boot" &&
	wl_net_sta sta0 psk umlrun-restart "first boot" &&
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	# hostapd says goodbye (deauthentication, reason 3) when it stops.
	wl_stop ap0 &&
	wl_wait sta0 -t 10 "CTRL-EVENT-DISCONNECTED bssid=$(wl_addr ap0) reason=3" >/dev/null &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED &&
	restart_ap "first boot" &&
	# The station keeps scanning and finds the AP back on its own.
	wl_connected sta0 &&
	wl_authorized ap0 sta0 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'an AP back with a new passphrase rejects the old one' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	restart_ap "first boot" &&
	wl_net_sta sta0 psk umlrun-restart "first boot" &&
	wl_connected sta0 &&
	wl_stop ap0 &&
	wl_wait sta0 -t 10 CTRL-EVENT-DISCONNECTED >/dev/null &&
	# Held back until the AP is back with its new passphrase: its first
	# try meets it.
	wl_ctl sta0 DISABLE_NETWORK 0 >/dev/null &&
	restart_ap "second boot" &&
	wl_ctl sta0 ENABLE_NETWORK 0 >/dev/null &&
	wl_wait sta0 -t 60 CTRL-EVENT-SSID-TEMP-DISABLED >reject &&
	grep -q "reason=WRONG_KEY" reject &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED
'

test_done
