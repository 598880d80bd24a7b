#!/bin/sh
test_description='beacon protection (BIGTK) and operating channel validation (OCV)'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# bp_ap LINES...: a WPA2-PSK AP with PMF required (both features need it),
# LINES added.
bp_ap () {
	printf '%s\n' ssid=umlrun-bp wpa=2 wpa_key_mgmt=WPA-PSK-SHA256 rsn_pairwise=CCMP \
		"wpa_passphrase=protected beacons" ieee80211w=2 "$@" >ap.conf &&
	wl_ap ap0 ap.conf
}

# bp_sta LINES...: its station, connected, LINES in its network block.
bp_sta () {
	{
		echo "network={" &&
		printf '\t%s\n' 'ssid="umlrun-bp"' key_mgmt=WPA-PSK-SHA256 \
			'psk="protected beacons"' ieee80211w=2 "$@" &&
		echo "}"
	} >sta.conf &&
	wl_sta sta0 sta.conf &&
	wl_connected sta0
}

bp_ping () {
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
}

test_expect_success 'beacon protection: the station gets the BIGTK in the 4-way handshake' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	bp_ap beacon_prot=1 &&
	bp_sta beacon_prot=1 &&
	grep -q "WPA: BIGTK keyid 6 pn" "$(wl_log sta0)" &&
	bp_ping &&
	# Beacons now end in a Management MIC element: longer than before.
	wl_air_has "Beacon (umlrun-bp)"
'

test_expect_success 'without beacon_prot on the AP there is no BIGTK to install' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	bp_ap &&
	bp_sta beacon_prot=1 &&
	! grep -q "WPA: BIGTK keyid" "$(wl_log sta0)" &&
	bp_ping
'

test_expect_success 'the BIGTK rotates with the group key: keyid 6, then 7' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	bp_ap beacon_prot=1 wpa_group_rekey=30 &&
	bp_sta beacon_prot=1 &&
	wl_wait sta0 -t 40 "WPA: Group rekeying completed" >/dev/null &&
	grep -q "WPA: BIGTK keyid 6 pn" "$(wl_log sta0)" &&
	grep -q "WPA: BIGTK keyid 7 pn" "$(wl_log sta0)" &&
	bp_ping
'

test_expect_success 'OCV: both ends put their operating channel (OCI) into the 4-way handshake' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	bp_ap ocv=1 &&
	bp_sta ocv=1 &&
	# The AP reads the OCI of message 2, the station that of message 3.
	grep -q "WPA: OCI KDE in EAPOL-Key" "$(wl_log ap0)" &&
	grep -q "WPA: OCI KDE in EAPOL-Key" "$(wl_log sta0)" &&
	! grep -q "OCV failed" "$(wl_log ap0)" &&
	! grep -q "OCV-FAILURE" "$(wl_log sta0)" &&
	bp_ping
'

test_expect_success 'OCV in the group key handshake: the rekey carries the OCI as well' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	bp_ap ocv=1 wpa_group_rekey=30 &&
	bp_sta ocv=1 &&
	before=$(grep -c "WPA: OCI KDE in EAPOL-Key" "$(wl_log sta0)") &&
	wl_wait sta0 -t 40 "WPA: Group rekeying completed" >/dev/null &&
	after=$(grep -c "WPA: OCI KDE in EAPOL-Key" "$(wl_log sta0)") &&
	test "$after" -gt "$before" &&
	bp_ping
'

test_done
