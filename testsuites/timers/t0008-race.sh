#!/bin/sh
test_description='a race between two threads and a timer: real, and the same on every inf-cpu run'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# Threads A and B increment a shared counter without a lock, sleeping now
# and then between the read and the write; a periodic timer signal also
# increments it. Updates get lost: the race is real.
test_expect_success 'two threads and a timer race and lose updates' '
	probe out race &&
	check out lost_updates -gt 0 &&
	check out timer_signals -gt 0
'

# The racers run SCHED_FIFO, so background kernel work (which runs at other
# points of each run) cannot preempt them: under inf-cpu nothing else
# decides who runs when, and the log of who did what is the same each time.
test_expect_success INF_CPU,ROOT 'the race interleaves identically in five runs' '
	for i in 1 2 3 4 5; do
		probe run$i race &&
		check run$i policy = fifo &&
		val run$i interleaving >il$i &&
		val run$i lost_updates >>il$i &&
		val run$i timer_signals >>il$i || return 1
	done &&
	for i in 2 3 4 5; do
		test_cmp il1 il$i || return 1
	done
'

test_expect_success INF_CPU 'threads sleeping to interleaved deadlines wake in the same order every run' '
	probe a threads 50 4 250us &&
	probe b threads 50 4 250us &&
	check a in_order = 1 &&
	check b order_hash = "$(val a order_hash)"
'

test_done
