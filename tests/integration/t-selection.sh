#!/bin/sh
# t-selection.sh - which tests run, and again: --retry, --filter,
# --exclude, --shuffle.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" run $R --retry=2 itest/t0002-fail.sh
[ $rc -eq 1 ] && grep -q "retrying (2 of 2)" "$work/out" &&
	[ -d "$results/latest/itest/t0002-fail.try1" ] && grep -q "^not ok 1 itest/t0002-fail.sh" "$work/out"
check "--retry runs a failing test again and keeps each try's folder"
[ "$(grep -c '^    KTAP version' "$results/latest/ktap.txt")" -eq 1 ] &&
	grep -q "retrying (1 of 2); its lines are in .*/itest/t0002-fail.try1/ktap.log" "$results/latest/ktap.txt" &&
	grep -q "^not ok 2 second" "$results/latest/itest/t0002-fail.try1/ktap.log"
check "a failed try's lines are in its folder, not in the run's KTAP (one block per result line)"
run "$umlrun" run $R --retry=2 itest/t0008-flaky.sh
[ $rc -eq 0 ] && grep -q "^ok 1 itest/t0008-flaky.sh # flaky: failed 1 time before passing" "$work/out" &&
	grep -q '"result": "flaky"' "$results/latest/results.json" &&
	grep -q '"failed_attempts": 1' "$results/latest/results.json" &&
	grep -q '<flakyFailure message="flaky: failed 1 time, then passed (--retry)">see itest/t0008-flaky.try1/console.log</flakyFailure>' "$results/latest/junit.xml" &&
	[ -f "$results/latest/itest/t0008-flaky.try1/console.log" ]
check "a test that fails, then passes on a retry, is reported flaky (junit.xml too)"
run "$umlrun" run $R --list --filter='itest/t000[12]*' --exclude='*fail*'
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = itest/t0001-pass.sh ]
check "--filter and --exclude select by test id"
run "$umlrun" run $R --filter='itest/t0001*' --filter='itest/typo*' itest
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
	grep -q "^umlrun: --filter='itest/typo\*' matches no test file id" "$work/err" && nothing_left
check "a --filter that matches nothing exits 2 (a typo must not pass as an empty run)"
run "$umlrun" run $R --exclude='itest/*' itest
[ $rc -eq 2 ] && grep -q "^umlrun: --filter and --exclude leave no test file to run" "$work/err"
check "--exclude that leaves nothing exits 2"
run "$umlrun" run $R --list --shuffle=42 itest
cp "$work/out" "$work/order1"
run "$umlrun" run $R --list --shuffle=42 itest
"$umlrun" list --suite-dir="$suites" itest >"$work/plain"
cmp -s "$work/out" "$work/order1" && ! cmp -s "$work/out" "$work/plain" &&
	[ "$(sort "$work/out")" = "$(sort "$work/plain")" ]
check "--shuffle=SEED gives the same order every time"
run "$umlrun" list --suite-dir="$suites" --shuffle itest
seed=$(sed -n 's/^# shuffle seed: \([0-9]*\) (replay with --shuffle=\1)$/\1/p' "$work/err")
cp "$work/out" "$work/order2"
run "$umlrun" list --suite-dir="$suites" --shuffle="$seed" itest
[ -n "$seed" ] && cmp -s "$work/out" "$work/order2" && ! grep -q seed "$work/out"
check "list --shuffle prints its seed on stderr, and that seed replays the order"

tap_done
