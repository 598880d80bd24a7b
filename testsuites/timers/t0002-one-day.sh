#!/bin/sh
test_description='a day of guest time: sleep 86400, nanosleep for a day, one-hour timerfds'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# Bracketing `sleep` with two timerprobe runs adds what the guest does in
# between: the fork, exec and exit of three processes read the clock about
# 45 times (about 11.5 us under inf-cpu), plus busybox sleep's 50 us slack.
# All three clocks must move by the same amount, to the nanosecond.
test_expect_success TIME_TRAVEL 'sleep 86400 moves REALTIME, MONOTONIC and BOOTTIME by one day' '
	probe before now &&
	sleep 86400 &&
	probe after now &&
	dr=$(( $(val after realtime_ns) - $(val before realtime_ns) )) &&
	dm=$(( $(val after monotonic_ns) - $(val before monotonic_ns) )) &&
	db=$(( $(val after boottime_ns) - $(val before boottime_ns) )) &&
	over=$(( dm - 86400000000000 )) &&
	_timers_bound 65536 $TIMERS_SPAWN_SLOP_NS &&
	check_num "MONOTONIC moved one day + (ns)" $over -ge 0 &&
	check_num "MONOTONIC moved one day + 50 us slack + (ns)" $((over - 50000)) -lt $_tb &&
	if test "$UMLRUN_MODE" = inf-cpu; then
		check_num "REALTIME moved (ns)" $dr = $dm &&
		check_num "BOOTTIME moved (ns)" $db = $dm
	else
		check_num "REALTIME - MONOTONIC moves (ns)" $((dr - dm)) -lt 1000000 &&
		check_num "BOOTTIME - MONOTONIC moves (ns)" $((db - dm)) -lt 1000000
	fi
'

test_expect_success TIME_TRAVEL 'a one-day nanosleep is late by its 1 ns slack + under 768 ns' '
	probe day --slack=1ns nanosleep 1d &&
	check day slack_ns = 1 &&
	check_late day 768
'

test_expect_success TIME_TRAVEL 'one-hour timerfds on every clock fire after one hour' '
	for clock in monotonic boottime realtime; do
		for mode in rel abs; do
			probe hour timerfd $clock $mode 1h &&
			check hour expirations = 1 &&
			check_late hour 768 || return 1
		done
	done
'

test_done
