#!/bin/sh
test_description='REALTIME jumps: TFD_TIMER_CANCEL_ON_SET, ABSTIME timers re-armed, MONOTONIC untouched'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# cancel-on-set arms two REALTIME timerfds at now + 100 s (one with
# TFD_TIMER_CANCEL_ON_SET), jumps the clock, and puts it back at the end.
test_expect_success TIME_TRAVEL,ROOT 'a 50 s jump forward cancels CANCEL_ON_SET; ABSTIME timers fire 50 s later' '
	probe out cancel-on-set 50s 100s &&
	check out canceled = 1 &&
	check out rearmed_expirations = 1 &&
	check out plain_expirations = 1 &&
	exp=$(val out expected_ns) &&
	check_num expected_ns $exp -gt 49999000000 &&
	_timers_bound 2048 &&
	check_num "re-armed timer late by (ns)" $(( $(val out rearmed_fired_after_ns) - exp )) -ge 0 &&
	check_num "re-armed timer late by (ns)" $(( $(val out rearmed_fired_after_ns) - exp )) -lt $_tb &&
	check_num "plain timer late by (ns)" $(( $(val out plain_fired_after_ns) - exp )) -ge 0 &&
	check_num "plain timer late by (ns)" $(( $(val out plain_fired_after_ns) - exp )) -lt $_tb
'

test_expect_success TIME_TRAVEL,ROOT 'a 50 s jump back (settimeofday) delays ABSTIME timers to 150 s' '
	probe out cancel-on-set -50s 100s settimeofday &&
	check out canceled = 1 &&
	exp=$(val out expected_ns) &&
	check_num expected_ns $exp -gt 149999000000 &&
	_timers_bound 2048 &&
	check_num "plain timer late by (ns)" $(( $(val out plain_fired_after_ns) - exp )) -ge 0 &&
	check_num "plain timer late by (ns)" $(( $(val out plain_fired_after_ns) - exp )) -lt $_tb
'

# A jump past the deadline expires the timers. Linux 6.1 does not
# reprogram the local CPU's timer hardware on clock_settime (clock_was_set
# only sends IPIs to other CPUs), so they run at the next timer interrupt
# of any kind, not at the jump: see docs/timers.md.
test_expect_success TIME_TRAVEL,ROOT 'a jump past the deadline fires ABSTIME timers (within a second)' '
	probe out cancel-on-set 200s 100s &&
	check out canceled = 1 &&
	check out expected_ns = 0 &&
	check out plain_expirations = 1 &&
	check out plain_fired_after_ns -lt 1000000000
'

test_expect_success TIME_TRAVEL,ROOT 'MONOTONIC and BOOTTIME do not move when REALTIME jumps an hour' '
	probe before now &&
	off=$(( $(val before realtime_ns) - $(val before monotonic_ns) )) &&
	probe jump jump 1h &&
	test_when_finished "timerprobe set-offset $off >/dev/null" &&
	probe after now &&
	dr=$(( $(val after realtime_ns) - $(val before realtime_ns) )) &&
	dm=$(( $(val after monotonic_ns) - $(val before monotonic_ns) )) &&
	db=$(( $(val after boottime_ns) - $(val before boottime_ns) )) &&
	check_num "BOOTTIME - MONOTONIC moves (ns)" $((db - dm)) = 0 &&
	check_num "REALTIME moved one hour + (ns)" $((dr - 3600000000000 - dm)) -ge -1000000 &&
	check_num "REALTIME moved one hour + (ns)" $((dr - 3600000000000 - dm)) -le 1000000 &&
	_timers_bound 65536 $TIMERS_SPAWN_SLOP_NS &&
	check_num "MONOTONIC moved (ns)" $dm -lt $_tb
'

test_expect_success TIME_TRAVEL,ROOT 'clock_settime and settimeofday set the date' '
	probe before now &&
	off=$(( $(val before realtime_ns) - $(val before monotonic_ns) )) &&
	test_when_finished "timerprobe set-offset $off >/dev/null" &&
	probe set settime 2000000000 &&
	test "$(date +%s)" -ge 2000000000 &&
	test "$(date +%s)" -le 2000000001 &&
	probe set settime 1500000000 settimeofday &&
	test "$(date +%s)" -ge 1500000000 &&
	test "$(date +%s)" -le 1500000001
'

# Two sleepers in the background, then the clock jumps 30 s forward: a
# relative MONOTONIC sleep ignores it, an absolute REALTIME one ends 30 s
# early in MONOTONIC terms.
test_expect_success TIME_TRAVEL,ROOT 'a jump shortens a REALTIME ABSTIME sleep, not a MONOTONIC one' '
	{ timerprobe clock-nanosleep monotonic rel 100s >mono & } &&
	{ timerprobe clock-nanosleep realtime abs 100s >real & } &&
	timerprobe nanosleep 1s >/dev/null &&
	probe now now &&
	off=$(( $(val now realtime_ns) - $(val now monotonic_ns) )) &&
	probe jump jump 30s &&
	test_when_finished "timerprobe set-offset $off >/dev/null" &&
	wait &&
	_timers_bound 1000000 &&
	check_num "MONOTONIC sleep: elapsed - 100 s (ns)" $(( $(val mono elapsed_monotonic_ns) - 100000000000 )) -ge 0 &&
	check_num "MONOTONIC sleep: elapsed - 100 s (ns)" $(( $(val mono elapsed_monotonic_ns) - 100000000000 )) -lt $_tb &&
	check_num "REALTIME sleep: elapsed - 70 s (ns)" $(( $(val real elapsed_monotonic_ns) - 70000000000 )) -ge 0 &&
	check_num "REALTIME sleep: elapsed - 70 s (ns)" $(( $(val real elapsed_monotonic_ns) - 70000000000 )) -lt $_tb
'

test_done
