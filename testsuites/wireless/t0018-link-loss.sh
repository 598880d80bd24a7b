#!/bin/sh
test_description='beacon loss and background scanning'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

ll_ap () {
	printf '%s\n' "ssid=umlrun-ll" "channel=${2:-1}" "$3" >"$1.conf" &&
	wl_ap "$1" "$1.conf"
}

test_expect_success 'beacon loss: the station notices its AP is gone and moves to the other one' '
	wl_setup &&
	wl_radios apa apb sta0 &&
	ll_ap apa 1 &&
	ll_ap apb 11 &&
	printf "network={\n\tssid=\"umlrun-ll\"\n\tkey_mgmt=NONE\n}\n" >sta.conf &&
	wl_sta sta0 sta.conf &&
	wl_connected sta0 &&
	if test "$(wl_status sta0 bssid)" = "$(wl_addr apa)"
	then
		gone=apa to=apb
	else
		gone=apb to=apa
	fi &&
	# The AP goes silent without a word (out of range): only the missed
	# beacons tell the station.
	wl_wait sta0 -t 60 -x "$(wl_range_cmd $gone off)" \
		"CTRL-EVENT-CONNECTED - Connection to $(wl_addr $to)" >/dev/null &&
	grep -q "CTRL-EVENT-DISCONNECTED bssid=$(wl_addr $gone)" "$(wl_log sta0)" &&
	test "$(wl_status sta0 bssid)" = "$(wl_addr $to)"
'

test_expect_success 'bgscan simple: a weak signal makes the station scan every short interval' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	ll_ap ap0 1 &&
	# hwsim reports -30 dBm: above -20 is strong, so -30 is weak here and
	# the short interval (10 s) applies.
	wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-ll"
		key_mgmt=NONE
		bgscan="simple:10:-20:300"
	}
	EOF
	wl_connected sta0 &&
	# Each background scan (all bands, about 11.3 s) is requested 10 s
	# after the results of the one before.
	wl_wait sta0 -T -t 70 -n 3 CTRL-EVENT-SCAN-STARTED >scans &&
	wl_intervals scans 21 22 &&
	test $(grep -c "bgscan simple: Request a background scan" "$(wl_log sta0)") -ge 3 &&
	grep -q "bgscan simple: Signal strength threshold -20  Short bgscan interval 10  Long bgscan interval 300" "$(wl_log sta0)"
'

test_done
