#!/bin/sh
# t-cpu-cost.sh - --cpu-cost: a per-system-call cost that seeds explore.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# Without it no update is ever lost (work takes no simulated time);
# with it, under some seeds, and a seed replays its interleaving exactly.
run "$umlrun" run $R -q --seeds=1-4 -j2 icost
[ $rc -eq 0 ]
check "without --cpu-cost the tick race loses no update under any seed"
run "$umlrun" run $R -q --cpu-cost=300,jitter=50 --seeds=1-12 -j2 icost
replay=$(sed -n 's/^# replay the first: umlrun run //p' "$work/out")
[ $rc -eq 1 ] && grep -q "^# seeds: [0-9]* of 12 runs failed: icost/t0001-tickrace.sh@" "$work/out" &&
	! grep -q "^# seeds: 12 of 12" "$work/out" && [ -n "$replay" ] &&
	grep -q '"cpu_cost": "300,jitter=50"' "$results/latest/results.json"
check "--cpu-cost: the tick race loses updates under some seeds, not all"
hashes=$(cat "$results"/latest/icost/t0001-tickrace.*/ktap.log | grep -c '^# log_hash=' )
distinct=$(cat "$results"/latest/icost/t0001-tickrace.*/ktap.log | grep '^# log_hash=' | sort -u | wc -l)
[ "$hashes" -eq 12 ] && [ "$distinct" -gt 1 ]
check "--cpu-cost: other seeds, other interleavings ($distinct of 12 distinct)"
first=$(sed -n 's/.*--random-seed=\([0-9]*\) .*/\1/p' "$work/out" | head -n 1)
hash=$(grep -h '^# log_hash=' "$results/latest/icost/t0001-tickrace.$first/ktap.log")
# shellcheck disable=SC2086 # the printed command, as a user pastes it
run "$umlrun" run --repeat=2 --check-determinism $replay
[ $rc -eq 1 ] && [ "$(grep -h '^# log_hash=' "$results"/latest/icost/t0001-tickrace.*/ktap.log | sort -u)" = "$hash" ]
check "--cpu-cost: the printed replay loses updates again, with the same interleaving, twice"
run "$umlrun" run $R --cpu-cost=2000,jitter=101 icost
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --cpu-cost=2000,jitter=101: give NS" "$work/err"
check "--cpu-cost with a jitter above 100 % exits 2 with one line"
run "$umlrun" run $R --time-travel=basic --cpu-cost=2000 icost
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --cpu-cost needs --time-travel=inf-cpu" "$work/err"
check "--cpu-cost outside inf-cpu exits 2 with one line"

tap_done
