#!/bin/sh
# t-seeds.sh - --seeds: which guest random seeds fail, and the replay.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" run $R -q --seeds=3-10 -j2 iseed
replay=$(sed -n 's/^# replay the first: umlrun run //p' "$work/out")
listed=$(sed -n 's/^# seeds: [1-8] of 8 runs failed://p' "$work/out" | tr ' ' '\n' | sed -n 's/^iseed\/t0001-coin.sh@//p')
[ $rc -eq 1 ] && [ -n "$listed" ] && [ "$listed" = "$(printf '%s\n' "$listed" | sort -n)" ] &&
	[ "$(grep -c '"seed": ' "$results/latest/results.json")" -eq 8 ] && [ -n "$replay" ]
check "--seeds runs a test under each seed and lists the failing ones, in the seeds' order"
unnamed=
for seed in 3 4 5 6 7 8 9 10; do
	[ -f "$results/latest/iseed/t0001-coin.$seed/ktap.log" ] &&
		grep -q "^\(not \)\{0,1\}ok [1-8] iseed/t0001-coin.sh@$seed\$" "$work/out" &&
		grep -q "<testsuite name=\"iseed/t0001-coin.sh@$seed\"" "$results/latest/junit.xml" ||
		unnamed="$unnamed $seed"
done
[ -z "$unnamed" ]
check "each seed's run is named by its seed: result line ID@SEED, folder ID.SEED, junit suite"
first=$(sed -n 's/.*--random-seed=\([0-9]*\) .*/\1/p' "$work/out" | head -n 1)
byte=$(grep -h "first random byte" "$results/latest/iseed/t0001-coin.$first/ktap.log")
# shellcheck disable=SC2086 # the printed command, as a user pastes it
run "$umlrun" run $replay
[ $rc -eq 1 ] && grep -qx "$byte" "$results/latest/iseed/t0001-coin/ktap.log"
check "the printed replay command fails again, with the same random byte"
run "$umlrun" run $R --seeds=9-1 iseed
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --seeds=9-1: give a range" "$work/err"
check "--seeds=9-1 exits 2 with one line"
# Outside inf-cpu the host's timing varies every run: a seed replays nothing.
run "$umlrun" run $R -q --time-travel=off --seeds=3-4 -j2 itest/t0002-fail.sh
[ $rc -eq 1 ] && grep -q "^# seeds: 2 of 2 runs failed: itest/t0002-fail.sh@3 itest/t0002-fail.sh@4" "$work/out" &&
	! grep -q "replay" "$work/out" && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "^umlrun: warning: --seeds under --time-travel=off: only inf-cpu replays a seed" "$work/err"
check "--seeds under --time-travel=off warns in one line that only inf-cpu replays, prints no replay"

tap_done
