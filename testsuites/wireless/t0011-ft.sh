#!/bin/sh
test_description='fast BSS transition (802.11r): FT-PSK and FT-SAE over the air, R0KH/R1KH pull'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# Two BSSes of one mobility domain on one radio, run by one hostapd: its
# RRB messages (PMK-R1 pull and push, FT over the DS) go straight from one
# BSS to the other in the process, as between two APs on one DS (t0032
# has two APs on a bridged cable, for FT over the DS).
#
# ft_conf AKM EXTRA: the configuration of BSS ap0 and its sister ap0b
# (BSSID ap0 + 1), EXTRA lines in both. Sets bss1 and bss2.
ft_conf () {
	bss1=$(wl_addr ap0) &&
	bss2=${bss1%:00}:01 &&
	for b in 1 2
	do
		if test $b = 1
		then
			echo "# BSS 1"
		else
			echo "bss=ap0b" &&
			echo "bssid=$bss2" &&
			echo "ctrl_interface=$WL_HOSTAPD_DIR"
		fi &&
		eval "kh=\$bss$b" &&
		cat <<-EOF || return 1
		ssid=umlrun-ft
		wpa=2
		wpa_key_mgmt=$1
		rsn_pairwise=CCMP
		wpa_passphrase=fast transition
		mobility_domain=a1b2
		nas_identifier=bss$b.example.com
		r1_key_holder=$(echo $kh | tr -d :)
		$2
		EOF
	done
}

# ft_sta AKM [EXTRA]: a station of umlrun-ft, then wait for it to connect;
# sets from/to (the BSS it chose, the other one) and their addresses.
ft_sta () {
	bss1=$(wl_addr ap0) &&
	bss2=${bss1%:00}:01 &&
	wl_sta sta0 <<-EOF &&
	network={
		ssid="umlrun-ft"
		key_mgmt=$1
		psk="fast transition"
		$2
	}
	EOF
	wl_connected sta0 &&
	if test "$(wl_status sta0 bssid)" = "$bss1"
	then
		from=$bss1 to=$bss2 to_if=ap0b to_ip=10.0.1.1 from_ip=10.0.0.1
	else
		from=$bss2 to=$bss1 to_if=ap0 to_ip=10.0.0.1 from_ip=10.0.1.1
	fi &&
	# One subnet per BSS: only the BSS the station is on answers.
	wl_ip ap0 10.0.0.1/24 &&
	wl_in ap0 $WL_IP addr add 10.0.1.1/24 dev ap0b &&
	wl_ip sta0 10.0.0.100/24 &&
	wl_ip sta0 10.0.1.100/24
}

ft_psk () {
	ft_conf FT-PSK "$1" >ft.conf &&
	wl_ap ap0 ft.conf &&
	wl_bss ap0 ap0b
}

test_expect_success 'FT-PSK over the air: the roam is one FT authentication, no 4-way handshake' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	ft_psk "ft_psk_generate_local=1" &&
	ft_sta FT-PSK &&
	wl_ping sta0 $from_ip &&
	wl_wait sta0 -t 30 -c "ROAM $to" "CTRL-EVENT-CONNECTED - Connection to $to" >/dev/null &&
	test "$(wl_status sta0 bssid)" = "$to" &&
	wl_authorized $to_if sta0 &&
	# The station did FT (auth_alg 2) and the target derived PMK-R1 from
	# the PSK, with one 4-way handshake in all: the first association.
	grep -q "FT: Completed successfully" "$(wl_log sta0)" &&
	grep -q "FT: Generated PMK-R1 for FT-PSK locally" "$(wl_log ap0)" &&
	test $(grep -c "RX message 1 of 4-Way Handshake" "$(wl_log sta0)") = 1 &&
	wl_ping sta0 $to_ip &&
	wl_no_ping sta0 $from_ip &&
	# (after the pings: the capture lags up to a second behind the air)
	# tcpdump names authentication algorithm 2 (FT) "EAP".
	wl_air_has "SA:$(wl_addr sta0) Authentication (EAP)-1" &&
	wl_air_has "ReAssoc Request"
'

test_expect_success 'FT-SAE: SAE once, then FT to the other BSS' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	ft_conf FT-SAE "ieee80211w=2
ft_psk_generate_local=0
pmk_r1_push=1
r0kh=ff:ff:ff:ff:ff:ff * 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
r1kh=00:00:00:00:00:00 00:00:00:00:00:00 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff" >ft.conf &&
	wl_ap ap0 ft.conf &&
	wl_bss ap0 ap0b &&
	ft_sta FT-SAE "ieee80211w=2" &&
	grep -q "SAE: State Committed -> Confirmed" "$(wl_log ap0)" &&
	wl_wait sta0 -t 30 -c "ROAM $to" "CTRL-EVENT-CONNECTED - Connection to $to" >/dev/null &&
	grep -q "FT: Completed successfully" "$(wl_log sta0)" &&
	# SAE ran for the first association only.
	test $(grep -c "SAE: State Committed -> Confirmed" "$(wl_log ap0)") = 1 &&
	wl_authorized $to_if sta0 &&
	wl_ping sta0 $to_ip
'

test_expect_success 'R0KH/R1KH: the target pulls PMK-R1 from the first BSS' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	ft_psk "ft_psk_generate_local=0
pmk_r1_push=0
r0kh=ff:ff:ff:ff:ff:ff * 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
r1kh=00:00:00:00:00:00 00:00:00:00:00:00 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff" &&
	ft_sta FT-PSK &&
	wl_wait sta0 -t 30 -c "ROAM $to" "CTRL-EVENT-CONNECTED - Connection to $to" >/dev/null &&
	# The target had no PMK-R1: it asked the R0KH (the first BSS), which
	# answered; then the station was let in.
	grep -q "FT: Send PMK-R1 pull request from $to to remote R0KH address $from" "$(wl_log ap0)" &&
	grep -q "FT: Received PMK-R1 pull response" "$(wl_log ap0)" &&
	grep -q "FT: Completed successfully" "$(wl_log sta0)" &&
	wl_authorized $to_if sta0 &&
	wl_ping sta0 $to_ip
'

test_expect_success 'an R0KH that never answers: FT fails, the station associates again in full' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# Each BSS knows the other only under a wrong key: the pull request
	# is dropped, retried every rkh_pull_timeout, then given up.
	ft_conf FT-PSK "ft_psk_generate_local=0
pmk_r1_push=0
rkh_pull_timeout=2000
rkh_pull_retries=2
r0kh=ff:ff:ff:ff:ff:ff * 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff" |
	sed "/^bss=ap0b/,\$ s/^r0kh=.*/r0kh=ff:ff:ff:ff:ff:ff * ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100/" >ft.conf &&
	wl_ap ap0 ft.conf &&
	wl_bss ap0 ap0b &&
	ft_sta FT-PSK &&
	wl_wait sta0 -t 30 -c "ROAM $to" "CTRL-EVENT-CONNECTED - Connection to $from" >/dev/null &&
	grep -q "SME: Trying to use FT over-the-air" "$(wl_log sta0)" &&
	# The target asked for a PMK-R1 and got no answer it could decrypt;
	# the station gave up on it and came back to the first BSS through
	# a full association and a second 4-way handshake.
	grep -q "FT: Send PMK-R1 pull request from $to to remote R0KH" "$(wl_log ap0)" &&
	! grep -q "FT: Received PMK-R1 pull response" "$(wl_log ap0)" &&
	! grep -q "FT: Completed successfully" "$(wl_log sta0)" &&
	! grep -q "CTRL-EVENT-CONNECTED - Connection to $to" "$(wl_log sta0)" &&
	test $(grep -c "RX message 1 of 4-Way Handshake" "$(wl_log sta0)") = 2 &&
	test "$(wl_status sta0 bssid)" = "$from" &&
	wl_ping sta0 $from_ip
'

test_done
