#!/bin/sh
test_description='a separate RADIUS server: hostapd as the AAA server of another hostapd, retransmission, failover, accounting'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# The RADIUS server is a second hostapd (driver=none, its internal EAP
# server behind radius_server_clients) on a machine of its own, as0, on a
# cable to the AP: 10.1.0.1 the AP, 10.1.0.2 the server.
#
# rad_server [CLIENT_SECRET]: the machine, the cable and the server; the
# server knows 10.1.0.0/24 under CLIENT_SECRET (default: the right one).
rad_server () {
	wl_host as0 &&
	wl_link ap0 10.1.0.1/24 as0 10.1.0.2/24 &&
	{ test -f ca.pem || wl_certs; } &&
	printf "\"alice\"\tPEAP\n\"alice\"\tMSCHAPV2\t\"wonderland\"\t[2]\n" >eap_users &&
	printf "10.1.0.0/24 %s\n" "${1:-radius secret}" >clients &&
	wl_ap as0 <<-EOF
	driver=none
	radius_server_clients=$PWD/clients
	radius_server_auth_port=1812
	radius_server_acct_port=1813
	eap_server=1
	eap_user_file=$PWD/eap_users
	ca_cert=$PWD/ca.pem
	server_cert=$PWD/server.pem
	private_key=$PWD/server.key
	EOF
}

# rad_ap LINES...: a WPA2-Enterprise AP whose EAP goes to the RADIUS
# server(s) given by LINES.
rad_ap () {
	{
		printf '%s\n' ssid=umlrun-radius wpa=2 wpa_key_mgmt=WPA-EAP \
			rsn_pairwise=CCMP ieee8021x=1 own_ip_addr=10.1.0.1 "$@"
	} >ap.conf &&
	wl_ap ap0 ap.conf
}

rad_sta () {
	wl_sta sta0 <<-EOF
	network={
		ssid="umlrun-radius"
		key_mgmt=WPA-EAP
		eap=PEAP
		identity="alice"
		password="wonderland"
		ca_cert="$PWD/ca.pem"
		phase2="auth=MSCHAPV2"
	}
	EOF
}

# rad_times LOG TEXT: the simulated times (the -t stamps of the log, in
# seconds) of the lines holding TEXT, one a line.
rad_times () {
	grep -F -- "$2" "$1" | awk -F: '{ print $1 }'
}

# rad_gaps FILE: the gaps between the times of FILE, rounded to seconds.
rad_gaps () {
	awk 'NR > 1 { printf "%.0f\n", $1 - prev } { prev = $1 }' "$1"
}

test_expect_success 'PEAP through the RADIUS server: Access-Request out, Access-Accept with the keys back' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rad_server &&
	rad_ap auth_server_addr=10.1.0.2 auth_server_port=1812 \
		"auth_server_shared_secret=radius secret" &&
	rad_sta &&
	wl_connected sta0 &&
	test "$(wl_status sta0 selectedMethod)" = "25 (EAP-PEAP)" &&
	# The server ran the EAP method: its log, not the log of the AP.
	grep -q "RADIUS SRV: Received [0-9]* bytes from 10.1.0.1:" "$(wl_log as0)" &&
	grep -q "RADIUS SRV: Reply to 10.1.0.1:" "$(wl_log as0)" &&
	grep -q "EAP-MSCHAPV2: Received Success Response - authentication completed successfully" "$(wl_log as0)" &&
	! grep -q "EAP-MSCHAPV2" "$(wl_log ap0)" &&
	# The AP got the accept with the MPPE keys (the PMK) and let the
	# station through the 4-way handshake.
	grep -q "Received RADIUS message" "$(wl_log ap0)" &&
	grep -q "decapsulated EAP packet (code=3" "$(wl_log ap0)" &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_has "EAPOL"
'

test_expect_success 'a wrong shared secret: the server drops each request, the AP resends after 3, 6, 12 s, then fails over' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rad_server "another secret" &&
	rad_ap auth_server_addr=10.1.0.2 auth_server_port=1812 \
		"auth_server_shared_secret=radius secret" &&
	rad_sta &&
	# The AP retransmits with a doubling wait (RADIUS_CLIENT_FIRST_WAIT 3 s);
	# the station gives up on that EAP exchange first and starts another,
	# whose request is resent in turn, until the AP declares the server
	# dead (a failover, here to the same and only server).
	test_must_fail wl_wait sta0 -t 100 CTRL-EVENT-CONNECTED >/dev/null &&
	grep -q "Next RADIUS client retransmit in 3 seconds" "$(wl_log ap0)" &&
	rad_times "$(wl_log ap0)" "Resending RADIUS message (id=0)" >resends &&
	test_line_count = 3 resends &&
	rad_gaps resends >gaps &&
	printf "6\n12\n" >gaps.want &&
	test_cmp gaps.want gaps &&
	grep -q "No response from Authentication server 10.1.0.2:1812 - failover" "$(wl_log ap0)" &&
	grep -q "RADIUS SRV: Invalid Message-Authenticator from 10.1.0.1" "$(wl_log as0)" &&
	! grep -q "RADIUS SRV: Reply to" "$(wl_log as0)" &&
	! grep -q CTRL-EVENT-CONNECTED "$(wl_log sta0)" &&
	test_must_fail wl_authorized ap0 sta0
'

test_expect_success 'failover: no answer from the primary server, the secondary lets the station in' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rad_server &&
	# The primary, 10.1.0.9, is not on the wire: nothing ever answers.
	rad_ap auth_server_addr=10.1.0.9 auth_server_port=1812 \
		"auth_server_shared_secret=radius secret" \
		auth_server_addr=10.1.0.2 auth_server_port=1812 \
		"auth_server_shared_secret=radius secret" &&
	rad_sta &&
	wl_connected sta0 200 &&
	grep -q "No response from Authentication server 10.1.0.9:1812 - failover" "$(wl_log ap0)" &&
	grep -q "RADIUS SRV: Reply to 10.1.0.1:" "$(wl_log as0)" &&
	wl_authorized ap0 sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
'

test_expect_success 'accounting: Start, an interim update every 60 s, Stop when the station leaves' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rad_server &&
	rad_ap auth_server_addr=10.1.0.2 auth_server_port=1812 \
		"auth_server_shared_secret=radius secret" \
		acct_server_addr=10.1.0.2 acct_server_port=1813 \
		"acct_server_shared_secret=radius secret" \
		radius_acct_interim_interval=60 &&
	rad_sta &&
	wl_connected sta0 &&
	grep -q "starting accounting session" "$(wl_log ap0)" &&
	# Two interim updates, 60 s apart, each answered by the server.
	test_must_fail wl_wait sta0 -t 125 CTRL-EVENT-DISCONNECTED >/dev/null &&
	rad_times "$(wl_log ap0)" "updated TX/RX stats" >interims &&
	test_line_count = 2 interims &&
	wl_intervals interims 59.9 60.5 &&
	# The server answered the start and both updates on its accounting
	# port (after the access requests of the EAP exchange).
	test $(grep -c "RADIUS SRV: Reply to 10.1.0.1:" "$(wl_log as0)") -ge 3 &&
	grep -q "Sending RADIUS message to accounting server" "$(wl_log ap0)" &&
	! grep -q "Resending RADIUS message" "$(wl_log ap0)" &&
	wl_wait ap0 -t 10 -x "$(wl_kill_cmd sta0)" AP-STA-DISCONNECTED >/dev/null &&
	# hostapd logs the stop after the event: a reply to PING comes after.
	wl_ctl ap0 PING >/dev/null &&
	grep -q "stopped accounting session" "$(wl_log ap0)"
'

test_done
