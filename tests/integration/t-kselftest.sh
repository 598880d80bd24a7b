#!/bin/sh
# t-kselftest.sh - umlrun kselftest: the kernel's own selftests (docs/kselftest.md).
. "$(dirname "$0")/lib.sh"
itest_own_cache

# The timers build is shared with the developer's cache when it has one
# (about 12 s to build otherwise); each cache entry is complete or absent.
[ -d "$real_cache/kselftest" ] && [ ! -e "$XDG_CACHE_HOME/umlrun/kselftest" ] &&
	cp -a "$real_cache/kselftest" "$XDG_CACHE_HOME/umlrun/"
kcache=$XDG_CACHE_HOME/umlrun/kselftest
run "$umlrun" kselftest timers --results="$results" --filter='*-leap-a-day.sh' \
	--filter='*-posix_timers.sh'
[ $rc -eq 0 ] && grep -q '^ok [12] kselftest-timers/t[0-9]*-leap-a-day.sh$' "$work/out" &&
	grep -q '^ok [12] kselftest-timers/t[0-9]*-posix_timers.sh # SKIP UML limitation: .*ITIMER_VIRTUAL' "$work/out" &&
	grep -q '^        # Leap complete' "$work/out" &&
	grep -q '"result": "skip"' "$results/latest/results.json" &&
	! ls "$kcache" | grep -q 'tmp' && nothing_left
check "umlrun kselftest runs timers' leap-a-day across a leap second and skips posix_timers, saying why"
# Two programs that poll the clock in ways of their own run as written,
# with no cost, under the stall breaker: threadtest's 8 threads take turns
# at a mutex around each read for 30 s (a sleep in a futex call does not
# start a count again, and their reads are counted for the process
# together: 200,000 in all, about 5 s of wall time, where counted per
# thread it took 1.6 million and 30 s, near the wall-clock breaker's
# 20 s window), leapcrash loops on adjtimex (a clock read to the
# breaker) around each of 20 leaps. Neither needs the wall-clock breaker.
run "$umlrun" kselftest timers --results="$results" --filter='*-threadtest.sh' \
	--filter='*-leapcrash.sh'
[ $rc -eq 0 ] && grep -q '^ok [12] kselftest-timers/t[0-9]*-threadtest.sh$' "$work/out" &&
	grep -q '^ok [12] kselftest-timers/t[0-9]*-leapcrash.sh$' "$work/out" &&
	! grep -q 'each system call takes' "$work/out" &&
	! grep -q '"stall_breaker"' "$results/latest/results.json" &&
	grep -q '^        # Testing consistency with 8 threads for 30 seconds: \[OK\]' "$work/out" &&
	[ "$(grep -o '"sim_seconds": [0-9]*' "$results/latest/results.json" |
		awk '$2 >= 30 { n++ } END { print n + 0 }')" -eq 2 ] && nothing_left
check "umlrun kselftest runs threadtest and leapcrash as written under the stall breaker, no cost, no wall-clock break"
# On a kernel with the stall breaker a program that polls the clock runs
# as written, with no cost: after 200,000 reads in a row each further one
# moves the clock on to its next event, the same on every run. Its 12
# clocks of 10 s each take about 94 simulated s.
run "$umlrun" kselftest timers --results="$results" --repeat=2 --check-determinism \
	--filter='*-inconsistency-check.sh'
[ $rc -eq 0 ] && [ "$(grep -c '^ok [12] kselftest-timers/t[0-9]*-inconsistency-check.sh' "$work/out")" -eq 2 ] &&
	! grep -q 'each system call takes' "$work/out" &&
	! grep -q '"stall_breaker"' "$results/latest/results.json" &&
	[ "$(grep -o '"sim_seconds": [0-9]*' "$results/latest/results.json" |
		awk '$2 >= 90 { n++ } END { print n + 0 }')" -eq 2 ] && nothing_left
check "umlrun kselftest runs inconsistency-check as written under the stall breaker, the same twice"
# Under ptrace (--seccomp=off, as 6.1 always is) each of those 200,000
# reads costs several times more wall: the poller keeps its cost there.
run "$umlrun" kselftest timers --results="$results" --seccomp=off \
	--filter='*-inconsistency-check.sh'
[ $rc -eq 0 ] && grep -q '^ok 1 kselftest-timers/t[0-9]*-inconsistency-check.sh$' "$work/out" &&
	grep -q '^        # it polls the clock: each system call takes 50000000 ns' "$work/out" &&
	grep -q '"userspace": "ptrace"' "$results/latest/results.json" && nothing_left
check "umlrun kselftest keeps a poller's cost under the ptrace userspace, where the breaker's reads cost more wall"
run "$umlrun" kselftest no-such-target --results="$results"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "unknown target 'no-such-target'" "$work/err" &&
	nothing_left
check "umlrun kselftest of an unknown target exits 2 with one line"
# capabilities needs libcap-ng's headers: without them it does not build.
if [ ! -e /usr/include/cap-ng.h ]; then
	run "$umlrun" kselftest capabilities --results="$results"
	[ $rc -eq 3 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "kselftest capabilities does not build: .*cap-ng.h: No such file" "$work/err" &&
		! grep -qs 'target: capabilities' "$kcache"/*/inputs.txt &&
		! ls "$kcache" | grep -q 'tmp' && nothing_left
	check "umlrun kselftest of a target that does not build exits 3 naming the compiler's error, nothing half-built kept"
fi

tap_done
