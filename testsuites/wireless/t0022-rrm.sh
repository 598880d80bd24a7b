#!/bin/sh
test_description='radio measurement (802.11k): neighbor reports and beacon reports'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/../lib/wireless.sh"

# rrm_ap NAME CHANNEL [LINES...]: an open AP of umlrun-rrm.
rrm_ap () {
	rrm_n=$1 rrm_c=$2
	shift 2
	wl_net_ap "$rrm_n" open umlrun-rrm "channel=$rrm_c" "$@"
}

rrm_sta () {
	wl_net_sta sta0 open umlrun-rrm "bssid=$1" &&
	wl_connected sta0
}

# rrm_hex NAME: the MAC address of NAME as the lower-case hex of a report.
rrm_hex () {
	wl_addr "$1" | tr -d :
}

test_expect_success 'neighbor report: the AP names the other AP of the network, with its channel' '
	wl_setup &&
	wl_radios ap0 ap1 sta0 &&
	rrm_ap ap0 1 rrm_neighbor_report=1 &&
	rrm_ap ap1 11 rrm_neighbor_report=1 &&
	# Each AP knows its own report; ap0 is told about ap1.
	wl_ctl ap1 SHOW_NEIGHBOR >nr1 &&
	test_line_count = 1 nr1 &&
	wl_ctl ap0 SET_NEIGHBOR $(cat nr1) >/dev/null &&
	rrm_sta $(wl_addr ap0) &&
	wl_wait sta0 -t 10 -c NEIGHBOR_REP_REQUEST \
		"RRM-NEIGHBOR-REP-RECEIVED bssid=$(wl_addr ap1)" >rep &&
	grep -q "op_class=81 chan=11" rep &&
	grep -q "RRM: Neighbor report request (for" "$(wl_log sta0)" &&
	grep -q "RRM: Notifying neighbor report" "$(wl_log sta0)"
'

test_expect_success 'an AP without neighbor reports: the station does not even ask' '
	wl_setup &&
	wl_radios ap0 sta0 &&
	rrm_ap ap0 1 &&
	rrm_sta $(wl_addr ap0) &&
	test_must_fail wl_ctl sta0 NEIGHBOR_REP_REQUEST &&
	grep -q "RRM: No RRM in current connection" "$(wl_log sta0)"
'

test_expect_success 'beacon report, table mode: the station reports the APs of its last scan' '
	wl_setup &&
	wl_radios ap0 ap1 sta0 &&
	rrm_ap ap0 1 rrm_beacon_report=1 &&
	rrm_ap ap1 6 &&
	rrm_sta $(wl_addr ap0) &&
	# operating class 81, all its channels, no duration, mode 2 (table),
	# any BSSID. One event per BSS reported.
	wl_wait ap0 -t 10 -n 2 -c "REQ_BEACON $(wl_addr sta0) 51000000000002ffffffffffff" \
		"BEACON-RESP-RX $(wl_addr sta0)" >rep &&
	grep -q " 00 " rep &&
	grep -q "$(rrm_hex ap0)" rep &&
	grep -q "$(rrm_hex ap1)" rep
'

test_expect_success 'beacon report, active mode: the station probes channel 6 and reports what answered' '
	wl_setup &&
	wl_radios ap0 ap1 sta0 &&
	rrm_ap ap0 1 rrm_beacon_report=1 &&
	rrm_sta $(wl_addr ap0) &&
	# ap1 starts after the station scanned: only a new measurement finds it.
	rrm_ap ap1 6 &&
	# operating class 81 channel 6, 100 TU, mode 1 (active), any BSSID
	wl_wait ap0 -t 20 -c "REQ_BEACON $(wl_addr sta0) 51060000640001ffffffffffff" \
		"$(rrm_hex ap1)" >rep &&
	grep -q "BEACON-RESP-RX $(wl_addr sta0) [0-9]* 00 5106" rep &&
	grep -q "RRM: Radio Measurement report" "$(wl_log sta0)"
'

test_done
