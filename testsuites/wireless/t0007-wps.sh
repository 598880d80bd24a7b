#!/bin/sh
test_description='WPS push button: provisioning and the 120 s walk time'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# Debian builds both daemons with WPS; a build without it has no WPS
# control commands, nor their event names.
test_lazy_prereq WPS '
	grep -q WPS-PBC-ACTIVE /usr/sbin/hostapd &&
	grep -q WPS-PBC-ACTIVE /usr/sbin/wpa_supplicant
'

wps_ap () {
	wl_net_ap ap0 psk umlrun-wps "handed over by WPS" wps_state=2 eap_server=1 \
		config_methods=push_button
}

test_expect_success WPS 'pressing both buttons hands the network to the station' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wps_ap &&
	# A station that knows no network at all.
	wl_sta sta0 </dev/null &&
	wl_ctl ap0 WPS_PBC >/dev/null &&
	wl_wait sta0 -t 60 -c WPS_PBC WPS-SUCCESS >/dev/null &&
	wl_connected sta0 &&
	test "$(wl_status sta0 ssid)" = umlrun-wps &&
	test "$(wl_status sta0 key_mgmt)" = WPA2-PSK &&
	# The station learnt the network: a network block it did not have.
	wl_ctl sta0 LIST_NETWORKS >networks &&
	grep -q "umlrun-wps" networks &&
	grep -q "WPS-REG-SUCCESS $(wl_addr sta0)" "$(wl_log ap0)" &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success WPS 'the AP gives up the button after the 120 s walk time' '
	wl_setup &&
	wl_radios ap0 &&
	wps_ap &&
	wl_wait ap0 -T -t 130 -n 2 -c WPS_PBC WPS-PBC-ACTIVE WPS-TIMEOUT >walk &&
	sed -n 2p walk | grep -q WPS-TIMEOUT &&
	wl_intervals walk 119.9 120.5 &&
	wl_ctl ap0 WPS_GET_STATUS >status &&
	grep -q "^PBC Status: Timed-out" status
'

test_expect_success WPS 'a station pressing alone gives up after the walk time' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wps_ap &&
	wl_sta sta0 </dev/null &&
	# The AP never enters PBC mode: the station scans for 120 s in vain.
	echo "$(wl_uptime) pressed" >walk &&
	wl_wait sta0 -T -t 130 -c WPS_PBC WPS-TIMEOUT >>walk &&
	wl_intervals walk 119.9 121 &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED
'

test_done
