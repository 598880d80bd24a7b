#!/bin/sh
test_description='AP inactivity, 802.1X reauthentication and PMK lifetime timers'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

test_expect_success 'the AP drops a station gone silent after ap_max_inactivity' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-idle
	ap_max_inactivity=60
	EOF
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-idle"
		key_mgmt=NONE
	}
	EOF
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	# The station walks out of range without a word. The AP notices
	# nothing until its inactivity timer runs out; then its poll goes
	# unacknowledged and it lets the station go.
	echo "$(wl_uptime) out of range" >gone &&
	wl_wait ap0 -T -t 90 -x "$(wl_range_cmd sta0 off)" \
		"AP-STA-DISCONNECTED $(wl_addr sta0)" >>gone &&
	# At least ap_max_inactivity. hostapd checks the station 60 s after
	# it associated, finds it active (the ping) and checks again when it
	# would have been idle 60 s plus a random 0-19 s (so that idle
	# stations do not all go at once); then its poll goes unanswered for
	# 3 s and it disassociates.
	wl_intervals gone 60 85 &&
	grep -q "Station $(wl_addr sta0) has been inactive too long" "$(wl_log ap0)" &&
	grep -q "Polling STA" "$(wl_log ap0)" &&
	grep -q "$(wl_addr sta0) IEEE 802.11: disassociated due to inactivity" "$(wl_log ap0)" &&
	# The station lost the AP as well (beacon loss).
	test "$(wl_status sta0 wpa_state)" != COMPLETED
'

test_expect_success 'the AP reauthenticates an 802.1X station every eap_reauth_period' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	printf "\"umlrun@example.com\" PSK 0123456789abcdef0123456789abcdef\n" >eap_users &&
	wl_ap ap0 <<-EOF &&
	ssid=umlrun-eap
	wpa=2
	wpa_key_mgmt=WPA-EAP
	rsn_pairwise=CCMP
	ieee8021x=1
	eap_server=1
	eap_user_file=$PWD/eap_users
	eap_reauth_period=60
	EOF
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-eap"
		key_mgmt=WPA-EAP
		eap=PSK
		identity="umlrun@example.com"
		password=0123456789abcdef0123456789abcdef
		disabled=1
	}
	EOF
	# The first EAP-PSK authentication, then two reauthentications 60 s
	# apart, without leaving the network.
	wl_wait sta0 -T -t 150 -n 3 -c "ENABLE_NETWORK 0" \
		CTRL-EVENT-EAP-SUCCESS CTRL-EVENT-DISCONNECTED >auths &&
	test $(grep -c CTRL-EVENT-EAP-SUCCESS auths) = 3 &&
	wl_intervals auths 60 61 &&
	wl_completed sta0 &&
	test "$(wl_status sta0 EAP\ state)" = SUCCESS &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'an 802.1X station reauthenticates before its PMK lifetime ends' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	printf "\"umlrun@example.com\" PSK 0123456789abcdef0123456789abcdef\n" >eap_users &&
	wl_ap ap0 <<-EOF &&
	ssid=umlrun-pmk
	wpa=2
	wpa_key_mgmt=WPA-EAP
	rsn_pairwise=CCMP
	ieee8021x=1
	eap_server=1
	eap_user_file=$PWD/eap_users
	EOF
	# The PMK (the session key) lives 120 s; at 50 % of it the station
	# starts a fresh EAP authentication itself, well before it expires.
	wl_sta sta0 <<-\EOF &&
	dot11RSNAConfigPMKLifetime=120
	dot11RSNAConfigPMKReauthThreshold=50
	network={
		ssid="umlrun-pmk"
		key_mgmt=WPA-EAP
		eap=PSK
		identity="umlrun@example.com"
		password=0123456789abcdef0123456789abcdef
		disabled=1
	}
	EOF
	# A new PMKSA replaces the old one 60 s after the first, and the
	# station never left the network in between.
	wl_wait sta0 -T -t 100 -n 2 -c "ENABLE_NETWORK 0" \
		PMKSA-CACHE-ADDED CTRL-EVENT-DISCONNECTED >pmksa &&
	test $(grep -c PMKSA-CACHE-ADDED pmksa) = 2 &&
	wl_intervals pmksa 60 61 &&
	test $(grep -c "sta0: CTRL-EVENT-EAP-SUCCESS" "$(wl_log sta0)") = 2 &&
	wl_completed sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_done
