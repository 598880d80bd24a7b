#!/bin/sh
test_description='opportunistic wireless encryption (OWE): plain, transition mode, group negotiation'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# owe_transition: an open BSS ap0 "umlrun-open" and its hidden OWE sister
# ap0b (BSSID ap0 + 1), each naming the other.
owe_transition () {
	bss1=$(wl_addr ap0) &&
	bss2=${bss1%:00}:01 &&
	wl_ap ap0 <<-EOF &&
	ssid=umlrun-open
	owe_transition_ifname=ap0b
	bss=ap0b
	bssid=$bss2
	ctrl_interface=$WL_HOSTAPD_DIR
	ssid=umlrun-owe-hidden
	ignore_broadcast_ssid=1
	wpa=2
	wpa_key_mgmt=OWE
	rsn_pairwise=CCMP
	ieee80211w=2
	owe_transition_ifname=ap0
	EOF
	wl_bss ap0 ap0b
}

test_expect_success 'OWE: an open network, yet encrypted by a Diffie-Hellman exchange' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-owe
	wpa=2
	wpa_key_mgmt=OWE
	rsn_pairwise=CCMP
	ieee80211w=2
	EOF
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-owe"
		key_mgmt=OWE
		ieee80211w=2
	}
	EOF
	wl_connected sta0 &&
	test "$(wl_status sta0 key_mgmt)" = OWE &&
	grep -q "OWE: Try to use group 19" "$(wl_log sta0)" &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_lacks "ICMP echo request"
'

test_expect_success 'OWE transition mode: an OWE station finds the hidden OWE BSS through the open one' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	owe_transition &&
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-open"
		key_mgmt=OWE
		ieee80211w=2
	}
	EOF
	wl_connected sta0 &&
	# The open BSS advertised the hidden one (OWE Transition Mode
	# element); the station joined that, under its hidden SSID.
	test "$(wl_status sta0 bssid)" = "$bss2" &&
	test "$(wl_status sta0 key_mgmt)" = OWE &&
	grep -q "OWE: transition mode BSSID: $bss1 SSID: umlrun-open" "$(wl_log sta0)" &&
	grep -q "OWE: transition mode OWE SSID for active OWE profile" "$(wl_log sta0)" &&
	wl_authorized ap0b sta0 &&
	wl_in ap0 $WL_IP addr add 10.0.0.1/24 dev ap0b &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_lacks "ICMP echo request"
'

test_expect_success 'OWE transition mode: a legacy station joins the open BSS in the clear' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	owe_transition &&
	wl_net_sta sta0 open umlrun-open &&
	wl_connected sta0 &&
	test "$(wl_status sta0 bssid)" = "$bss1" &&
	test "$(wl_status sta0 key_mgmt)" = NONE &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_has "ICMP echo request"
'

test_expect_success 'OWE group negotiation: refused group 19 (status 77), then group 21' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_ap ap0 <<-\EOF &&
	ssid=umlrun-owe
	wpa=2
	wpa_key_mgmt=OWE
	rsn_pairwise=CCMP
	ieee80211w=2
	owe_groups=21
	EOF
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-owe"
		key_mgmt=OWE
		ieee80211w=2
	}
	EOF
	wl_connected sta0 &&
	grep -q "CTRL-EVENT-ASSOC-REJECT bssid=$(wl_addr ap0) status_code=77" "$(wl_log sta0)" &&
	grep -q "OWE: Try next supported DH group" "$(wl_log sta0)" &&
	grep -q "OWE: Try to use group 21" "$(wl_log sta0)" &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_done
