#!/bin/sh
test_description='DPP (Wi-Fi Easy Connect): a QR code bootstrap, the AP as configurator, network introduction, a netAccessKey that expires, a configurator nobody answers'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# The SSID in hex, as DPP commands take it.
SSID_HEX=756d6c72756e2d647070	# umlrun-dpp

# dpp_ap: ap0, a DPP AP (AKM DPP, PMF) that is its own configurator:
# it adds one (C), signs its own connector with it (the three keys come
# as events) and takes them.
dpp_ap () {
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-dpp
	wpa=2
	wpa_key_mgmt=DPP
	ieee80211w=1
	rsn_pairwise=CCMP
	EOF
	C=$(wl_ctl ap0 DPP_CONFIGURATOR_ADD) &&
	wl_wait ap0 -t 5 -n 3 \
		-c "DPP_CONFIGURATOR_SIGN conf=ap-dpp configurator=$C ssid=$SSID_HEX" \
		DPP-CONNECTOR DPP-C-SIGN-KEY DPP-NET-ACCESS-KEY >keys &&
	wl_ctl ap0 SET dpp_connector "$(sed -n "s/^DPP-CONNECTOR //p" keys)" >/dev/null &&
	wl_ctl ap0 SET dpp_csign "$(sed -n "s/^DPP-C-SIGN-KEY //p" keys)" >/dev/null &&
	wl_ctl ap0 SET dpp_netaccesskey "$(sed -n "s/^DPP-NET-ACCESS-KEY //p" keys)" >/dev/null
}

# dpp_enrollee: sta0, a station with no network that takes (and uses) a
# DPP configuration; its bootstrap URI (the QR code's text) in URI.
dpp_enrollee () {
	printf 'dpp_config_processing=2\n' >sta.conf &&
	wl_sta sta0 sta.conf &&
	wl__id=$(wl_ctl sta0 DPP_BOOTSTRAP_GEN type=qrcode chan=81/1 \
		mac=$(wl_addr sta0 | tr -d :)) &&
	URI=$(wl_ctl sta0 DPP_BOOTSTRAP_GET_URI "$wl__id") &&
	case $URI in
	DPP:C:81/1\;M:$(wl_addr sta0 | tr -d :)\;*) ;;
	*) say "not the URI asked for: $URI"; return 1 ;;
	esac
}

# dpp_pair listen|quiet: ap0 (dpp_ap) and sta0 (dpp_enrollee), sta0
# listening on channel 1 or not, ap0 having scanned its QR code: the
# command that starts the configuration (on ap0) in DPP_INIT.
dpp_pair () {
	wl_radios ap0 sta0 &&
	dpp_ap &&
	dpp_enrollee &&
	{ [ "$1" = quiet ] || wl_ctl sta0 DPP_LISTEN 2412 >/dev/null; } &&
	peer_id=$(wl_ctl ap0 DPP_QR_CODE "$URI") &&
	DPP_INIT="DPP_AUTH_INIT peer=$peer_id conf=sta-dpp ssid=$SSID_HEX configurator=$C"
}

test_expect_success 'the AP scans the station QR code, configures it, and the station joins by network introduction' '
	wl_setup &&
	dpp_pair listen &&
	wl_wait sta0 -t 30 -n 4 -x "wpactl -p /run/hostapd -i ap0 $DPP_INIT" \
		DPP-CONF-RECEIVED DPP-CONFOBJ-AKM DPP-INTRO CTRL-EVENT-CONNECTED >events &&
	grep -q "^DPP-CONFOBJ-AKM dpp$" events &&
	grep -q "^DPP-INTRO peer=$(wl_addr ap0) status=0" events &&
	test "$(wl_status sta0 key_mgmt)" = DPP &&
	wl_authorized ap0 sta0 &&
	grep -q "DPP-AUTH-SUCCESS init=1" "$(wl_log ap0)" &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_lacks "ICMP echo request"
'

test_expect_success 'a netAccessKey that expires after an hour: introduction again at 30 minutes, refused by the station after the hour' '
	wl_setup &&
	dpp_pair listen &&
	# The guest clock starts at 2024-01-01T00:00:00Z: expiry at 01:00.
	wl_wait sta0 -t 30 -n 2 -x "wpactl -p /run/hostapd -i ap0 $DPP_INIT expiry=1704070800" \
		DPP-CONF-RECEIVED CTRL-EVENT-CONNECTED >/dev/null &&
	grep -q "DPP: expiry = 2024-01-01T01:00:00Z" "$(wl_log sta0)" &&
	wl_ctl sta0 DISCONNECT >/dev/null &&
	sleep 1800 &&
	# Without its PMKSA the station must introduce itself again (a cached
	# PMKSA would let it back in without looking at the key).
	wl_ctl sta0 PMKSA_FLUSH >/dev/null &&
	wl_wait sta0 -t 30 -n 2 -c RECONNECT DPP-INTRO CTRL-EVENT-CONNECTED >again &&
	grep -q "^DPP-INTRO peer=$(wl_addr ap0) status=0" again &&
	wl_ctl sta0 DISCONNECT >/dev/null &&
	sleep 1900 &&
	wl_ctl sta0 PMKSA_FLUSH >/dev/null &&
	wl_wait sta0 -t 30 -c RECONNECT DPP-MISSING-CONNECTOR >expired &&
	grep -q "^DPP-MISSING-CONNECTOR netAccessKey expired" expired &&
	sleep 10 &&
	test "$(wl_status sta0 wpa_state)" != COMPLETED
'

test_expect_success 'an enrollee that does not listen: five authentication requests 2 s apart, and the configurator gives up with the fifth' '
	wl_setup &&
	dpp_pair quiet &&
	wl_wait ap0 -T -t 60 -n 6 -c "$DPP_INIT" "DPP-TX " DPP-AUTH-INIT-FAILED >tries &&
	grep "DPP-TX dst=$(wl_addr sta0) freq=2412 type=0" tries >requests &&
	test "$(wc -l <requests)" = 5 &&
	# Each request waits 2 s for its response, then the next goes; the
	# fifth, not acknowledged either, ends the attempt.
	wl_intervals requests 1.9 2.1 &&
	tail -n 1 tries | grep -q DPP-AUTH-INIT-FAILED &&
	test "$(tail -n 1 tries | cut -d" " -f1)" = "$(tail -n 1 requests | cut -d" " -f1)" &&
	! grep -q DPP-AUTH-SUCCESS "$(wl_log ap0)"
'

test_done
