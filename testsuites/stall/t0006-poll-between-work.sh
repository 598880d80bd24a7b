#!/bin/sh
test_description='a loop that polls between rounds of work: the polls count on their own'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# waitpid(WNOHANG) on a child that sleeps 5 s, and a getppid() after each
# poll, as kselftest's clocksource-switch waits for its child with sysfs
# writes between. The getppid() is progress and starts the task's count
# of waiting entries again each time, so before the count of polls only
# the busy breaker moved time here (10 us a call past a million calls),
# more slowly than the host ran the calls. A task's polls are counted on
# their own, and only its sleep or the guest's idle starts that count
# again: after uml_stall_events (200,000) of them each further wait moves
# the clock on to the next event, the same way every run. The busy
# breaker stays out (400,000 progress calls, not 1,000,000), and so does
# the wall-clock one.
test_expect_success STALL_BREAKER 'a waitpid(WNOHANG) loop with work between its polls ends by the deterministic breaker alone' '
	breaks0=$(cat /sys/module/kernel/parameters/uml_stall_breaks) &&
	moves0=$(cat /sys/module/kernel/parameters/uml_stall_busy_moves) &&
	spin waitpid 300000 &&
	breaks1=$(cat /sys/module/kernel/parameters/uml_stall_breaks) &&
	test "$breaks1" -gt "$breaks0" &&
	moves1=$(cat /sys/module/kernel/parameters/uml_stall_busy_moves) &&
	test "$moves1" = "$moves0"
'

test_done
