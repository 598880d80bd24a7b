#!/bin/sh
test_description='every way to wait with a timeout wakes on time: sleeps, timerfd, futex, poll family, itimer, alarm'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# 20 ms waits: short enough for a guest without time travel, so this one
# runs in every mode. A timer may be late; it may never be early.
test_expect_success 'no wait ends early (20 ms each, every API)' '
	for cmd in "nanosleep 20ms" "clock-nanosleep monotonic rel 20ms" \
		"clock-nanosleep realtime abs 20ms" "timerfd monotonic rel 20ms" \
		"timerfd boottime abs 20ms" "futex 20ms" "futex 20ms abs" \
		"timeout poll 20ms" "timeout ppoll 20ms" "timeout select 20ms" \
		"timeout pselect 20ms" "timeout epoll 20ms" "timeout epoll-pwait2 20ms" \
		"itimer 20ms" "posix-timer signal 20ms 1"; do
		probe out $cmd &&
		if _timers_find out late_ns; then
			check_num "$cmd: late_ns" $_tv -ge 0
		else
			check out last_lag_ns -ge 0
		fi || return 1
	done
'

# Odd durations, so that nothing lines up with a 256 ns clock step.
test_expect_success TIME_TRAVEL 'nanosleep and clock_nanosleep (rel, abs; 3 clocks) are late by slack + < 768 ns' '
	probe out --slack=1ns nanosleep 7654321us &&
	check_late out 768 &&
	for clock in monotonic realtime boottime; do
		for mode in rel abs; do
			probe out --slack=1ns clock-nanosleep $clock $mode 12345678901 &&
			check_late out 768 || return 1
		done
	done
'

test_expect_success TIME_TRAVEL 'with the default 50 us slack a sleep is late by 50 us + < 768 ns' '
	probe out nanosleep 10s &&
	check out slack_ns = 50000 &&
	check_late out 768
'

test_expect_success TIME_TRAVEL 'timerfd (rel, abs; 3 clocks) fires < 768 ns late' '
	for clock in monotonic realtime boottime; do
		for mode in rel abs; do
			probe out timerfd $clock $mode 98765432101 &&
			check out expirations = 1 &&
			check_late out 768 || return 1
		done
	done
'

test_expect_success TIME_TRAVEL 'a futex wait times out after its timeout + slack + < 2048 ns' '
	probe out --slack=1ns futex 33s &&
	check out timed_out = 1 &&
	check_late out 2048 &&
	probe out --slack=1ns futex 33s abs &&
	check_late out 2048
'

# poll, select and epoll get a slack of 0.1% of the timeout (at most
# 100 ms, at least timer_slack_ns): fs/select.c. The probe prints it.
test_expect_success TIME_TRAVEL 'poll, ppoll, select, pselect, epoll_wait, epoll_pwait2 time out on time' '
	for api in poll ppoll select pselect epoll epoll-pwait2; do
		probe out timeout $api 60s &&
		check out slack_ns = 60000000 &&
		check_late out 1024 || return 1
	done &&
	probe out timeout ppoll 2s &&
	check out slack_ns = 2000000 &&
	check_late out 1024
'

test_expect_success TIME_TRAVEL 'setitimer and alarm fire < 768 ns late' '
	probe out itimer 1234567us &&
	check_late out 768 &&
	probe out itimer 250ms 40 &&
	check out requested_ns = 10000000000 &&
	check_late out 768 &&
	probe out alarm 7 &&
	check_late out 768
'

test_done
