#!/bin/sh
test_description='5 GHz HT40, VHT80 and HE80 on hwsim: the negotiated generation, width and rates'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# rt_ap LINES...: a WPA2-PSK AP on channel 36 (5180 MHz) in the US, where
# 36-48 need no radar detection; LINES set the PHY.
rt_ap () {
	printf '%s\n' ssid=umlrun-rates country_code=US ieee80211d=1 hw_mode=a channel=36 \
		wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP "wpa_passphrase=wide channels" \
		"$@" >ap.conf &&
	wl_ap ap0 ap.conf
}

# rt_sta [LINES...]: a station of it, connected, with traffic exchanged
# (the rate control has picked a rate) and its link and signal read:
# link (iw dev sta0 link, kept as wlN-sta0.link) and poll (SIGNAL_POLL).
rt_sta () {
	{
		echo "network={" &&
		printf '\t%s\n' 'ssid="umlrun-rates"' 'psk="wide channels"' "$@" &&
		echo "}"
	} >sta.conf &&
	wl_sta sta0 sta.conf &&
	wl_connected sta0 &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1 10 &&
	wl_in sta0 iw dev sta0 link >link &&
	cp link "$WL_ART/$WL_TAG-sta0.link" &&
	wl_ctl sta0 SIGNAL_POLL >poll &&
	wl_ctl ap0 STA $(wl_addr sta0) >sta
}

# rt_rate PATTERN: the station's tx bitrate (iw dev sta0 link) matches
# PATTERN, now or after more traffic: minstrel_ht starts at its lowest
# rate and moves up as its statistics fill. Under inf-cpu the first read
# matches; under basic time travel it can take a few more pings. Up to 10
# rounds of 3 pings; link is the last read.
rt_rate () {
	i=0
	until grep -q "tx bitrate: $1" link; do
		i=$((i + 1))
		test $i -le 10 || { say "rates: after 10 rounds of pings: $(grep "tx bitrate" link)"; return 1; }
		wl_ping sta0 10.0.0.1 3 &&
		wl_in sta0 iw dev sta0 link >link || return 1
	done
	cp link "$WL_ART/$WL_TAG-sta0.link"
}

test_expect_success 'HT40: 40 MHz above channel 36, HT MCS rates' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rt_ap ieee80211n=1 "ht_capab=[HT40+][SHORT-GI-20][SHORT-GI-40]" &&
	rt_sta &&
	test "$(wl_status sta0 wifi_generation)" = 4 &&
	grep -qx "WIDTH=40 MHz" poll &&
	grep -qx "CENTER_FRQ1=5190" poll &&
	grep -q "^flags=.*\[HT\]" sta &&
	! grep -q "^flags=.*\[VHT\]" sta &&
	# HT rates; the 40 MHz width is the association (WIDTH above). Which
	# rate minstrel_ht sends at is its own choice: the first radios of a
	# boot were seen to stay at MCS 0, 20 MHz, for 40 pings under basic
	# time travel (3 runs in 4) and under inf-cpu with trace events on.
	rt_rate ".* MCS [0-9]"
'

test_expect_success 'VHT80: 80 MHz centred on channel 42, VHT MCS rates' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rt_ap ieee80211n=1 "ht_capab=[HT40+]" ieee80211ac=1 vht_oper_chwidth=1 \
		vht_oper_centr_freq_seg0_idx=42 &&
	rt_sta &&
	test "$(wl_status sta0 wifi_generation)" = 5 &&
	grep -qx "WIDTH=80 MHz" poll &&
	grep -qx "CENTER_FRQ1=5210" poll &&
	grep -q "^flags=.*\[VHT\]" sta &&
	# minstrel starts low (VHT-MCS 0, 20 MHz); that it sends VHT rates
	# at all is what the association decided.
	rt_rate ".* VHT-MCS [0-9]* VHT-NSS [0-9]"
'

test_expect_success 'HE80 (802.11ax): HE MCS rates over 80 MHz' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rt_ap ieee80211n=1 "ht_capab=[HT40+]" ieee80211ac=1 vht_oper_chwidth=1 \
		vht_oper_centr_freq_seg0_idx=42 ieee80211ax=1 he_oper_chwidth=1 \
		he_oper_centr_freq_seg0_idx=42 &&
	rt_sta &&
	test "$(wl_status sta0 wifi_generation)" = 6 &&
	grep -qx "WIDTH=80 MHz" poll &&
	grep -q "^flags=.*\[HE\]" sta &&
	# The rate control of mac80211 in Linux 6.1 (minstrel_ht) has no HE
	# rates: data still goes at VHT rates over the HE association.
	rt_rate ".* VHT-MCS [0-9]* VHT-NSS [0-9]"
'

test_expect_success 'a station with HT and VHT disabled gets 20 MHz legacy rates from the same AP' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rt_ap ieee80211n=1 "ht_capab=[HT40+]" ieee80211ac=1 vht_oper_chwidth=1 \
		vht_oper_centr_freq_seg0_idx=42 &&
	rt_sta disable_ht=1 disable_vht=1 &&
	test -z "$(wl_status sta0 wifi_generation)" &&
	grep -qx "WIDTH=20 MHz (no HT)" poll &&
	! grep -q "^flags=.*\[HT\]" sta &&
	! grep -q "MCS" link &&
	rate=$(sed -n "s/.*tx bitrate: \([0-9]*\)\..*/\1/p" link) &&
	test "$rate" -le 54
'

test_done
