#!/bin/sh
test_description='WNM (802.11v): BSS transition management, disassociation imminent, BSS max idle period, WNM sleep mode'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# wnm_ap NAME CHANNEL [LINES...]: a WPA2-PSK AP of umlrun-wnm that takes
# part in BSS transition management.
wnm_ap () {
	wnm_n=$1 wnm_c=$2
	shift 2
	printf '%s\n' ssid=umlrun-wnm "channel=$wnm_c" wpa=2 wpa_key_mgmt=WPA-PSK \
		rsn_pairwise=CCMP "wpa_passphrase=no place like home" bss_transition=1 \
		"$@" >"$wnm_n.conf" &&
	wl_ap "$wnm_n" "$wnm_n.conf"
}

wnm_sta () {
	wl_sta sta0 <<-EOF &&
	network={
		ssid="umlrun-wnm"
		psk="no place like home"
		$1
	}
	EOF
	wl_connected sta0
}

# wnm_times LOG TEXT: the -t stamps of the lines of LOG holding TEXT.
wnm_times () {
	grep -F -- "$2" "$1" | awk -F: '{ print $1 }'
}

test_expect_success 'BSS transition request with a preferred candidate: the station moves there' '
	wl_setup &&
	wl_radios ap0 ap1 sta0 &&
	wnm_ap ap0 1 &&
	wnm_sta &&
	# The second AP comes up after the station chose: it has not seen it.
	wnm_ap ap1 6 &&
	wl_ip ap1 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_wait ap0 -t 10 -c "BSS_TM_REQ $(wl_addr sta0) pref=1 abridged=1 valid_int=255 neighbor=$(wl_addr ap1),0x0000,81,6,7,0301ff" \
		"BSS-TM-RESP $(wl_addr sta0) status_code=0 bss_termination_delay=0 target_bssid=$(wl_addr ap1)" >/dev/null &&
	wl_wait sta0 -t 30 -s STATUS "bssid=$(wl_addr ap1)" "CTRL-EVENT-CONNECTED - Connection to $(wl_addr ap1)" >/dev/null &&
	grep -q "WNM: BSS Transition Management Request" "$(wl_log sta0)" &&
	wl_authorized ap1 sta0 &&
	wl_ping sta0 10.0.0.1 &&
	wl_air_has "Action"
'

test_expect_success 'a candidate that is nowhere: the station declines and stays' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wnm_ap ap0 1 &&
	wnm_sta &&
	wl_wait ap0 -t 20 -c "BSS_TM_REQ $(wl_addr sta0) pref=1 abridged=1 valid_int=255 neighbor=02:00:00:00:77:00,0x0000,81,11,7,0301ff" \
		"BSS-TM-RESP $(wl_addr sta0) status_code=" >resp &&
	! grep -q "status_code=0 " resp &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr ap0)" &&
	test "$(wl_status sta0 wpa_state)" = COMPLETED
'

test_expect_success 'disassociation imminent: the AP disassociates the station when the timer ends' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wnm_ap ap0 1 &&
	wnm_sta &&
	# 50 beacon intervals of 100 TU: 5.12 s.
	wl_wait ap0 -T -t 20 -c "BSS_TM_REQ $(wl_addr sta0) disassoc_imminent=1 disassoc_timer=50" \
		"AP-STA-DISCONNECTED $(wl_addr sta0)" >gone &&
	grep -q "Disassociation timer for $(wl_addr sta0) set to 5120 ms" "$(wl_log ap0)" &&
	start=$(wnm_times "$(wl_log ap0)" "Disassociation timer for") &&
	end=$(wnm_times "$(wl_log ap0)" "AP-STA-DISCONNECTED $(wl_addr sta0)") &&
	awk -v s=$start -v e=$end "BEGIN { d = e - s; exit !(d >= 5.1 && d <= 5.3) }" &&
	wl_wait sta0 -t 10 -s STATUS wpa_state=DISCONNECTED CTRL-EVENT-DISCONNECTED >/dev/null
'

test_expect_success 'BSS max idle period: the station sends a keep-alive before each period ends' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# ap_max_inactivity=30 is advertised as 29 units of 1000 TU; the
	# station keeps alive every 29 * 1.024 - 0.1 = 29.596 s.
	wnm_ap ap0 1 ap_max_inactivity=30 &&
	wnm_sta &&
	grep -q "WNM: BSS Max Idle Period: 29 (\* 1000 TU)" "$(wl_log sta0)" &&
	test_must_fail wl_wait sta0 -t 95 CTRL-EVENT-DISCONNECTED >/dev/null &&
	wnm_times "$(wl_log sta0)" "WNM: Send keep-alive to AP $(wl_addr ap0)" >alive &&
	test_line_count = 3 alive &&
	wl_intervals alive 29.5 29.7 &&
	wl_authorized ap0 sta0
'

test_expect_success 'WNM sleep mode: the station sleeps and wakes, the group key refreshed on exit' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wnm_ap ap0 1 wnm_sleep_mode=1 &&
	wnm_sta &&
	wl_ctl sta0 WNM_SLEEP enter >/dev/null &&
	# No PMF: the AP hands over a fresh group key in a group key
	# handshake when the station wakes up.
	wl_wait sta0 -t 10 -c "WNM_SLEEP exit" "WPA: Group rekeying completed" >/dev/null &&
	grep -q "Successfully recv WNM-Sleep Response frame (action=0" "$(wl_log sta0)" &&
	grep -q "Successfully recv WNM-Sleep Response frame (action=1" "$(wl_log sta0)" &&
	test $(grep -c "Successfully send WNM-Sleep Response frame" "$(wl_log ap0)") = 2 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping ap0 10.0.0.2
'

test_done
