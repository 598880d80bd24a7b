#!/bin/sh
test_description='a loop on a system call that succeeds: the busy breaker'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# getppid() until an alarm 1 s ahead fires. A system call that succeeds
# is progress, not a wait, to the deterministic breaker, and progress to
# the wall-clock one too, so before the busy breaker nothing moved the
# clock: the loop hung until the wall limit. The busy breaker counts the
# guest's progress system calls since it last idled; past
# uml_stall_busy_calls (1,000,000; 100,000 here, to keep the test short)
# each one takes uml_stall_busy_ns (10 us), so the second passes after
# about 100,000 more calls, the same way every run. The loop ends at its
# first call after the alarm: 10 us past the second at most (the clock
# is read just after the alarm is set, so the elapsed time can be a few
# hundred ns short of it).
test_expect_success STALL_BREAKER 'a getppid loop waits 1 simulated second and ends, by the busy breaker alone' '
	stall_param uml_stall_busy_calls 100000 &&
	read_breaks wall0 &&
	moves0=$(cat /sys/module/kernel/parameters/uml_stall_busy_moves) &&
	spinwait getppid 1 >out &&
	cat out >&2 &&
	elapsed=$(sed -n "s/^elapsed_ns=//p" out) &&
	test "$elapsed" -ge 999000000 &&
	test "$elapsed" -lt 1000100000 &&
	loops=$(sed -n "s/^loops=//p" out) &&
	test "$loops" -lt 300000 &&
	moves1=$(cat /sys/module/kernel/parameters/uml_stall_busy_moves) &&
	test "$((moves1 - moves0))" -ge 99000 &&
	read_breaks wall1 &&
	test "$wall0" = "$wall1"
'

test_done
