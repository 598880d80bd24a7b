#!/bin/sh
test_description='Hotspot 2.0: ANQP queries before association, GAS comeback, interworking network selection'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# The hotspot: WPA2-Enterprise (required for HS 2.0) with EAP-TTLS/PAP on
# the internal EAP server, advertising its venue, operator, domain and NAI
# realm over ANQP (GAS frames, before any association).
#
# hs_ap [LINES...]: the hotspot on ap0, LINES added.
hs_ap () {
	{ test -f ca.pem || wl_certs; } &&
	printf '*\tTTLS\n"alice"\tTTLS-PAP\t"wonderland"\t[2]\n"alice@umlrun.example"\tTTLS-PAP\t"wonderland"\t[2]\n' >eap_users &&
	printf '%s\n' ssid=umlrun-hs20 wpa=2 wpa_key_mgmt=WPA-EAP rsn_pairwise=CCMP \
		ieee80211w=1 ieee8021x=1 eap_server=1 "eap_user_file=$PWD/eap_users" \
		"ca_cert=$PWD/ca.pem" "server_cert=$PWD/server.pem" \
		"private_key=$PWD/server.key" \
		interworking=1 access_network_type=14 internet=1 venue_group=7 venue_type=1 \
		"venue_name=eng:Umlrun test venue" roaming_consortium=112233 \
		domain_name=umlrun.example "nai_realm=0,umlrun.example,21[2:1][5:7]" \
		anqp_3gpp_cell_net=244,91 hs20=1 "hs20_oper_friendly_name=eng:Umlrun operator" \
		"$@" >ap.conf &&
	wl_ap ap0 ap.conf
}

# hs_sta [REALM]: an HS 2.0 station holding a credential for REALM
# (default umlrun.example), no network block; it has scanned.
hs_sta () {
	wl_sta sta0 <<-EOF &&
	interworking=1
	hs20=1
	cred={
		realm="${1:-umlrun.example}"
		username="alice"
		password="wonderland"
		ca_cert="$PWD/ca.pem"
		domain="${1:-umlrun.example}"
	}
	EOF
	wl_wait sta0 -t 30 -c SCAN CTRL-EVENT-SCAN-RESULTS >/dev/null
}

# hs_hex TEXT: TEXT as lower-case hex.
hs_hex () {
	printf %s "$1" | od -An -tx1 | tr -d " \n"
}

test_expect_success 'ANQP: venue name, NAI realm and domain name, asked before associating' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	hs_ap &&
	hs_sta &&
	bssid=$(wl_addr ap0) &&
	wl_wait sta0 -t 10 -c "ANQP_GET $bssid 258,263,268" \
		"ANQP-QUERY-DONE addr=$bssid result=SUCCESS" >/dev/null &&
	grep -q "RX-ANQP $bssid Venue Name" "$(wl_log sta0)" &&
	grep -q "RX-ANQP $bssid NAI Realm list" "$(wl_log sta0)" &&
	grep -q "RX-ANQP $bssid Domain Name list" "$(wl_log sta0)" &&
	wl_ctl sta0 BSS $bssid >bss &&
	grep -q "^anqp_domain_name=.*$(hs_hex umlrun.example)" bss &&
	grep -q "^anqp_venue_name=.*$(hs_hex "Umlrun test venue")" bss &&
	# Still not associated: all of it went in GAS public action frames.
	test "$(wl_status sta0 wpa_state)" != COMPLETED
'

test_expect_success 'HS 2.0 ANQP: the operator friendly name' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	hs_ap &&
	hs_sta &&
	bssid=$(wl_addr ap0) &&
	wl_wait sta0 -t 10 -c "HS20_ANQP_GET $bssid 3" \
		"RX-HS20-ANQP $bssid Operator Friendly Name" >/dev/null &&
	wl_ctl sta0 BSS $bssid >bss &&
	grep -q "^hs20_operator_friendly_name=.*$(hs_hex "Umlrun operator")" bss
'

test_expect_success 'GAS comeback: the AP defers its answer, the station comes back after the delay' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# 2000 TU: 2.048 s
	hs_ap gas_comeback_delay=2000 &&
	hs_sta &&
	bssid=$(wl_addr ap0) &&
	wl_wait sta0 -T -t 10 -n 2 -c "ANQP_GET $bssid 268" \
		"GAS-QUERY-START addr=$bssid" "ANQP-QUERY-DONE addr=$bssid result=SUCCESS" >gas &&
	wl_intervals gas 2.0 2.3 &&
	grep -q "RX-ANQP $bssid Domain Name list" "$(wl_log sta0)"
'

test_expect_success 'interworking selection: the home network is chosen and joined with the credential' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	hs_ap &&
	hs_sta &&
	bssid=$(wl_addr ap0) &&
	wl_wait sta0 -t 30 -c "INTERWORKING_SELECT auto" "INTERWORKING-AP $bssid type=home" >/dev/null &&
	wl_connected sta0 &&
	test "$(wl_status sta0 selectedMethod)" = "21 (EAP-TTLS)" &&
	grep -q "EAP-TTLS/PAP: Correct user password" "$(wl_log ap0)" &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'a credential for another realm: no match, no connection' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	hs_ap &&
	hs_sta elsewhere.example &&
	wl_wait sta0 -t 30 -c "INTERWORKING_SELECT auto" INTERWORKING-NO-MATCH >/dev/null &&
	! grep -q "INTERWORKING-AP" "$(wl_log sta0)" &&
	! grep -q CTRL-EVENT-CONNECTED "$(wl_log sta0)"
'

test_done
