#!/bin/sh
# t-harness-options.sh - the harness's own options, from the host: --trace,
# --immediate, --run, and KTAP's order.
. "$(dirname "$0")/lib.sh"
itest_own_cache

mkdir -p "$work/hsuites/h"
cat >"$work/hsuites/h/t0001-two-fail.sh" <<'EOF'
#!/bin/sh
test_description='two failing tests'
. ../lib/harness.sh
test_expect_success 'the first fails' 'echo first-body && false'
test_expect_success 'the second fails' 'false'
test_done
EOF
chmod +x "$work/hsuites/h/t0001-two-fail.sh"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" --trace --immediate h
[ $rc -eq 1 ] && grep -q "not ok 1 the first fails" "$work/out" && ! grep -q "the second fails" "$work/out" &&
	grep -q "^+ echo first-body" "$results/latest/h/t0001-two-fail/console.log"
check "--trace and --immediate reach the harness in the guest (set -x, stop at the first failure)"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" h
[ $rc -eq 1 ] && grep -q "not ok 2 the second fails" "$work/out" &&
	! grep -q "^+ echo first-body" "$results/latest/h/t0001-two-fail/console.log"
check "without them, every test runs untraced"
# KTAP's order: each block's plan just after its version line and its
# name (the harness prints the plan last), as KUnit writes a block.
plan_follows_version() {
	grep -q '^    KTAP version 1' "$1" &&
		awk -v id="$2" '/^    KTAP version/ { v = NR; next }
			v && NR == v + 1 { if ($0 != "    # Subtest: " id) bad = 1; next }
			v && NR == v + 2 { if ($0 !~ /^    1\.\.[0-9]/) bad = 1; v = 0 }
			END { exit bad }' "$1"
}
plan_follows_version "$work/out" h/t0001-two-fail.sh &&
	plan_follows_version "$results/latest/ktap.txt" h/t0001-two-fail.sh &&
	[ "$(grep -c '^    1\.\.' "$results/latest/ktap.txt")" -eq 1 ] &&
	[ "$(tail -n 1 "$results/latest/h/t0001-two-fail/ktap.log")" = 1..2 ]
check "stdout and ktap.txt put a harness file's plan after its version line, as KTAP wants (ktap.log keeps the guest's order)"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" --run=2 h
[ $rc -eq 1 ] && grep -q "ok 1 the first fails # SKIP not selected by --run=2" "$work/out" &&
	grep -q "not ok 2 the second fails" "$work/out"
check "--run=LIST runs only those tests of the file"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" --run=2-x h
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "want test numbers and ranges" "$work/err"
check "a malformed --run list exits 2 with one line"

tap_done
