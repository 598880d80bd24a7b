#!/bin/sh
test_description='periodic timers: an hour without drift, overruns counted when the reader is late'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# The probe arms the timer on an absolute grid and checks every read
# against it: a drifting timer would show a lag growing with the count.
test_expect_success TIME_TRAVEL 'periodic timerfd: 3600 expiries in a simulated hour, no drift' '
	probe out timerfd-periodic 1s 3600 &&
	check out expirations = 3600 &&
	check out reads = 3600 &&
	check out reads_with_overrun = 0 &&
	_timers_bound 768 &&
	check out max_lag_ns -lt $_tb &&
	check out next_expiry_offset_ns -gt -$_tb &&
	check out next_expiry_offset_ns -lt $_tb
'

test_expect_success INF_CPU 'the hour is exact: the last expiry lands on the grid' '
	probe out timerfd-periodic 1s 3600 &&
	check out last_lag_ns = $TIMERS_READ_NS &&
	check out next_expiry_offset_ns = 0
'

# A reader that sleeps 10.3 s between reads of a 1 s timer finds the
# expirations of the last 10.3 s: after r reads, floor(10.3 * r) in all.
test_expect_success TIME_TRAVEL 'periodic timerfd, reader 10.3 s late: every expiration counted once' '
	probe out timerfd-periodic 1s 100 10300ms &&
	check out reads = 10 &&
	check out expirations = 103 &&
	check out reads_with_overrun = 10 &&
	check out max_expirations_per_read = 11 &&
	check out next_expiry_offset_ns -gt -1000000 &&
	check out next_expiry_offset_ns -lt 1000000
'

test_expect_success TIME_TRAVEL 'POSIX timer (SIGEV_SIGNAL): 3600 signals in an hour, no overrun' '
	probe out posix-timer signal 1s 3600 &&
	check out notifications = 3600 &&
	check out expirations = 3600 &&
	check out overruns = 0 &&
	_timers_bound 768 &&
	check out last_lag_ns -lt $_tb
'

# While a timer's signal is pending, further expirations are not queued:
# timer_getoverrun() (and si_overrun) counts them.
test_expect_success TIME_TRAVEL 'POSIX timer overrun counts when the reader is 10.3 s late' '
	probe out posix-timer signal 1s 100 10300ms &&
	check out notifications = 10 &&
	check out expirations = 103 &&
	check out overruns = 93 &&
	check out max_overrun = 10 &&
	check out si_overrun_agrees = 1
'

test_expect_success TIME_TRAVEL 'POSIX timer (SIGEV_THREAD): a callback a second, in another thread' '
	probe out posix-timer thread 1s 60 &&
	check out callback_in_other_thread = 1 &&
	check out notifications = 60 &&
	check out overruns = 0 &&
	check out expirations -ge 60
'

test_done
