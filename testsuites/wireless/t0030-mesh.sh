#!/bin/sh
test_description='802.11s mesh with wpa_supplicant: open and SAE mesh, the peer inactivity timer, forwarding through a third node'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# ms_node NAME [LINES...]: wpa_supplicant on NAME, its interface turned
# into a mesh point joining umlrun-mesh on channel 1; LINES go into the
# network block (none: an open mesh). MS_GLOBAL, if set, is a global line.
ms_node () {
	ms_n=$1
	shift
	{
		[ -z "${MS_GLOBAL-}" ] || printf '%s\n' "$MS_GLOBAL"
		echo "network={" &&
		printf '\t%s\n' 'ssid="umlrun-mesh"' mode=5 frequency=2412 "$@" &&
		echo "}"
	} >"$ms_n.conf" &&
	wl_sta "$ms_n" "$ms_n.conf"
}

# ms_estab NAME OTHER [TRIES]: NAME lists OTHER as a mesh peer with an
# established peer link (iw's station entry); looks TRIES times (30), a
# simulated second apart (a node joins after its first scan, about 9 s).
ms_estab () {
	ms_m=$(wl_addr "$2") || return 1
	ms_try=0
	while [ $ms_try -lt "${3:-30}" ]; do
		ms_try=$((ms_try + 1))
		wl_in "$1" iw dev "$1" station get "$ms_m" >"$HARNESS_TRASH_DIR/plink" 2>&1 &&
			grep -q "mesh plink:[[:space:]]*ESTAB" "$HARNESS_TRASH_DIR/plink" && return 0
		sleep 1
	done
	say "mesh: $1 has no established peer link with $2: $(cat "$HARNESS_TRASH_DIR/plink")"
	return 1
}

# ms_peers NAME OTHER...: NAME has an established peer link with each
# OTHER, and its wpa_supplicant said so (MESH-PEER-CONNECTED).
ms_peers () {
	ms_n=$1
	shift
	for ms_o; do
		ms_estab "$ms_n" "$ms_o" &&
			grep -q "MESH-PEER-CONNECTED $(wl_addr "$ms_o")" "$(wl_log "$ms_n")" ||
			return 1
	done
}

test_expect_success 'an open mesh: two nodes start the group, peer, and carry data' '
	wl_setup &&
	wl_radios sta0 sta1 &&
	ms_node sta0 key_mgmt=NONE &&
	ms_node sta1 key_mgmt=NONE &&
	wl_wait sta0 -t 30 -s STATUS mode=mesh MESH-GROUP-STARTED >/dev/null &&
	ms_peers sta0 sta1 &&
	ms_peers sta1 sta0 &&
	test "$(wl_status sta0 mode)" = mesh &&
	wl_in sta0 iw dev sta0 station dump >stations &&
	grep -q "mesh plink:.*ESTAB" stations &&
	wl_ip sta0 10.0.0.1/24 &&
	wl_ip sta1 10.0.0.2/24 &&
	wl_ping sta0 10.0.0.2
'

test_expect_success 'a SAE mesh: the same password peers, another one is refused' '
	wl_setup &&
	wl_radios sta0 sta1 sta2 &&
	ms_node sta0 key_mgmt=SAE "sae_password=\"mesh nodes agree\"" &&
	ms_node sta1 key_mgmt=SAE "sae_password=\"mesh nodes agree\"" &&
	ms_peers sta0 sta1 &&
	ms_peers sta1 sta0 &&
	wl_ip sta0 10.0.0.1/24 &&
	wl_ip sta1 10.0.0.2/24 &&
	wl_ping sta1 10.0.0.1 &&
	# A third node with another password fails SAE with both.
	ms_node sta2 key_mgmt=SAE "sae_password=\"a different secret\"" &&
	wl_wait sta2 -t 30 -n 2 "MESH-SAE-AUTH-FAILURE" >/dev/null &&
	# No peering in 20 s more; asked of wpactl itself, as wl_wait would
	# list the SAE retries it saw, in an order that differs between runs.
	test_must_fail wpactl -p "$WL_WPAS_DIR" -i sta2 wait -t 20 \
		"MESH-PEER-CONNECTED" >/dev/null 2>&1 &&
	test_must_fail ms_estab sta0 sta2 1
'

test_expect_success 'a peer gone silent is dropped after mesh_max_inactivity (30 s of silence)' '
	wl_setup &&
	wl_radios sta0 sta1 &&
	MS_GLOBAL=mesh_max_inactivity=30 &&
	ms_node sta0 key_mgmt=NONE &&
	ms_node sta1 key_mgmt=NONE &&
	MS_GLOBAL= &&
	ms_peers sta0 sta1 &&
	wl_range sta1 off &&
	# Still a peer 25 s later; gone by 37 s: 30 s of silence, then a
	# poll (3 s) and the deauthentication (1 s). No event says so:
	# the station entry and the log do.
	sleep 25 &&
	ms_estab sta0 sta1 1 &&
	sleep 12 &&
	test_must_fail wl_in sta0 iw dev sta0 station get "$(wl_addr sta1)" &&
	grep -q "STA $(wl_addr sta1) - deauthenticated due to inactivity" "$(wl_log sta0)"
'

test_expect_success 'three nodes in a line: the ends are no peers, their data goes through the middle one' '
	wl_setup &&
	wl_radios sta0 sta1 sta2 &&
	wl_group sta0 16 &&
	wl_group sta1 24 &&
	wl_group sta2 8 &&
	test "$(cat /sys/kernel/debug/ieee80211/sta1/hwsim/group)" = 18 &&
	ms_node sta0 key_mgmt=NONE &&
	ms_node sta1 key_mgmt=NONE &&
	ms_node sta2 key_mgmt=NONE &&
	ms_peers sta1 sta0 sta2 &&
	test_must_fail wl_wait sta0 -t 15 "MESH-PEER-CONNECTED $(wl_addr sta2)" >/dev/null &&
	wl_ip sta0 10.0.0.1/24 &&
	wl_ip sta1 10.0.0.2/24 &&
	wl_ip sta2 10.0.0.3/24 &&
	wl_ping sta0 10.0.0.3 &&
	# HWMP found the path: to sta2, next hop sta1.
	wl_in sta0 iw dev sta0 mpath dump >paths &&
	grep -qi "^$(wl_addr sta2) $(wl_addr sta1) " paths
'

test_done
