#!/bin/sh
# explore.sh - the race hunter's tools (docs/timers.md), in figures:
#
#   seeds     how many seeds of a racy test `--seeds=A-B` explores per
#             minute at -j2 (tests/integration/suites/icost/t0001-tickrace.sh:
#             two threads on 1.000 and 1.003 ms timerfds, an unlocked
#             counter), and under how many of them the race shows;
#   cpu-cost  what --cpu-cost costs the timers and wireless suites: wall,
#             simulated seconds and files passed, without then with it
#             (the timers suite's exact assertions see every system
#             call's cost: some of its files are expected to fail).
#
#   sh bench/explore.sh
#   BENCH_SEEDS=1-240 BENCH_COST=300,jitter=50 sh bench/explore.sh
set -eu
. "$(dirname "$0")/lib.sh"

seeds=${BENCH_SEEDS:-1-120}
cost=${BENCH_COST:-300,jitter=50}
suites=${BENCH_SUITES:-timers wireless}
echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"

first=${seeds%-*}
last=${seeds#*-}
n=$((last - first + 1))
t0=$(now)
bench_run seeds -q -j2 --cpu-cost="$cost" --seeds="$seeds" \
	--suite-dir="$top/tests/integration/suites" icost/t0001-tickrace.sh
wall=$(calc "$(now) - $t0")
failed=$(sed -n 's/^# seeds: \([0-9]*\) of [0-9]* runs failed.*/\1/p' "$work/seeds.out")
printf 'seeds %s (%d), --cpu-cost=%s: %.1f s wall, %.0f seeds a minute; the race showed under %s\n' \
	"$seeds" "$n" "$cost" "$wall" "$(calc "$n * 60 / $wall")" "${failed:-0}"

# shellcheck disable=SC2086 # the suites are meant to split
for c in "" "$cost"; do
	bench_run "cost${c:+-on}" -q -j2 ${c:+--cpu-cost=$c} $suites
	label="without --cpu-cost"
	[ -z "$c" ] || label="--cpu-cost=$c"
	printf '%-26s %7.1f s wall, %12s simulated s, %s/%s files passed\n' \
		"$label" "$(run_wall "$dir")" "$(sum_field "$dir" sim_seconds)" \
		"$(grep -c '"attempt": [0-9]*, "result": "pass"' "$dir/results.json" || true)" \
		"$(grep -c '^    {"id"' "$dir/results.json")"
	[ -z "$c" ] || grep -o '"id": "[^"]*", "attempt": [0-9]*, "result": "fail"' "$dir/results.json" |
		sed 's/"id": "\([^"]*\)".*/  failed under the cost: \1/'
done
