#!/bin/sh
test_description='many timers: random expiries fire in order, many threads wake in deadline order'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# The probe draws 1000 expiries over an hour from its own PRNG (seeded),
# arms them in a shuffled order and records the order they are delivered.
test_expect_success TIME_TRAVEL '1000 timerfds with random expiries over an hour fire in expiry order' '
	probe out order 1000 1 1h timerfd &&
	check out fired = 1000 &&
	check out in_order = 1 &&
	check out min_late_ns -ge 0 &&
	_timers_bound 768 &&
	check out max_late_ns -lt $_tb
'

# POSIX timers hold a queued signal each: 1000 of them need a larger
# RLIMIT_SIGPENDING than a 256 MB guest grants, which the probe raises.
test_expect_success TIME_TRAVEL,ROOT '1000 POSIX timers with random expiries fire in expiry order' '
	probe out order 1000 2 1h posix &&
	check out fired = 1000 &&
	check out in_order = 1 &&
	check out min_late_ns -ge 0 &&
	_timers_bound 768 &&
	check out max_late_ns -lt $_tb
'

test_expect_success TIME_TRAVEL 'the same seed gives the same order; another seed another one' '
	probe a order 300 3 10m &&
	probe b order 300 3 10m &&
	probe c order 300 4 10m &&
	check a in_order = 1 &&
	check c in_order = 1 &&
	check b order_hash = "$(val a order_hash)" &&
	check c order_hash != "$(val a order_hash)"
'

# Each of 200 threads sleeps (clock_nanosleep, TIMER_ABSTIME) 5 times; the
# deadlines of all threads interleave 1 ms apart in a shuffled order. A
# thread logs its wakeup when it gets the CPU: in basic mode the guest's
# CPU work takes real time, and on a busy host a thread can still be
# waiting for the CPU when the next deadline passes, so the order is only
# checked under inf-cpu.
test_expect_success TIME_TRAVEL '200 threads with interleaved deadlines wake, none early' '
	probe out threads 200 5 1ms &&
	check out wakeups = 1000 &&
	check out min_late_ns -ge 0
'

test_expect_success INF_CPU '... and in deadline order, each < 50 us + 768 ns late' '
	probe out threads 200 5 1ms &&
	check out in_order = 1 &&
	check_num "max_late_ns - slack" $(( $(val out max_late_ns) - 50000 )) -lt 768
'

test_done
