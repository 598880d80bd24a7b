#!/bin/sh
test_description='bad configurations and dying daemons fail cleanly'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

test_expect_success 'a malformed AP config fails with the error of hostapd' '
	wl_setup &&
	wl_radios ap0 &&
	test_must_fail wl_ap ap0 <<-\EOF &&
	ssid=umlrun-bad
	wpa=2
	wpa_passphrase=short
	frobnicate=yes
	EOF
	# The reasons, in the words of hostapd, in its log.
	log=$(wl_log ap0) &&
	grep -q "Line [0-9]*: invalid WPA passphrase length 5 (expected 8..63)" "$log" &&
	grep -q "Line [0-9]*: unknown configuration item .frobnicate." "$log" &&
	grep -q "3 errors found in configuration file" "$log" &&
	test_must_fail wl_stop ap0
'

test_expect_success 'a malformed station config fails with the error of wpa_supplicant' '
	wl_setup &&
	wl_radios sta0 &&
	test_must_fail wl_sta sta0 <<-\EOF &&
	network={
		ssid="umlrun-bad"
		psk="secret passphrase"
		bogus_field=1
	}
	EOF
	log=$(wl_log sta0) &&
	grep -q "unknown network field .bogus_field." "$log" &&
	grep -q "Failed to read or parse configuration" "$log" &&
	test_must_fail wl_stop sta0
'

test_expect_success 'a daemon that cannot start on its radio fails the test' '
	wl_setup &&
	wl_radios ap0 &&
	# The config parses, but its interface does not exist: hostapd fails
	# to set it up, says why, and exits.
	test_must_fail wl_ap ap0 <<-\EOF &&
	interface=nosuchif
	ssid=umlrun-nowhere
	EOF
	grep -q "Could not read interface nosuchif flags: No such device" "$(wl_log ap0)" &&
	grep -q "nosuchif: AP-DISABLED" "$(wl_log ap0)" &&
	test_must_fail wl_stop ap0
'

test_expect_success 'an AP killed with SIGKILL is noticed by its station (beacon loss)' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	wl_net_ap ap0 open umlrun-crash &&
	wl_net_sta sta0 open umlrun-crash &&
	wl_connected sta0 &&
	# No goodbye this time: the beacons just stop.
	wl_wait sta0 -t 30 -x "kill -KILL $(wl_pid ap0)" \
		"CTRL-EVENT-DISCONNECTED bssid=$(wl_addr ap0) reason=4 locally_generated=1" >/dev/null &&
	# Reaped by wl_stop: killed by signal 9.
	{ wl_stop ap0; test $? = 137; }
'

test_expect_success 'more radios than allowed, or one the driver refuses, fail cleanly' '
	wl_setup &&
	test_when_finished "WL_MAX_RADIOS=$WL_MAX_RADIOS" &&
	WL_MAX_RADIOS=2 &&
	wl_radios ap0 sta0 &&
	test_must_fail wl_radio sta1 >out &&
	grep -q "radio .sta1. would be radio 3 of this test; WL_MAX_RADIOS allows 2" out &&
	test ! -e /run/netns/sta1 &&
	WL_MAX_RADIOS=3 &&
	# The driver refuses a radio without channels, in its own words; the
	# namespace made for it is gone again.
	test_must_fail wl_radio none --channels 0 >out &&
	grep -q "cannot make radio .none.: .*must have at least one channel" out &&
	test ! -e /run/netns/none &&
	wl_in ap0 hwsimctl list >radios &&
	test_line_count = 1 radios
'

# leak_ready: the leaked sleep runs in namespace leak, the country is DE.
leak_ready () {
	$WL_IP netns pids leak | sed "s|.*|/proc/&/comm|" | xargs cat 2>/dev/null |
		grep -qx sleep && iw reg get | grep -q "^country DE:"
}

test_expect_success 'what a test leaked outside the library is swept by the next wl_setup' '
	# A namespace with a process in it, a radio in the initial namespace
	# and another country: made by hand, so no cleanup knows of them.
	$WL_IP netns add leak &&
	{ $WL_IP netns exec leak sleep 1000 & } &&
	hwsimctl new --name leak2 >/dev/null &&
	iw reg set DE &&
	# Both take effect a little later (under basic time travel, CPU time
	# passes): sleep running in the namespace, the country applied.
	wl_until 5 leak_ready &&
	wl_setup >out &&
	grep -q "an earlier test left these behind (now removed)" out &&
	grep -q "killed pid [0-9]* (sleep) in namespace leak$" out &&
	grep -q "deleted namespace leak$" out &&
	grep -q "deleted radio [0-9]* (leak2)$" out &&
	grep -q "regulatory domain DE, set back to 00$" out &&
	test ! -e /run/netns/leak &&
	test -z "$(hwsimctl list)" &&
	iw reg get | grep -q "^country 00:"
'

test_expect_success 'after all that, a test starts from clean radios' '
	test -z "$(hwsimctl list)" &&
	test -z "$($WL_IP netns list)" &&
	test_must_fail pidof hostapd &&
	test_must_fail pidof wpa_supplicant &&
	wl_setup &&
	wl_radios ap0 sta0 &&
	hwsimctl list >radios &&
	test_line_count = 0 radios &&
	wl_in ap0 hwsimctl list >radios &&
	test_line_count = 1 radios &&
	wl_net_ap ap0 open umlrun-clean &&
	wl_net_sta sta0 open umlrun-clean &&
	wl_connected sta0
'

test_expect_success 'this suite runs its test files under dash (settings: shell=dash)' '
	test "$(readlink /proc/$$/exe)" = /usr/bin/dash
'

# nsexec (what wl_in and the daemon starts use) and hwsimctl exec: the
# command sees the namespace's interfaces in its /sys, not the initial
# namespace's; a bad namespace or command is one line and its own status.
test_expect_success 'nsexec and hwsimctl exec enter the namespace, or fail clearly' '
	wl_setup &&
	wl_radios sta0 &&
	test ! -e /sys/class/net/sta0 &&
	nsexec sta0 cat /sys/class/net/sta0/address >addr &&
	echo "$(wl_addr sta0)" >expect &&
	test_cmp expect addr &&
	hwsimctl exec sta0 cat /sys/class/net/sta0/address >addr2 &&
	test_cmp expect addr2 &&
	{ nsexec nosuchns true 2>err; test $? = 1; } &&
	grep -q "^nsexec: cannot enter namespace nosuchns" err &&
	{ nsexec sta0 no-such-command 2>err; test $? = 127; } &&
	grep -q "^nsexec: cannot run no-such-command" err &&
	{ nsexec sta0 2>err; test $? = 2; } &&
	{ nsexec ../sta0 true 2>err; test $? = 2; } &&
	grep -q "^nsexec: not a namespace name" err &&
	{ hwsimctl exec nosuchns true 2>err; test $? = 1; } &&
	grep -q "^hwsimctl: cannot enter namespace nosuchns" err
'

# This file never reads the air, so its tests capture nothing: no tcpdump
# (a tenth of a file's wall time), no pcap among the artifacts.
test_expect_success 'a file that never reads the air runs no tcpdump' '
	wl_setup &&
	test "$WL_CAPTURE" = 0 &&
	test_must_fail pidof tcpdump &&
	test ! -e "$WL_PCAP"
'

test_done
