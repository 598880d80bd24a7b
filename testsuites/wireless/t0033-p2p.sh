#!/bin/sh
test_description='Wi-Fi P2P: discovery, group formation with push button, data in the group, the GO ending the session'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# p2p_dev NAME DEVNAME: wpa_supplicant on NAME as a P2P device called
# DEVNAME, everything on channel 1 (social and operating), the group on
# the radio's own interface (p2p_no_group_iface). P2P management runs on
# that interface too: hwsim radios made without --p2p-device have no
# dedicated P2P device. P2P_GLOBAL, if set, is one more global line. Sets
# NAME's P2P device address in p2p_NAME.
p2p_dev () {
	printf '%s\n' "device_name=$2" p2p_no_group_iface=1 ${P2P_GLOBAL-} \
		p2p_listen_reg_class=81 p2p_listen_channel=1 \
		p2p_oper_reg_class=81 p2p_oper_channel=1 >"$1.conf" &&
	wl_sta "$1" "$1.conf" &&
	p2p_a=$(wl_status "$1" p2p_device_address) &&
	test -n "$p2p_a" &&
	eval "p2p_$1=\$p2p_a"
}

# p2p_group: sta0 finds sta1 (which only listens), asks it to form a
# group by push button with GO intent 15; sta1 accepts with intent 0.
# Each step waits with the command that causes it given to wpactl (-c,
# -x), so that no event comes before its wait. sta1's own events are
# read from its log afterwards.
p2p_group () {
	p2p_dev sta0 umlrun-a &&
	p2p_dev sta1 umlrun-b &&
	wl_ctl sta1 P2P_LISTEN >/dev/null &&
	wl_wait sta0 -t 30 -c P2P_FIND "P2P-DEVICE-FOUND $p2p_sta1" >found &&
	grep -q "name='umlrun-b'" found &&
	wl_wait sta1 -t 30 -x "wpactl -p $WL_WPAS_DIR -i sta0 P2P_CONNECT $p2p_sta1 pbc go_intent=15 ${P2P_PERSISTENT-}" \
		"P2P-GO-NEG-REQUEST $p2p_sta0" >/dev/null &&
	# The client's group starts last (after its WPS provisioning and the
	# 4-way handshake that follows): waited for on sta1 itself, as reading
	# its log right after CTRL-EVENT-CONNECTED may come before the line
	# (under basic time travel). The GO's group started before it beaconed.
	wl_wait sta1 -t 30 -c "P2P_CONNECT $p2p_sta0 pbc go_intent=0 ${P2P_PERSISTENT-}" \
		"P2P-GROUP-STARTED sta1 client" >client.started &&
	grep "P2P-GROUP-STARTED sta0 GO" "$(wl_log sta0)" >go.started &&
	wl_connected sta1
}

test_expect_success 'discovery, then a group by push button: sta0 the GO, sta1 its client' '
	wl_setup &&
	wl_radios sta0 sta1 &&
	p2p_group &&
	grep -q "ssid=\"DIRECT-" go.started &&
	grep -q "freq=2412" client.started &&
	test "$(wl_status sta1 wpa_state)" = COMPLETED &&
	test "$(wl_status sta1 key_mgmt)" = WPA2-PSK
'

test_expect_success 'data in the group, then the GO ends the session and the client leaves' '
	wl_setup &&
	wl_radios sta0 sta1 &&
	p2p_group &&
	wl_ip sta0 192.168.49.1/24 &&
	wl_ip sta1 192.168.49.2/24 &&
	wl_ping sta1 192.168.49.1 &&
	# The GO removes its group while sta1 is already listening (-x).
	wl_wait sta1 -t 30 -x "wpactl -p $WL_WPAS_DIR -i sta0 P2P_GROUP_REMOVE sta0" \
		"P2P-GROUP-REMOVED sta1 client" >removed &&
	grep -q "reason=GO_ENDING_SESSION" removed
'

test_expect_success 'the GO gone: the client removes its group p2p_group_idle (5 s) after losing its beacons' '
	wl_setup &&
	wl_radios sta0 sta1 &&
	P2P_GLOBAL=p2p_group_idle=5 &&
	p2p_group &&
	P2P_GLOBAL= &&
	t0=$(wl_uptime) &&
	wl_wait sta1 -T -t 120 -x "$(wl_range_cmd sta0 off)" \
		"P2P-GROUP-REMOVED sta1 client" >removed &&
	grep -q "reason=IDLE" removed &&
	# The link goes first (beacon loss, about 1.5 s), then 5 s of idle
	# group (a client caps it at 10 s, P2P_MAX_CLIENT_IDLE).
	awk -v a="$t0" "{ d = \$1 - a; exit !(d >= 5 && d < 10) }" removed &&
	grep -q "P2P: Set P2P group idle timeout to 5 seconds" "$(wl_log sta1)"
'

test_expect_success 'a persistent group, removed, then re-invoked by invitation: declined without persistent_reconnect, then the same group without GO negotiation' '
	wl_setup &&
	wl_radios sta0 sta1 &&
	P2P_PERSISTENT=persistent &&
	p2p_group &&
	P2P_PERSISTENT= &&
	grep -q "\[PERSISTENT\]" go.started &&
	ssid=$(sed -n "s/.*ssid=\"\(DIRECT-[^\"]*\)\".*/\1/p" go.started) &&
	test -n "$ssid" &&
	wl_wait sta1 -t 30 -x "wpactl -p $WL_WPAS_DIR -i sta0 P2P_GROUP_REMOVE sta0" \
		"P2P-GROUP-REMOVED sta1 client" >/dev/null &&
	# Both kept the group: the GO as a persistent network of its own.
	id=$(wl_ctl sta0 LIST_NETWORKS | awk -F "\t" "/P2P-PERSISTENT/ { print \$1; exit }") &&
	test -n "$id" &&
	wl_ctl sta1 LIST_NETWORKS | grep -q "$ssid.*P2P-PERSISTENT" &&
	# Without persistent_reconnect sta1 only reports the invitation (for
	# its user to accept) and declines for now: status 1, information
	# currently unavailable.
	wl_ctl sta1 P2P_LISTEN >/dev/null &&
	wl_wait sta0 -t 30 -c "P2P_INVITE persistent=$id peer=$p2p_sta1" "P2P-INVITATION-RESULT" >invited &&
	grep -q "status=1" invited &&
	grep -q "P2P-INVITATION-RECEIVED sa=$p2p_sta0 persistent=" "$(wl_log sta1)" &&
	# With it, sta1 takes the invitation to its own persistent group.
	wl_ctl sta1 SET persistent_reconnect 1 >/dev/null &&
	wl_ctl sta1 P2P_LISTEN >/dev/null &&
	wl_wait sta0 -t 30 -c "P2P_INVITE persistent=$id peer=$p2p_sta1" "P2P-INVITATION-RESULT" >invited &&
	grep -q "status=0" invited &&
	wl_wait sta1 -t 30 -s STATUS wpa_state=COMPLETED CTRL-EVENT-CONNECTED >/dev/null &&
	test "$(wl_status sta1 ssid)" = "$ssid" &&
	grep "P2P-GROUP-STARTED sta1 client" "$(wl_log sta1)" | tail -n 1 | grep -q "\[PERSISTENT\]" &&
	test $(grep -c "P2P-GO-NEG-SUCCESS" "$(wl_log sta0)") -eq 1 &&
	wl_ip sta0 192.168.49.1/24 &&
	wl_ip sta1 192.168.49.2/24 &&
	wl_ping sta1 192.168.49.1
'

test_done
