#!/bin/sh
test_description='threads that take turns at polling the clock make time pass together'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# 4 threads take turns at a mutex around each clock read, as kselftest
# timers' threadtest does with 8: a thread that finds the mutex taken
# sleeps in a futex call until it is handed over, which starts no count
# again. The reads of a process's threads are counted together: after
# 200,000 in all each further read moves the clock on, and the loop ends
# within a few ticks of its 5 s, after about 239,000 turns (the 39,000 or
# so made before the last thread starts do not count: its start is
# progress). Counted per thread alone, each thread needed its own
# 200,000: 800,161 turns and 5.64 s on 7.2, and on 6.1 and 6.12 (no
# 0005-um-sched-repick-clock.patch) 20 s of wall time between two moves,
# so that the wall-clock breaker moved the clock first. Alone in its
# guest, the scheduler shares the turns among the threads; after other
# loops it let one thread take most turns, and that thread's own count
# hid the difference.
test_expect_success STALL_BREAKER 'a mutex loop of 4 threads waits 5 simulated seconds and ends after 200,000 reads in all' '
	spin mutex 400000
'

test_done
