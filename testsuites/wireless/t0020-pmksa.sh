#!/bin/sh
test_description='PMKSA caching after 802.1X, the AP forgetting it, opportunistic key caching (OKC) between two BSSes'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# EAP-PSK (a 128-bit key, no certificates) against the internal EAP server
# of hostapd: 802.1X in a few frames, so that the tests are about the
# caching of its result, the PMKSA.
PSK_KEY=0123456789abcdef0123456789abcdef

# pm_conf [EXTRA [two]]: BSS ap0 and, with "two", its sister ap0b (BSSID
# ap0 + 1), both 802.1X with EXTRA lines in each.
pm_conf () {
	printf '"alice@umlrun.example"\tPSK\t%s\n' "$PSK_KEY" >eap_users &&
	for b in 1 2
	do
		if test $b = 2
		then
			test "${2-}" = two || break
			printf '%s\n' bss=ap0b "bssid=$(wl_addr ap0 | sed s/:00\$/:01/)" \
				"ctrl_interface=$WL_HOSTAPD_DIR"
		fi &&
		printf '%s\n' ssid=umlrun-pmksa wpa=2 wpa_key_mgmt=WPA-EAP rsn_pairwise=CCMP \
			ieee8021x=1 eap_server=1 "eap_user_file=$PWD/eap_users" "${1-}" || return 1
	done >ap.conf &&
	wl_ap ap0 ap.conf
}

# pm_sta [EXTRA]: the station, EXTRA lines in its network block.
pm_sta () {
	wl_sta sta0 <<-EOF
	network={
		ssid="umlrun-pmksa"
		key_mgmt=WPA-EAP
		eap=PSK
		identity="alice@umlrun.example"
		password=$PSK_KEY
		$1
	}
	EOF
}

# pm_joined: the station connected, and the AP through its own side of it
# (its PMKSA entry added, the station authorized): under basic time travel
# the AP can finish after the station has reported the connection.
pm_joined () {
	wl_connected sta0 &&
	wl_wait ap0 -t 10 -s "STA $(wl_addr sta0)" "[AUTHORIZED]" \
		"AP-STA-CONNECTED $(wl_addr sta0)" >/dev/null
}

pm_eaps () {
	grep -c "CTRL-EVENT-EAP-STARTED" "$(wl_log sta0)"
}

# pm_reconnect: the station leaves and comes back to the same BSS.
pm_reconnect () {
	wl_wait sta0 -t 10 -c DISCONNECT CTRL-EVENT-DISCONNECTED >/dev/null &&
	wl_wait sta0 -t 30 -c RECONNECT CTRL-EVENT-CONNECTED >/dev/null
}

test_expect_success 'PMKSA caching: the second connection skips EAP, the PMKID is found' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pm_conf &&
	pm_sta &&
	wl_connected sta0 &&
	wl_ctl sta0 PMKSA >pmksa &&
	grep -q "$(wl_addr ap0)" pmksa &&
	grep -q "PMKSA-CACHE-ADDED $(wl_addr ap0)" "$(wl_log sta0)" &&
	pm_reconnect &&
	test $(pm_eaps) = 1 &&
	grep -q "ap0: STA $(wl_addr sta0) WPA: PMKID found from PMKSA cache" "$(wl_log ap0)" &&
	test $(grep -c "RX message 1 of 4-Way Handshake" "$(wl_log sta0)") = 2 &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'an AP that flushed its cache ignores the PMKID: EAP runs again' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pm_conf &&
	pm_sta &&
	pm_joined &&
	wl_ctl ap0 PMKSA_FLUSH >/dev/null &&
	grep -q "RSN: Flush PMKSA cache entry for $(wl_addr sta0)" "$(wl_log ap0)" &&
	pm_reconnect &&
	test $(pm_eaps) = 2 &&
	! grep -q "PMKID found from PMKSA cache" "$(wl_log ap0)" &&
	wl_authorized ap0 sta0
'

test_expect_success 'an AP with disable_pmksa_caching=1 runs EAP on every connection' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pm_conf disable_pmksa_caching=1 &&
	pm_sta &&
	wl_connected sta0 &&
	pm_reconnect &&
	test $(pm_eaps) = 2 &&
	! grep -q "RSN: added PMKSA cache entry" "$(wl_log ap0)"
'

test_expect_success 'OKC: the PMKSA of one BSS opens the other, no EAP on the roam' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pm_conf okc=1 two &&
	wl_bss ap0 ap0b &&
	pm_sta proactive_key_caching=1 &&
	wl_connected sta0 &&
	bss1=$(wl_addr ap0) &&
	bss2=${bss1%:00}:01 &&
	if test "$(wl_status sta0 bssid)" = "$bss1"
	then
		to=$bss2 to_if=ap0b
	else
		to=$bss1 to_if=ap0
	fi &&
	wl_wait sta0 -t 30 -c "ROAM $to" "CTRL-EVENT-CONNECTED - Connection to $to" >/dev/null &&
	test $(pm_eaps) = 1 &&
	grep -q "RSN: Consider $to for OKC" "$(wl_log sta0)" &&
	# The target BSS derived the PMKID for itself from the PMK of the
	# other BSS, and took the station in on it.
	grep -q "RSN: Derive PMKID using HMAC-SHA-1" "$(wl_log ap0)" &&
	grep -q "$to_if: STA $(wl_addr sta0) IEEE 802.1X: authenticated - EAP type: 0 (unknown) (PMKSA cache)" "$(wl_log ap0)" &&
	wl_authorized $to_if sta0 &&
	wl_in ap0 $WL_IP addr add 10.0.0.1/24 dev $to_if &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'without okc on the AP the same roam runs EAP in full' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	pm_conf okc=0 two &&
	wl_bss ap0 ap0b &&
	pm_sta proactive_key_caching=1 &&
	wl_connected sta0 &&
	bss1=$(wl_addr ap0) &&
	bss2=${bss1%:00}:01 &&
	if test "$(wl_status sta0 bssid)" = "$bss1"
	then
		to=$bss2
	else
		to=$bss1
	fi &&
	wl_wait sta0 -t 30 -c "ROAM $to" "CTRL-EVENT-CONNECTED - Connection to $to" >/dev/null &&
	test $(pm_eaps) = 2 &&
	! grep -q "(PMKSA cache)" "$(wl_log ap0)"
'

test_done
