# lib-timers.sh - helpers for the timer suite, sourced after ../lib/harness.sh.
#
# The suite measures with timerprobe (rootfs/helpers/timerprobe.c), which
# prints key=value lines; these helpers read them back and compare, and on
# a mismatch say what they found, so a failing test shows its numbers.
# They fork nothing (a fork costs tens of milliseconds of wall time in a
# UML guest) and are all &&-chainable.
#
#   probe OUT ARGS...          timerprobe ARGS, its output in the file OUT
#   val OUT KEY                print KEY's value from OUT
#   check OUT KEY OP WANT      KEY's value OP WANT, as test(1) compares
#   check_num NAME VALUE OP WANT    the same for a value the test computed
#   check_late OUT BOUND       0 <= late_ns, late_ns - slack_ns < the bound
#   hres_on                    wait for high-resolution timers (see below)
#
# Bounds.  Under inf-cpu a timer fires between its deadline and its
# deadline + slack (timer_slack_ns, 50 us, for sleeps and futexes; 0.1% of
# the timeout for poll, select and epoll; none for timerfd, POSIX timers
# and itimers), plus a few clock reads of 256 ns, as the probe measures it
# around the call: under 768 ns (3 reads) for sleeps, timerfds, POSIX
# timers and itimers, 1024 ns for the poll family, 2048 ns for futexes
# (docs/timers.md has the measurements). In basic mode the guest's CPU
# work between the expiry and the probe's read takes real time, and with
# no time travel everything does: there the bound is $TIMERS_SLOP_NS, a
# lateness no healthy timer reaches.

TIMERS_READ_NS=256
TIMERS_SLOP_NS=200000000
# A measurement that spans several processes pays for each fork and exec,
# which in basic mode take real time (tens of ms each on a busy host).
TIMERS_SPAWN_SLOP_NS=2000000000

# Every output is also appended to timerprobe.log in $UMLRUN_ARTIFACTS (the
# test's results folder on the host), where the numbers of a passing test
# can be read. Not to the console: umlrun --check-determinism compares the
# console between runs, and a nanosecond figure may differ by a clock read
# or two from one boot to the next (docs/timers.md).
if [ -n "${UMLRUN_ARTIFACTS-}" ] && [ -d "$UMLRUN_ARTIFACTS" ] && [ -w "$UMLRUN_ARTIFACTS" ]; then
	TIMERS_LOG=$UMLRUN_ARTIFACTS/timerprobe.log
else
	TIMERS_LOG=$HARNESS_TRASH_DIR/timerprobe.log
fi

# UNTRACED: no trace events recorded from boot (--trace-event). With them
# the 7.2 kernel's boot waits one 10 ms tick (enabling an event waits for
# RCU), and 10,000,000 ns is not a multiple of 256: every clock value after
# it is 128 ns off the 256 ns grid (t0001).
test_lazy_prereq UNTRACED '! grep -q "trace_event=" /proc/cmdline'

probe () {
	_tp_out=$1
	shift
	if ! timerprobe "$@" >"$_tp_out"; then
		say "timerprobe $* failed"
		return 1
	fi
	{
		printf 'timerprobe %s\n' "$*"
		while IFS= read -r _tp_line; do
			printf '  %s\n' "$_tp_line"
		done <"$_tp_out"
	} >>"$TIMERS_LOG"
}

# Sets _tv to KEY's value in OUT, empty (and returns 1) if it has none.
_timers_find () {
	_tv=
	while IFS='=' read -r _tk _tval; do
		if [ "$_tk" = "$2" ]; then
			_tv=$_tval
			return 0
		fi
	done <"$1"
	return 1
}

_timers_get () {
	_timers_find "$1" "$2" && return 0
	say "no '$2' in the output of timerprobe ($1)"
	return 1
}

val () {
	_timers_get "$1" "$2" && printf '%s\n' "$_tv"
}

check_num () {
	test "$2" "$3" "$4" && return 0
	say "$1 is $2, expected $3 $4"
	return 1
}

check () {
	_timers_get "$1" "$2" && check_num "$2" "$_tv" "$3" "$4"
}

# _timers_bound BOUND [SLOP]: sets _tb to BOUND (ns) under inf-cpu, to SLOP
# (default $TIMERS_SLOP_NS) in the other modes.
_timers_bound () {
	if [ "${UMLRUN_MODE-}" = inf-cpu ]; then
		_tb=$1
	else
		_tb=${2:-$TIMERS_SLOP_NS}
	fi
}

# check_late OUT BOUND: the timer did not fire early, and fired less than
# BOUND ns (under inf-cpu) after its deadline plus the slack. The slack is
# a window, not a delay: when another timer interrupt falls inside it the
# kernel runs the timer then, so anything from 0 to slack + BOUND is right.
check_late () {
	_timers_get "$1" late_ns &&
	_tl=$_tv &&
	if _timers_find "$1" slack_ns; then _ts=$_tv; else _ts=0; fi &&
	_timers_bound "$2" &&
	check_num late_ns "$_tl" -ge 0 &&
	check_num "late_ns ($_tl) - slack_ns ($_ts)" $((_tl - _ts)) -lt "$_tb"
}

# The guest boots in low-resolution mode with a periodic 10 ms tick and
# switches to high-resolution timers at its first tick (Linux's
# hrtimer_run_queues); until then a timer fires on a tick. A test file
# calls this once, in its first test, before it measures anything.
hres_on () {
	probe hres.sleep nanosleep 20ms &&
	probe hres.now now &&
	check hres.now resolution_ns = 1
}
