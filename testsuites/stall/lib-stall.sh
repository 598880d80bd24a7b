# lib-stall.sh - helpers for the stall suite, sourced after ../lib/harness.sh.
#
#   STALL_BREAKER        prerequisite: inf-cpu on a kernel with the breaker
#   WALL_BREAKER         prerequisite: and its wall-clock breaker is on
#   spin KIND [MAX_LOOPS]   one loop of spinwait (rootfs/helpers/spinwait.c)
#   read_breaks VAR      VAR=the wall-clock breaker's moves so far
#   stall_param NAME VALUE  the kernel parameter NAME (uml_stall_wall_ms,
#                        uml_stall_busy_calls...) for this test (a test
#                        body only: the old value comes back after it)

test_lazy_prereq STALL_BREAKER '
	test "${UMLRUN_MODE-}" = inf-cpu &&
	test -e /sys/module/kernel/parameters/uml_stall_events
'

test_lazy_prereq WALL_BREAKER '
	test "${UMLRUN_MODE-}" = inf-cpu &&
	test -e /sys/module/kernel/parameters/uml_stall_wall_ms &&
	test "$(cat /sys/module/kernel/parameters/uml_stall_wall_ms)" -gt 0
'

# spin KIND [MAX_LOOPS]: runs spinwait KIND 5, checks it ended after
# 5 s and not much later (the last move is at most one tick, 10 ms, past
# the deadline), that the deterministic breaker, not the wall clock,
# moved time, and that it took fewer than MAX_LOOPS turns (1,000,000 by
# default: about 200,000, not millions; an adjtimex loop made 6.5
# million calls of 768 ns each when the breaker did not count them).
spin () {
	read_breaks wall0 &&
	spinwait "$1" 5 >out &&
	cat out >&2 &&
	elapsed=$(sed -n "s/^elapsed_ns=//p" out) &&
	test "$elapsed" -ge 5000000000 &&
	test "$elapsed" -lt 5100000000 &&
	loops=$(sed -n "s/^loops=//p" out) &&
	test "$loops" -lt "${2:-1000000}" &&
	read_breaks wall1 &&
	test "$wall0" = "$wall1"
}

read_breaks () {
	eval "$1=\$(cat /sys/module/kernel/parameters/uml_stall_wall_breaks)"
}

# The guest sets them (the kernel arms the wall-clock breaker's host
# timer again at once), rather than the command line, which would seed
# the guest's random pool: docs/timers.md, "When the guest spins".
stall_param () {
	_param=/sys/module/kernel/parameters/$1 &&
	_param_old=$(cat "$_param") &&
	test_when_finished "echo $_param_old >$_param" &&
	echo "$2" >"$_param" &&
	test "$(cat "$_param")" = "$2"
}
