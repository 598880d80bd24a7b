#!/bin/sh
test_description='regulatory domain: 802.11d country from the AP, back to world'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# The global regulatory domain, as "country XX".
reg_country () {
	iw reg get | sed -n "s/^\(country ..\):.*/\1/p" | head -n 1
}

test_expect_success 'a station takes the country of its AP (802.11d), then drops it' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	test "$(reg_country)" = "country 00" &&
	wl_net_sta sta0 open umlrun-country disabled=1 &&
	wl_net_ap ap0 open umlrun-country country_code=DE ieee80211d=1 &&
	# hostapd also tells the kernel its country (a user hint), and the
	# kernel is shared with the station: set it back to world, so that
	# only the Country element of the beacons can change it below.
	test "$(reg_country)" = "country DE" &&
	wl_wait sta0 -t 10 -x "iw reg set 00" \
		"CTRL-EVENT-REGDOM-CHANGE init=USER type=WORLD" >/dev/null &&
	test "$(reg_country)" = "country 00" &&
	wl_wait sta0 -t 60 -n 2 -c "ENABLE_NETWORK 0" CTRL-EVENT-CONNECTED \
		"CTRL-EVENT-REGDOM-CHANGE init=COUNTRY_IE type=COUNTRY alpha2=DE" >events &&
	test_line_count = 2 events &&
	test "$(reg_country)" = "country DE" &&
	# Once nothing is connected nor beaconing, the kernel forgets the
	# country it learnt from the AP. The AP goes out of range first and
	# then stops, so that when the station notices (beacon loss) the AP
	# is down already: all idle. The next scan results of the station come
	# seconds later, long after the kernel has reset its domain.
	wl_wait sta0 -t 30 -n 2 -x "$(wl_range_cmd ap0 off) && $(wl_kill_cmd ap0)" \
		"CTRL-EVENT-DISCONNECTED bssid=$(wl_addr ap0) reason=4" \
		CTRL-EVENT-SCAN-RESULTS >events &&
	wl_stop ap0 &&
	head -n 1 events | grep -q CTRL-EVENT-DISCONNECTED &&
	test "$(reg_country)" = "country 00"
'

test_expect_success 'channel 13 needs a country that allows it' '
	wl_setup &&
	wl_radios ap0 &&
	# In the world domain channel 13 is passive (no-IR): no AP there.
	test_must_fail wl_net_ap ap0 open umlrun-ch13 channel=13 &&
	grep -q "Frequency 2472 (primary) not allowed for AP mode, flags: 0x3 NO-IR" "$(wl_log ap0)" &&
	# hostapd gave up and exited with an error.
	test_must_fail wl_stop ap0 &&
	wl_net_ap ap0 open umlrun-ch13 channel=13 country_code=DE &&
	test "$(wl_status ap0 freq)" = 2472
'

test_done
