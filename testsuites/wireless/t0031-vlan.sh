#!/bin/sh
test_description='per-station VLANs: hostapd puts each station on the VLAN its passphrase or its RADIUS server names, a bridge per VLAN, tagged on the wire'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# vl_ap [LINES...]: a WPA2-PSK AP on ap0 whose stations get a VLAN from
# their passphrase (wpa_psk_file: "vlan ten" gives VLAN 10, "vlan twenty"
# VLAN 20, "vlan ten too" VLAN 10 as well); each VLAN gets an AP_VLAN
# interface ap0.N on a bridge brvlanN (hostapd's full dynamic VLAN).
vl_ap () {
	printf '%s\n' 'vlanid=10 00:00:00:00:00:00 vlan ten' \
		'vlanid=20 00:00:00:00:00:00 vlan twenty' \
		'vlanid=10 00:00:00:00:00:00 vlan ten too' >psk.txt &&
	printf '%s\n' '10 ap0.10' '20 ap0.20' >vlan.txt &&
	{
		printf '%s\n' ssid=umlrun-vlan wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP \
			"wpa_psk_file=$PWD/psk.txt" dynamic_vlan=1 "vlan_file=$PWD/vlan.txt" \
			vlan_bridge=brvlan "$@"
	} >ap.conf &&
	wl_ap ap0 ap.conf
}

# vl_sta NAME PASSPHRASE: a station of umlrun-vlan.
vl_sta () {
	printf '%s\n' 'network={' '	ssid="umlrun-vlan"' "	psk=\"$2\"" '}' >"$1.conf" &&
	wl_sta "$1" "$1.conf" &&
	wl_connected "$1"
}

test_expect_success 'each station lands on the VLAN of its passphrase, on that VLAN'"'"'s bridge' '
	wl_setup &&
	wl_radios ap0 sta0 sta1 &&
	vl_ap &&
	vl_sta sta0 "vlan ten" &&
	vl_sta sta1 "vlan twenty" &&
	wl_ctl ap0 STA $(wl_addr sta0) >sta0.info &&
	grep -q "^vlan_id=10$" sta0.info &&
	wl_ctl ap0 STA $(wl_addr sta1) >sta1.info &&
	grep -q "^vlan_id=20$" sta1.info &&
	wl_in ap0 $WL_IP -o link show master brvlan10 >br10 &&
	grep -q " ap0\.10[:@]" br10 &&
	wl_in ap0 $WL_IP -o link show master brvlan20 >br20 &&
	grep -q " ap0\.20[:@]" br20 &&
	wl_in ap0 $WL_IP addr add 10.0.10.1/24 dev brvlan10 &&
	wl_in ap0 $WL_IP addr add 10.0.20.1/24 dev brvlan20 &&
	wl_ip sta0 10.0.10.2/24 &&
	wl_ip sta1 10.0.20.2/24 &&
	wl_ping sta0 10.0.10.1 &&
	wl_ping sta1 10.0.20.1
'

test_expect_success 'stations on one VLAN reach each other; on two VLANs they do not, even in one subnet' '
	wl_setup &&
	wl_radios ap0 sta0 sta1 sta2 &&
	vl_ap &&
	vl_sta sta0 "vlan ten" &&
	vl_sta sta1 "vlan ten too" &&
	vl_sta sta2 "vlan twenty" &&
	wl_ip sta0 10.0.0.1/24 &&
	wl_ip sta1 10.0.0.2/24 &&
	wl_ip sta2 10.0.0.3/24 &&
	wl_ping sta0 10.0.0.2 &&
	wl_no_ping sta0 10.0.0.3
'

test_expect_success 'on the wire, a VLAN'"'"'s frames carry its 802.1Q tag' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_host lan &&
	wl_link ap0 192.168.50.1/24 lan 192.168.50.2/24 &&
	vl_ap vlan_tagged_interface=eth-lan vlan_naming=1 &&
	vl_sta sta0 "vlan ten" &&
	# The bridge of VLAN 10 holds the station side and eth-lan.10.
	wl_in ap0 $WL_IP -o link show master brvlan10 >br10 &&
	grep -q " eth-lan\.10[:@]" br10 &&
	wl_in lan $WL_IP link add link eth-ap0 name eth-ap0.10 type vlan id 10 &&
	wl_in lan $WL_IP addr add 10.0.10.9/24 dev eth-ap0.10 &&
	wl_in lan $WL_IP link set eth-ap0.10 up &&
	wl_ip sta0 10.0.10.2/24 &&
	wl_ping sta0 10.0.10.9 &&
	# The echo requests came in tagged: through the VLAN interface.
	rx=$(wl_in lan cat /sys/class/net/eth-ap0.10/statistics/rx_packets) &&
	test "$rx" -ge 3
'

test_expect_success 'dynamic VLAN from RADIUS: the Access-Accept names VLAN 20, the station lands there' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# The RADIUS server: a hostapd on a wired machine as0, EAP-PSK for
	# alice, and three attributes in its Access-Accept: Tunnel-Type (64)
	# VLAN (13), Tunnel-Medium-Type (65) 802 (6), Tunnel-Private-Group-ID
	# (81) "20".
	wl_host as0 &&
	wl_link ap0 10.1.0.1/24 as0 10.1.0.2/24 &&
	printf "%s\n" "\"alice\" PSK 0123456789abcdef0123456789abcdef" \
		radius_accept_attr=64:d:13 radius_accept_attr=65:d:6 \
		radius_accept_attr=81:s:20 >eap_users &&
	printf "10.1.0.0/24 radius secret\n" >clients &&
	wl_ap as0 <<-EOF &&
	driver=none
	radius_server_clients=$PWD/clients
	radius_server_auth_port=1812
	eap_server=1
	eap_user_file=$PWD/eap_users
	EOF
	printf "%s\n" "10 ap0.10" "20 ap0.20" >vlan.txt &&
	wl_ap ap0 <<-EOF &&
	ssid=umlrun-vlan
	wpa=2
	wpa_key_mgmt=WPA-EAP
	rsn_pairwise=CCMP
	ieee8021x=1
	own_ip_addr=10.1.0.1
	auth_server_addr=10.1.0.2
	auth_server_port=1812
	auth_server_shared_secret=radius secret
	dynamic_vlan=1
	vlan_file=$PWD/vlan.txt
	vlan_bridge=brvlan
	EOF
	wl_net_sta sta0 eap umlrun-vlan eap=PSK "identity=\"alice\"" \
		password=0123456789abcdef0123456789abcdef &&
	wl_connected sta0 &&
	wl_ctl ap0 STA $(wl_addr sta0) >sta0.info &&
	grep -q "^vlan_id=20$" sta0.info &&
	wl_in ap0 $WL_IP -o link show master brvlan20 >br20 &&
	grep -q " ap0\.20[:@]" br20 &&
	wl_in ap0 $WL_IP addr add 10.0.20.1/24 dev brvlan20 &&
	wl_ip sta0 10.0.20.2/24 &&
	wl_ping sta0 10.0.20.1 &&
	# Only the server knew the VLAN: the AP read it from the accept.
	grep -q "Attribute 81 (Tunnel-Private-Group-Id)" "$(wl_log ap0)" &&
	grep -q "$(wl_addr sta0) RADIUS: VLAN ID 20" "$(wl_log ap0)" &&
	grep -q "RADIUS SRV: Reply to 10.1.0.1:" "$(wl_log as0)"
'

test_done
