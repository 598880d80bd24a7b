#!/bin/sh
# kselftest.sh - the kernel's timers selftests under time travel: per
# program the simulated seconds, the wall seconds and their ratio, and the
# totals, from one `umlrun kselftest -j2 timers` (docs/kselftest.md).
# The selftests are built (and cached) first, so the run times only the runs.
# Arguments go to umlrun kselftest, e.g. --config=uml-config/kselftest/rtc.config.
set -eu
. "$(dirname "$0")/lib.sh"

jobs=${JOBS:-2}
"$umlrun" build >/dev/null
"$umlrun" kselftest --list "$@" timers >/dev/null
echo "# kselftest timers benchmark, -j$jobs, $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: //')"
echo "# load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
"$umlrun" kselftest -j"$jobs" "$@" timers --results="$work/ks" >"$work/ks.out" 2>&1 || rc=$?
dir=$work/ks/latest
[ -f "$dir/results.json" ] || { cat "$work/ks.out" >&2; exit 3; }

printf '%-46s %-6s %12s %8s %10s\n' program result simulated_s wall_s ratio
grep '^    {"id"' "$dir/results.json" |
	sed 's/.*"id": "\([^"]*\)".*"result": "\([^"]*\)".*"sim_seconds": \([0-9.]*\), "wall_seconds": \([0-9.]*\).*/\1 \2 \3 \4/' |
	sort | awk '{
		ratio = $4 > 0 ? $3 / $4 : 0
		printf "%-46s %-6s %12.3f %8.3f %9.1fx\n", $1, $2, $3, $4, ratio
		if ($2 != "skip") { sim += $3; wall += $4; n++ } else skipped++
		if ($4 > slowest) slowest = $4
	} END {
		printf "%-46s %-6s %12.3f %8.3f %9.1fx\n", "total (programs that ran)", "", sim, wall, sim / wall
		printf "# %d programs ran, %d skipped (reasons in the KTAP and docs/kselftest.md)\n", n, skipped
		printf "# slowest test file: %.1f s wall\n", slowest
	}'
sim=$(sum_field "$dir" sim_seconds)
wall=$(run_wall "$dir")
printf '# whole run: exit %d, %s simulated s (%.1f min) in %s s wall at -j%s: ratio %.0f\n' \
	"$rc" "$sim" "$(calc "$sim / 60")" "$wall" "$jobs" "$(calc "$sim / $wall")"
