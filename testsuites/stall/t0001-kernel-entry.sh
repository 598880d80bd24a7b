#!/bin/sh
test_description='a loop that waits for time through the kernel makes time pass'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# Each loop waits 5 simulated seconds by spinning: on the clock, or until
# an alarm fires. Under inf-cpu, before the stall breaker, none of them
# ever saw its 5 s (the clock poller would have needed 20 million reads).
# Now, after 200,000 waiting kernel entries in a row, each further one
# moves the clock on to its next event, the same way on every run
# (--check-determinism).
for kind in clock adjtimex yield poll select epoll; do
	test_expect_success STALL_BREAKER "a $kind loop waits 5 simulated seconds and ends" "
		spin $kind
	"
done

# A kernel whose breaker takes a sleep or an idle of at most
# uml_stall_short_ns (60 us) for a poll: a timeout that had passed.
test_lazy_prereq STALL_SHORT '
	test -e /sys/module/kernel/parameters/uml_stall_short_ns
'

# FUTEX_WAIT and nanosleep() with a zero timeout return at once, except
# when an earlier timer is already due: then they sleep through their
# timer slack (50 us). When that sleep started the count again (about
# every 20 ms of simulated time), 5 s of the futex loop took 3,961,175
# calls (about 100 s of wall time), and the nanosleep loop never saw its
# 5 s.
for kind in futex nanosleep; do
	test_expect_success STALL_BREAKER,STALL_SHORT "a $kind loop with a zero timeout waits 5 simulated seconds and ends" "
		spin $kind
	"
done

test_expect_success STALL_BREAKER 'the deterministic breaker counted its moves' '
	test "$(cat /sys/module/kernel/parameters/uml_stall_breaks)" -gt 0
'

test_done
