#!/bin/sh
# t-clock.sh - the guest's clock and determinism: --start, --repeat,
# --check-determinism, compare.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" exec --start=2030-01-01T00:00:00Z -- date +%s
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = 1893456000 ]
check "--start sets the guest clock (ISO-8601)"
run "$umlrun" exec --start=1000000000 -- date +%s
[ "$(cat "$work/out")" = 1000000000 ]
check "--start sets the guest clock (Unix seconds)"
run "$umlrun" run $R --repeat=3 --check-determinism itest/t0006-clock.sh
[ $rc -eq 0 ] && grep -q "^ok 1 itest/t0006-clock.sh$" "$work/out" &&
	grep -q "^ok 3 itest/t0006-clock.sh (run 3)$" "$work/out"
check "an hour of sleep gives identical output on 3 runs (told apart on their result lines)"
run "$umlrun" run $R --time-travel=off --repeat=2 --check-determinism itest/t0005-random.sh
[ $rc -eq 1 ] && grep -q "not deterministic: run 1 and run 2 differ at result output line 3" "$work/out"
check "--check-determinism fails a test whose output differs, showing where"

run "$umlrun" compare --json $R itest/t0007-short-sleep.sh
[ $rc -eq 0 ] && grep -q '"sim_seconds": 2.0' "$work/out" &&
	awk -F'"speedup": ' '/"speedup"/ { split($2, a, "[},]"); if (a[1] + 0 < 2) exit 1 }' "$work/out"
check "compare runs off and inf-cpu and reports a speedup"

tap_done
