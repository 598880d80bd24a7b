#!/bin/sh
test_description='a user-space spin while another process works and sleeps: the wall-clock breaker comes back within 100 ms'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# A loop that never enters the kernel waits for a flag another process
# sets: here a pure shell loop, killed by a process that sleeps 0.1 s
# ten times first, each sleep a fork and an exec (progress). Each such
# progress ends the wall-clock breaker's episode. Before the kernel
# kept the next windows at 100 ms until the guest idled, each new
# episode waited a whole window again: with the 1 s window set here
# that was 10 to 20 s of wall time (at the default 20 s window, a
# spin waiting for `sleep 1` took 100 s). Now the spin ends one window
# and about a second of 1 ms ticks after it starts. Simulated time
# advanced by the breaker is not deterministic, only its lower bound: the
# test prints neither (--check-determinism compares the console).
test_expect_success WALL_BREAKER 'a spin beside ten sleeps of another process ends after them' '
	stall_param uml_stall_wall_ms 1000 &&
	read_breaks w0 &&
	t0=$(cut -d" " -f1 /proc/uptime) &&
	spinner=$(sh -c "while :; do :; done </dev/null >/dev/null 2>&1 & echo \$!") &&
	test_when_finished "kill $spinner 2>/dev/null || :" &&
	i=0 &&
	while test $i -lt 10; do sleep 0.1 || return 1; i=$((i + 1)); done &&
	kill $spinner &&
	t1=$(cut -d" " -f1 /proc/uptime) &&
	read_breaks w1 &&
	test "$(echo "$t0 $t1" | awk "{ print (\$2 - \$1 >= 1.0) }")" = 1 &&
	test "$w1" -gt "$w0"
'

test_done
