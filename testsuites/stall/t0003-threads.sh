#!/bin/sh
test_description='threads that take turns at polling the clock make time pass together'
. ../lib/harness.sh

test_lazy_prereq STALL_BREAKER '
	test "${UMLRUN_MODE-}" = inf-cpu &&
	test -e /sys/module/kernel/parameters/uml_stall_events
'

# 4 threads take turns at a mutex around each clock read, as kselftest
# timers' threadtest does with 8: a thread that finds the mutex taken
# sleeps in a futex call until it is handed over, which starts no count
# again. The process's reads are counted together: after 200,000 in all
# (and about 39,000 while its threads start, the ones before the last
# thread's start), each further read moves the clock on, so the loop ends
# within a few ticks of its 5 s, on 7.2 as on 6.1 and 6.12 (which lack
# 7.2's 0005-um-sched-repick-clock.patch: with a count per thread, their
# threads went 20 s of wall time between two moves of the clock there,
# and the wall-clock breaker moved it first). Counted per thread alone, each thread
# needed its own 200,000 when the scheduler shared the turns among them:
# 800,160 turns, 5.61 s. This file runs alone in its guest, where the
# turns are shared so (after other loops in the same guest one thread
# could take most turns, and its count alone sufficed).
test_expect_success STALL_BREAKER 'a mutex loop of 4 threads waits 5 simulated seconds and ends after 200,000 reads in all' '
	wall0=$(cat /sys/module/kernel/parameters/uml_stall_wall_breaks) &&
	spinwait mutex 5 >out &&
	cat out >&2 &&
	elapsed=$(sed -n "s/^elapsed_ns=//p" out) &&
	test "$elapsed" -ge 5000000000 &&
	test "$elapsed" -lt 5100000000 &&
	loops=$(sed -n "s/^loops=//p" out) &&
	test "$loops" -lt 400000 &&
	test "$(cat /sys/module/kernel/parameters/uml_stall_wall_breaks)" = "$wall0"
'

test_done
