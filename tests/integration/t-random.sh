#!/bin/sh
# t-random.sh - the guest's random numbers: the same in every run,
# --random-seed, byte-identical consoles.
. "$(dirname "$0")/lib.sh"
itest_own_cache

rand() {
	"$umlrun" exec "$@" -- sh -c 'head -c 16 /dev/urandom | od -An -tx1' 2>"$work/err"
}
r1=$(rand) && r2=$(rand) && [ -n "$r1" ] && [ "$r1" = "$r2" ]
check "the guest's random numbers are the same in every run"
r3=$(rand --random-seed=7) && r4=$(rand --random-seed=7) && [ "$r3" = "$r4" ] && [ "$r3" != "$r1" ]
check "--random-seed=N gives other random numbers, the same each time"
r5=$(rand --random-seed=random) &&
	seed=$(sed -n 's/.*guest random seed: \([0-9]*\) (replay with --random-seed=[0-9]*)$/\1/p' "$work/err") &&
	[ -n "$seed" ] && [ "$(rand --random-seed="$seed")" = "$r5" ]
check "--random-seed=random prints the seed that replays it"
# The console (the kernel's log, with its simulated time stamps) after its
# first line, the host's command line with the stage's name.
run "$umlrun" run --results="$work/same1" --suite-dir="$suites" itest/t0006-clock.sh
run "$umlrun" run --results="$work/same2" --suite-dir="$suites" itest/t0006-clock.sh
tail -n +2 "$work/same1/latest/itest/t0006-clock/console.log" >"$work/c1"
tail -n +2 "$work/same2/latest/itest/t0006-clock/console.log" >"$work/c2"
[ -s "$work/c1" ] && cmp -s "$work/c1" "$work/c2"
check "two runs of a test leave byte-identical consoles"
run "$umlrun" exec --random-seed=-1 -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "random-seed=-1: give a whole number" "$work/err"
check "a bad --random-seed exits 2 with one line"

tap_done
