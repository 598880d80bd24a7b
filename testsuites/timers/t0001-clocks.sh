#!/bin/sh
test_description='the guest clocks: start time, monotonicity, BOOTTIME, the cost of a read'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# time-travel-start= sets REALTIME at boot, when MONOTONIC is 0; both then
# advance together, so their difference is the start time for the whole run.
test_expect_success TIME_TRAVEL 'CLOCK_REALTIME starts at UMLRUN_START' '
	test -n "$UMLRUN_START" &&
	probe now now &&
	off=$(( $(val now realtime_ns) - $(val now monotonic_ns) - UMLRUN_START * 1000000000 )) &&
	check_num "REALTIME - MONOTONIC - start (ns)" $off -gt -1000000 &&
	check_num "REALTIME - MONOTONIC - start (ns)" $off -lt 1000000
'

test_expect_success INF_CPU 'REALTIME - MONOTONIC is the start time to the nanosecond' '
	probe now now &&
	off=$(( $(val now realtime_ns) - $(val now monotonic_ns) - UMLRUN_START * 1000000000 )) &&
	check_num "REALTIME - MONOTONIC - start (ns)" $off -ge -$TIMERS_READ_NS &&
	check_num "REALTIME - MONOTONIC - start (ns)" $off -le 0
'

test_expect_success 'MONOTONIC never goes backwards (80,000 reads)' '
	probe clocks clocks 20000 &&
	check clocks monotonic_backwards = 0
'

# Each round reads MONOTONIC, BOOTTIME, REALTIME, MONOTONIC: BOOTTIME must
# fall between the two MONOTONIC reads, and the bounds every round puts on
# REALTIME - MONOTONIC must all overlap.
test_expect_success 'BOOTTIME equals MONOTONIC, REALTIME - MONOTONIC stays constant' '
	probe clocks clocks 5000 &&
	check clocks boottime_outside_monotonic = 0 &&
	check clocks realtime_offset_window_ns -ge 0
'

# Background kernel work may run between two rounds now and then (a tick,
# a kworker); fewer than 1% of the rounds may see it.
test_expect_success INF_CPU 'every clock read costs exactly 256 ns' '
	probe clocks clocks 20000 &&
	check clocks step_min_ns = $TIMERS_READ_NS &&
	check clocks steps_over_min -lt 200 &&
	check clocks realtime_offset_window_ns = $((3 * TIMERS_READ_NS))
'

# Time moves by clock reads (256 ns each) and by jumps to the deadlines of
# timers: the grid holds while those deadlines are on it (a delay of a
# second is, 10,000,000 ns is not: see UNTRACED in lib-timers.sh).
test_expect_success INF_CPU,UNTRACED 'clock values are multiples of 256 ns' '
	probe now now &&
	check_num monotonic_ns%256 $(( $(val now monotonic_ns) % 256 )) = 0 &&
	check_num boottime_ns%256 $(( $(val now boottime_ns) % 256 )) = 0
'

test_done
