#!/bin/sh
test_description='automatic channel selection (ACS): hostapd surveys the channels before it starts'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# acs_ap LINES...: an open AP of umlrun-acs whose channel ACS picks from
# a survey of the channels (hwsim reports the time spent on each); LINES
# added. Returns once the AP beacons; sets freq and chan from ACS-COMPLETED.
acs_ap () {
	printf '%s\n' ssid=umlrun-acs channel=acs_survey acs_num_scans=2 "$@" >ap.conf &&
	wl_ap_start ap0 ap.conf &&
	wl_wait ap0 -t 60 -s STATUS state=ENABLED AP-ENABLED >/dev/null &&
	# hostapd logs ACS-COMPLETED before it enables the AP.
	acs_done=$(grep -o "ACS-COMPLETED freq=[0-9]* channel=[0-9]*" "$(wl_log ap0)" | head -n 1) &&
	test -n "$acs_done" &&
	freq=${acs_done#*freq=} && freq=${freq%% *} &&
	chan=${acs_done##*channel=} &&
	grep -q "ACS: Automatic channel selection started" "$(wl_log ap0)" &&
	grep -q "ACS-STARTED" "$(wl_log ap0)"
}

acs_sta () {
	wl_net_sta sta0 open umlrun-acs &&
	wl_connected sta0 &&
	test "$(wl_status sta0 freq)" = "$freq" &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
}

test_expect_success 'ACS among channels 1, 6 and 11: the AP starts on the one picked, a station finds it there' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	acs_ap "chanlist=1 6 11" &&
	case $chan in 1|6|11) ;; *) false ;; esac &&
	grep -q "ACS: Ideal channel is $chan ($freq MHz)" "$(wl_log ap0)" &&
	test "$(wl_ctl ap0 STATUS | sed -n s/^freq=//p)" = "$freq" &&
	acs_sta
'

test_expect_success 'ACS prefers a channel it is biased to (acs_chan_bias)' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	acs_ap "chanlist=1 6 11" "acs_chan_bias=11:0.1" &&
	test "$chan" = 11 &&
	test "$freq" = 2462 &&
	acs_sta
'

test_expect_success 'ACS with one allowed channel takes it' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	acs_ap "chanlist=6" &&
	test "$chan" = 6 &&
	acs_sta
'

test_expect_success 'ACS on 5 GHz in the US, among the channels without radar duty' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	acs_ap hw_mode=a country_code=US ieee80211d=1 "chanlist=36 40 44 48" &&
	case $chan in 36|40|44|48) ;; *) false ;; esac &&
	acs_sta
'

test_done
