#!/bin/sh
test_description='several BSSes on one radio: one hostapd, three networks with their own security, limits per BSS'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# mb_ap [LINES...]: one hostapd on ap0 with three BSSes: umlrun-open (ap0,
# open), umlrun-psk (ap0b, WPA2-PSK) and umlrun-sae (ap0c, WPA3-SAE),
# BSSIDs ap0, ap0 + 1 and ap0 + 2; LINES go into the PSK BSS. Sets b1, b2
# and b3.
mb_ap () {
	b1=$(wl_addr ap0) &&
	b2=${b1%:00}:01 &&
	b3=${b1%:00}:02 &&
	{
		printf '%s\n' ssid=umlrun-open &&
		printf '%s\n' bss=ap0b "bssid=$b2" "ctrl_interface=$WL_HOSTAPD_DIR" \
			ssid=umlrun-psk wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP \
			"wpa_passphrase=one radio many networks" "$@" &&
		printf '%s\n' bss=ap0c "bssid=$b3" "ctrl_interface=$WL_HOSTAPD_DIR" \
			ssid=umlrun-sae wpa=2 wpa_key_mgmt=SAE rsn_pairwise=CCMP ieee80211w=2 \
			"sae_password=one radio many networks"
	} >ap.conf &&
	wl_ap ap0 ap.conf &&
	wl_bss ap0 ap0b &&
	wl_bss ap0 ap0c
}

# mb_sta NAME SSID KEYLINES...: a station of SSID.
mb_sta () {
	mb_n=$1 mb_s=$2
	shift 2
	{
		echo "network={" &&
		printf '\t%s\n' "ssid=\"$mb_s\"" "$@" &&
		echo "}"
	} >"$mb_n.conf" &&
	wl_sta "$mb_n" "$mb_n.conf"
}

test_expect_success 'three BSSes beacon from one radio, each with its own BSSID and security' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	mb_ap &&
	wl_sta sta0 </dev/null &&
	wl_wait sta0 -t 30 -c SCAN CTRL-EVENT-SCAN-RESULTS >/dev/null &&
	wl_ctl sta0 SCAN_RESULTS >results &&
	grep -q "^$b1	2412	.*	\[ESS\]	umlrun-open$" results &&
	grep -q "^$b2	2412	.*\[WPA2-PSK-CCMP\].*	umlrun-psk$" results &&
	grep -q "^$b3	2412	.*\[WPA2-SAE-CCMP\].*	umlrun-sae$" results &&
	wl_air_has "Beacon (umlrun-open)" &&
	wl_air_has "Beacon (umlrun-psk)" &&
	wl_air_has "Beacon (umlrun-sae)"
'

test_expect_success 'one station per BSS: each joins its own network, and its data goes there' '
	wl_setup &&
	wl_radios ap0 sta0 sta1 sta2 &&
	mb_ap &&
	mb_sta sta0 umlrun-open key_mgmt=NONE &&
	mb_sta sta1 umlrun-psk "psk=\"one radio many networks\"" &&
	mb_sta sta2 umlrun-sae key_mgmt=SAE ieee80211w=2 "sae_password=\"one radio many networks\"" &&
	wl_connected sta0 &&
	wl_connected sta1 &&
	wl_connected sta2 &&
	test "$(wl_status sta0 bssid)" = $b1 &&
	test "$(wl_status sta1 bssid)" = $b2 &&
	test "$(wl_status sta2 bssid)" = $b3 &&
	test "$(wl_status sta2 key_mgmt)" = SAE &&
	wl_authorized ap0 sta0 &&
	wl_authorized ap0b sta1 &&
	wl_authorized ap0c sta2 &&
	# Each BSS lists only its own station.
	test "$(wl_ctl ap0b STA-FIRST | head -n 1)" = "$(wl_addr sta1)" &&
	test_must_fail wl_ctl ap0 STA $(wl_addr sta1) &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_in ap0 $WL_IP addr add 10.0.1.1/24 dev ap0b &&
	wl_in ap0 $WL_IP addr add 10.0.2.1/24 dev ap0c &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ip sta1 10.0.1.2/24 &&
	wl_ip sta2 10.0.2.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_ping sta1 10.0.1.1 &&
	wl_ping sta2 10.0.2.1 &&
	wl_air_has "ICMP echo request"
'

test_expect_success 'max_num_sta=1 on one BSS: a second station is refused there (status 17)' '
	wl_setup &&
	wl_radios ap0 sta0 sta1 &&
	mb_ap max_num_sta=1 &&
	mb_sta sta0 umlrun-psk "psk=\"one radio many networks\"" &&
	wl_connected sta0 &&
	mb_sta sta1 umlrun-psk "psk=\"one radio many networks\"" &&
	wl_wait sta1 -t 30 "status_code=17" >/dev/null &&
	wl_authorized ap0b sta0 &&
	test_must_fail wl_authorized ap0b sta1
'

test_done
