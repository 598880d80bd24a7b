#!/bin/sh
test_description='WPS PIN: enrollee PIN, the AP PIN for an external registrar, its lockout after wrong PINs and its timeout'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# Debian builds both daemons with WPS (t0007 checks the same way).
test_lazy_prereq WPS '
	grep -q WPS-PBC-ACTIVE /usr/sbin/hostapd &&
	grep -q WPS-PBC-ACTIVE /usr/sbin/wpa_supplicant
'

# 12345670 and 24681353 are valid WPS PINs (their last digit checks).
PIN=12345670
AP_PIN=24681353

# wps_ap [LINES...]: a configured WPA2-PSK AP with WPS (keypad and label).
wps_ap () {
	printf '%s\n' ssid=umlrun-wpspin wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP \
		"wpa_passphrase=handed over by PIN" wps_state=2 eap_server=1 \
		"config_methods=label display keypad" "$@" >ap.conf &&
	wl_ap ap0 ap.conf
}

# wps_gap LOG TEXT1 TEXT2 MIN MAX: the first line of LOG with TEXT2 comes
# MIN to MAX seconds after the first with TEXT1 (the -t stamps).
wps_gap () {
	awk -F: -v a="$2" -v b="$3" -v min="$4" -v max="$5" '
		index($0, a) && ta == "" { ta = $1 }
		index($0, b) && tb == "" { tb = $1 }
		END {
			d = tb - ta
			if (ta == "" || tb == "" || d < min || d > max) {
				printf "%s to %s: %.3f s, not in [%s, %s]\n", a, b, d, min, max
				exit 1
			}
		}' "$1" >&2
}

# wps_learnt: the station connected to the network WPS gave it, and data
# pass.
# wps_reg_success: the AP logs the registration of sta0 (up to 5 s): it
# does when the station's last message reaches it, which under basic time
# travel can come after the station has reported WPS-SUCCESS.
wps_reg_success () {
	wl_until 5 grep -q "WPS-REG-SUCCESS $(wl_addr sta0)" "$(wl_log ap0)"
}

wps_learnt () {
	wl_connected sta0 &&
	test "$(wl_status sta0 ssid)" = umlrun-wpspin &&
	test "$(wl_status sta0 key_mgmt)" = WPA2-PSK &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta0 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.1
}

test_expect_success WPS 'the station PIN typed into the AP: the station gets the network' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wps_ap &&
	wl_sta sta0 </dev/null &&
	wl_ctl ap0 WPS_PIN any $PIN >/dev/null &&
	wl_wait sta0 -t 60 -c "WPS_PIN $(wl_addr ap0) $PIN" WPS-SUCCESS >/dev/null &&
	wps_reg_success &&
	wps_learnt &&
	wl_air_has "EAP"
'

test_expect_success WPS 'a PIN the AP does not expect: the registration fails at the PIN check' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wps_ap &&
	wl_sta sta0 </dev/null &&
	wl_ctl ap0 WPS_PIN any $AP_PIN >/dev/null &&
	wl_wait sta0 -t 60 -c "WPS_PIN $(wl_addr ap0) $PIN" WPS-FAIL >fail &&
	grep -q "config_error=18" fail &&
	wl_wait sta0 -t 5 -c WPS_CANCEL -s STATUS wpa_state=DISCONNECTED wpa_state=INACTIVE wpa_state=SCANNING CTRL-EVENT-DISCONNECTED >/dev/null &&
	! grep -q "WPS-REG-SUCCESS" "$(wl_log ap0)" &&
	! grep -q CTRL-EVENT-CONNECTED "$(wl_log sta0)"
'

test_expect_success WPS 'the AP PIN: a station acting as registrar learns the network from the AP' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wps_ap ap_pin=$AP_PIN &&
	wl_sta sta0 </dev/null &&
	# The registrar learns the current settings in M7 and then ends the
	# exchange with a NACK (it changes nothing): WPS-FAIL msg=11, after
	# which the station connects with what it learnt.
	wl_wait sta0 -t 60 -c "WPS_REG $(wl_addr ap0) $AP_PIN" CTRL-EVENT-CONNECTED >/dev/null &&
	grep -q "WPS-FAIL msg=11 config_error=0" "$(wl_log sta0)" &&
	! grep -q "WPS: AP PIN authentication failure" "$(wl_log ap0)" &&
	wps_learnt
'

test_expect_success WPS 'three wrong AP PINs lock the AP setup, unlocked again 60 s later' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wps_ap ap_pin=$AP_PIN &&
	wl_sta sta0 </dev/null &&
	# Three tries with a wrong AP PIN; the third failure locks.
	wl_wait sta0 -t 60 -c "WPS_REG $(wl_addr ap0) $PIN" "WPS-FAIL msg=8 config_error=18" >/dev/null &&
	wl_wait sta0 -t 60 -c "WPS_REG $(wl_addr ap0) $PIN" "WPS-FAIL msg=8 config_error=18" >/dev/null &&
	wl_wait ap0 -T -t 60 -x "wpactl -p $WL_WPAS_DIR -i sta0 WPS_REG $(wl_addr ap0) $PIN >/dev/null" \
		WPS-AP-SETUP-LOCKED >locked &&
	wl_ctl sta0 WPS_CANCEL >/dev/null &&
	grep -q "WPS: AP PIN authentication failure number 3 (3 consecutive)" "$(wl_log ap0)" &&
	grep -q "WPS: Disable AP PIN for 60 seconds" "$(wl_log ap0)" &&
	wl_wait ap0 -T -t 70 WPS-AP-SETUP-UNLOCKED >unlocked &&
	cat locked unlocked >both &&
	wl_intervals both 59.9 60.5
'

test_expect_success WPS 'an AP PIN set for 30 s is disabled when its time is up' '
	wl_setup &&
	wl_radios ap0 &&
	wps_ap &&
	wl_wait ap0 -t 40 -c "WPS_AP_PIN set $AP_PIN 30" WPS-AP-PIN-DISABLED >/dev/null &&
	grep -q "WPS: AP PIN timed out" "$(wl_log ap0)" &&
	wps_gap "$(wl_log ap0)" "WPS: Enabling AP PIN (timeout=30)" WPS-AP-PIN-DISABLED 29.9 30.5 &&
	test_must_fail wl_ctl ap0 WPS_AP_PIN get
'

test_expect_success WPS 'WPS ER: a registrar on the wire finds the AP by UPnP and learns its network with the AP PIN' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	# The external registrar is wpa_supplicant on sta0, reaching the AP
	# over a cable, not over the air: SSDP discovery (multicast), then
	# the WPS messages over UPnP (HTTP).
	wl_link ap0 192.168.7.1/24 sta0 192.168.7.2/24 &&
	wps_ap ap_pin=$AP_PIN upnp_iface=eth-sta0 "friendly_name=umlrun WPS AP" \
		"manufacturer=umlrun" "model_name=hwsim" &&
	wl_sta sta0 </dev/null &&
	wl_wait sta0 -t 30 -c "WPS_ER_START ifname=eth-ap0" WPS-ER-AP-ADD >added &&
	grep -q "$(wl_addr ap0) .* |umlrun WPS AP|umlrun||hwsim|" added &&
	uuid=$(sed -n "s/.*WPS-ER-AP-ADD \([0-9a-f-]*\) .*/\1/p" added | head -n 1) &&
	test -n "$uuid" &&
	wl_wait sta0 -t 30 -c "WPS_ER_LEARN $uuid $AP_PIN" WPS-ER-AP-SETTINGS >settings &&
	grep -q "uuid=$uuid ssid=umlrun-wpspin " settings &&
	grep -q "key=handed over by PIN" settings &&
	grep -q "WPS UPnP: M-SEARCH reply" "$(wl_log ap0)" &&
	! grep -q "WPS: AP PIN authentication failure" "$(wl_log ap0)" &&
	wl_ctl sta0 WPS_ER_STOP >/dev/null
'

test_expect_success WPS 'WPS ER: the registrar on the wire enrolls a new station through the AP' '
	wl_setup &&
	wl_radios ap0 sta0 sta1 &&
	wl_link ap0 192.168.7.1/24 sta0 192.168.7.2/24 &&
	wps_ap ap_pin=$AP_PIN upnp_iface=eth-sta0 "friendly_name=umlrun WPS AP" &&
	wl_sta sta0 </dev/null &&
	wl_sta sta1 </dev/null &&
	wl_wait sta0 -t 30 -c "WPS_ER_START ifname=eth-ap0" WPS-ER-AP-ADD >added &&
	uuid=$(sed -n "s/.*WPS-ER-AP-ADD \([0-9a-f-]*\) .*/\1/p" added | head -n 1) &&
	wl_wait sta0 -t 30 -c "WPS_ER_LEARN $uuid $AP_PIN" WPS-ER-AP-SETTINGS >/dev/null &&
	# The enrollee sta1 talks EAP-WSC over the air with the AP, which
	# relays each message to the registrar over UPnP; the registrar
	# holds the PIN and hands out the network it learnt.
	wl_ctl sta0 WPS_ER_PIN any $PIN $(wl_addr sta1) >/dev/null &&
	wl_wait sta0 -t 60 -x "wpactl -p $WL_WPAS_DIR -i sta1 WPS_PIN $(wl_addr ap0) $PIN >/dev/null" \
		WPS-SUCCESS >/dev/null &&
	wl_connected sta1 60 &&
	test "$(wl_status sta1 ssid)" = umlrun-wpspin &&
	test "$(wl_status sta1 key_mgmt)" = WPA2-PSK &&
	grep -q "WPS-ER-ENROLLEE-ADD [0-9a-f-]* $(wl_addr sta1)" "$(wl_log sta0)" &&
	grep -q "WPS UPnP: Proxying WLANEvent from $(wl_addr sta1)" "$(wl_log ap0)" &&
	grep -q "WPS UPnP: PutWLANResponse ev_type=2 mac_addr=$(wl_addr sta1)" "$(wl_log ap0)" &&
	wl_ip ap0 10.0.0.1/24 &&
	wl_ip sta1 10.0.0.3/24 &&
	wl_ping sta1 10.0.0.1 &&
	wl_ctl sta0 WPS_ER_STOP >/dev/null
'

test_done
