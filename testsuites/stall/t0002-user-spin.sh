#!/bin/sh
test_description='a loop that never enters the kernel: the wall-clock stall breaker'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# A loop on a flag in user space alone: no kernel entry to count, so only
# the host's wall-clock breaker moves the clock, and where it does depends
# on the host's speed: the result is not deterministic, and umlrun says
# so (stall_breaks in results.json). Before the breaker this hung until
# the wall limit. Its window (uml_stall_wall_ms) is 20 s by default; the
# guest sets it to 1 s here, so the breaker acts after 1 to 2 s of wall
# time rather than 20 to 40.
test_expect_success WALL_BREAKER 'a user-space spin on a flag waits 1 simulated second and ends' '
	stall_param uml_stall_wall_ms 1000 &&
	spinwait user 1 >out &&
	elapsed=$(sed -n "s/^elapsed_ns=//p" out) &&
	test "$elapsed" -ge 1000000000 &&
	test "$(cat /sys/module/kernel/parameters/uml_stall_wall_breaks)" -gt 0
'

test_done
