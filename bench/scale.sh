#!/bin/sh
# scale.sh - parallel guests and sharding (issue 5): -j 2 against -j 1 on
# the wireless suite (falls back to timers if absent), per-test overhead, and
# a 4-way sharded run merged against one whole run.
set -eu
. "$(dirname "$0")/lib.sh"

suite=${1:-wireless}
[ -d "$top/testsuites/$suite" ] || suite=timers
"$umlrun" build >/dev/null
echo "# scale benchmark on '$suite', $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
bench_run j1 -j1 "$suite"
w1=$(run_wall "$dir")
cp -R "$(readlink -f "$dir")" "$work/whole"
bench_run j2 -j2 "$suite"
w2=$(run_wall "$dir")
printf -- '-j1: %s s wall; -j2: %s s wall; throughput ratio %.2f\n' "$w1" "$w2" "$(calc "$w1 / $w2")"
# A third guest on 2 CPUs: does it help while the others wait (on the host
# kernel, on the pipes)? The host CPU the guests used (tests[].cost) over the
# wall says how busy the CPUs were.
bench_run j3 -j3 "$suite"
w3=$(run_wall "$dir")
cpu3=$(calc "$(sum_field "$dir" host_user_seconds) + $(sum_field "$dir" host_system_seconds)")
printf -- '-j3: %s s wall (%.2f of the -j2 wall); guests used %.1f host CPU s, %.2f CPUs busy on average\n' \
	"$w3" "$(calc "$w3 / $w2")" "$cpu3" "$(calc "$cpu3 / $w3")"

# Per-test overhead: boot, teardown and collection of a test that does nothing.
bench_run noop -j1 --suite-dir="$top/tests/integration/suites" itest/t0001-pass.sh
printf 'per-test overhead (guest wall of a trivial test file): %s s\n' "$(sum_field "$dir" wall_seconds)"
t0=$(now)
bench_run noop2 -j1 --suite-dir="$top/tests/integration/suites" itest/t0001-pass.sh
t1=$(now)
printf 'whole umlrun run of it (checks, stage, reports): %.3f s\n' "$(calc "$t1 - $t0")"

dirs=
for k in 1 2 3 4; do
	bench_run "shard$k" -j1 --shard="$k/4" "$suite"
	dirs="$dirs $dir"
done
# shellcheck disable=SC2086 # the list is meant to split
"$umlrun" merge --output="$work/merged" $dirs >/dev/null
if same_results "$work/whole" "$work/merged"; then
	echo "4 shards merged give the same results as one run: yes"
else
	echo "4 shards merged give the same results as one run: NO"
fi
