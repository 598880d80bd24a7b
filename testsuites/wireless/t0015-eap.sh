#!/bin/sh
test_description='EAP methods against the internal EAP server of hostapd, certificates made by openssl'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# eap_certs: the certificates of the file, made once (by the first test
# that needs them) in the scratch folder, which all tests of the file share:
# openssl in the guest costs seconds of wall time per set.
eap_certs () {
	test -f client.pem || wl_certs
}

# eap_ap: a WPA2-Enterprise AP whose own EAP server knows alice (PEAP
# and TTLS, inner MSCHAPv2 or PAP) and the TLS client certificate.
eap_ap () {
	eap_certs &&
	cat >eap_users <<-\EOF &&
	"alice"	PEAP,TTLS
	"client.umlrun.example"	TLS
	"alice"	MSCHAPV2,TTLS-PAP	"wonderland"	[2]
	EOF
	wl_net_ap ap0 eap umlrun-eap "eap_user_file=$PWD/eap_users" "ca_cert=$PWD/ca.pem" \
		"server_cert=$PWD/server.pem" "private_key=$PWD/server.key"
}

# eap_sta LINES...: a station of it, the network block's EAP lines given.
eap_sta () {
	wl_net_sta sta0 eap umlrun-eap "$@"
}

eap_ping () {
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
}

test_expect_success 'PEAP-MSCHAPv2: the tunnel to the checked server, then the password inside' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_ap &&
	eap_sta eap=PEAP identity=\"alice\" password=\"wonderland\" \
		ca_cert=\"$PWD/ca.pem\" phase2=\"auth=MSCHAPV2\" &&
	wl_connected sta0 &&
	grep -q "CTRL-EVENT-EAP-PEER-CERT depth=0 subject=.*CN=server.umlrun.example" "$(wl_log sta0)" &&
	grep -q "CTRL-EVENT-EAP-SUCCESS" "$(wl_log sta0)" &&
	test "$(wl_status sta0 EAP\ state)" = SUCCESS &&
	test "$(wl_status sta0 selectedMethod)" = "25 (EAP-PEAP)" &&
	wl_authorized ap0 sta0 &&
	eap_ping
'

test_expect_success 'PEAP-MSCHAPv2 with a wrong password: EAP failure, no connection' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_ap &&
	eap_sta eap=PEAP identity=\"alice\" password=\"looking-glass\" \
		ca_cert=\"$PWD/ca.pem\" phase2=\"auth=MSCHAPV2\" &&
	wl_wait sta0 -t 30 CTRL-EVENT-EAP-FAILURE >/dev/null &&
	grep -q "EAP-MSCHAPV2: Received failure" "$(wl_log sta0)" &&
	! grep -q CTRL-EVENT-CONNECTED "$(wl_log sta0)" &&
	test_must_fail wl_authorized ap0 sta0
'

test_expect_success 'TTLS-PAP: the password in the clear inside the TLS tunnel' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_ap &&
	eap_sta eap=TTLS identity=\"alice\" password=\"wonderland\" \
		ca_cert=\"$PWD/ca.pem\" phase2=\"auth=PAP\" &&
	wl_connected sta0 &&
	test "$(wl_status sta0 selectedMethod)" = "21 (EAP-TTLS)" &&
	grep -q "EAP-TTLS/PAP: Correct user password" "$(wl_log ap0)" &&
	wl_authorized ap0 sta0 &&
	eap_ping
'

test_expect_success 'TTLS-PAP with a wrong password: refused by the server' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_ap &&
	eap_sta eap=TTLS identity=\"alice\" password=\"queen-of-hearts\" \
		ca_cert=\"$PWD/ca.pem\" phase2=\"auth=PAP\" &&
	wl_wait sta0 -t 30 CTRL-EVENT-EAP-FAILURE >/dev/null &&
	grep -q "EAP-TTLS/PAP: Invalid user password" "$(wl_log ap0)" &&
	test_must_fail wl_authorized ap0 sta0
'

test_expect_success 'EAP-TLS: both sides show certificates from the same CA' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_ap &&
	eap_sta eap=TLS identity=\"client.umlrun.example\" ca_cert=\"$PWD/ca.pem\" \
		client_cert=\"$PWD/client.pem\" private_key=\"$PWD/client.key\" &&
	wl_connected sta0 &&
	test "$(wl_status sta0 selectedMethod)" = "13 (EAP-TLS)" &&
	grep -q "CTRL-EVENT-EAP-PEER-CERT depth=0 subject=.*CN=server.umlrun.example" "$(wl_log sta0)" &&
	grep -q "authsrv: peer certificate: depth=0 .*subject=/CN=client.umlrun.example" "$(wl_log ap0)" &&
	wl_authorized ap0 sta0 &&
	eap_ping
'

test_expect_success 'a station trusting another CA refuses the server certificate' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_ap &&
	eap_sta eap=PEAP identity=\"alice\" password=\"wonderland\" \
		ca_cert=\"$PWD/other-ca.pem\" phase2=\"auth=MSCHAPV2\" &&
	wl_wait sta0 -t 30 CTRL-EVENT-EAP-TLS-CERT-ERROR >err &&
	grep -q "reason=1 depth=1 subject=.*CN=umlrun ca.* err=.self-signed certificate in certificate chain" err &&
	wl_wait sta0 -t 30 -s STATUS "EAP state=FAILURE" CTRL-EVENT-EAP-FAILURE >/dev/null &&
	test_must_fail wl_authorized ap0 sta0
'

test_expect_success 'TLS session resumption on reauthentication (tls_session_lifetime)' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	eap_certs &&
	printf "\"alice\"\tPEAP\n\"alice\"\tMSCHAPV2\t\"wonderland\"\t[2]\n" >eap_users &&
	wl_ap ap0 <<-EOF &&
	ssid=umlrun-eap
	wpa=2
	wpa_key_mgmt=WPA-EAP
	rsn_pairwise=CCMP
	ieee8021x=1
	eap_server=1
	eap_user_file=$PWD/eap_users
	ca_cert=$PWD/ca.pem
	server_cert=$PWD/server.pem
	private_key=$PWD/server.key
	tls_session_lifetime=3600
	eap_reauth_period=60
	EOF
	eap_sta eap=PEAP identity=\"alice\" password=\"wonderland\" \
		ca_cert=\"$PWD/ca.pem\" phase2=\"auth=MSCHAPV2\" &&
	wl_connected sta0 &&
	# The AP reauthenticates after eap_reauth_period; the station offers
	# its TLS session and the server resumes it: no certificate this time.
	wl_wait sta0 -T -t 70 CTRL-EVENT-EAP-SUCCESS >reauth &&
	test $(grep -c "CTRL-EVENT-EAP-SUCCESS" "$(wl_log sta0)") = 2 &&
	test $(grep -c "CTRL-EVENT-EAP-PEER-CERT depth=0" "$(wl_log sta0)") = 1 &&
	test $(grep -c "OpenSSL: Handshake finished - resumed=0" "$(wl_log ap0)") = 1 &&
	test $(grep -c "OpenSSL: Handshake finished - resumed=1" "$(wl_log ap0)") = 1 &&
	eap_ping
'

test_done
