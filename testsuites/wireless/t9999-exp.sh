#!/bin/sh
test_description='experiments (temporary)'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

for order in sta-first ap-first
do
for how in kill range
do
test_expect_success "regdom $order $how" '
	wl_setup &&
	wl_radios ap0 sta0 &&
	printf "network={\nssid=\"r\"\nkey_mgmt=NONE\ndisabled=1\n}\n" >sta.in &&
	printf "ssid=r\ncountry_code=DE\nieee80211d=1\n" >ap.in &&
	if test $order = sta-first
	then
		wl_sta sta0 sta.in &&
		wl_ap ap0 ap.in
	else
		wl_ap ap0 ap.in &&
		wl_sta sta0 sta.in
	fi &&
	wl_wait sta0 -t 10 -x "iw reg set 00" "init=USER type=WORLD" >/dev/null &&
	wl_wait sta0 -t 60 -n 2 -c "ENABLE_NETWORK 0" CTRL-EVENT-CONNECTED "alpha2=DE" >/dev/null &&
	if test $how = kill
	then
		x="$(wl_kill_cmd ap0)"
	else
		x="$(wl_range_cmd ap0 off) && $(wl_kill_cmd ap0)"
	fi &&
	{ wl_wait sta0 -T -t 20 -n 30 -x "$x" CTRL-EVENT-DISCONNECTED REGDOM SME Trying >ev || :; } &&
	say "$(cat ev)" &&
	say "final: $(iw reg get | grep country)"
'
done
done
test_done
