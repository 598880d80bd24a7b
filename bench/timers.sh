#!/bin/sh
# timers.sh - the timer suite benchmark (issue 4): simulated time covered,
# wall time in inf-cpu, and identical results over 5 consecutive runs.
set -eu
. "$(dirname "$0")/lib.sh"

"$umlrun" build >/dev/null
echo "# timer suite benchmark, $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
dirs=
for i in 1 2 3 4 5; do
	bench_run "timers$i" timers
	printf 'run %d: exit %d, %s simulated s, %s wall s\n' "$i" "$rc" \
		"$(sum_field "$dir" sim_seconds)" "$(run_wall "$dir")"
	cp -R "$(readlink -f "$dir")" "$work/keep$i"
	dirs="$dirs $work/keep$i"
done
sim=$(sum_field "$work/keep1" sim_seconds)
printf 'simulated: %s s (%.1f h); wall of one run: %s s; ratio %.0f\n' "$sim" \
	"$(calc "$sim / 3600")" "$(run_wall "$work/keep1")" \
	"$(calc "$sim / $(run_wall "$work/keep1")")"
# shellcheck disable=SC2086 # the list is meant to split
if same_results $dirs; then
	echo "identical results over 5 runs: yes"
else
	echo "identical results over 5 runs: NO"
fi
# shellcheck disable=SC2086
printf "largest difference in one test's simulated seconds over the 5 runs: %s s\n" "$(sim_spread $dirs)"
# shellcheck disable=SC2086 # the list is meant to split
printf 'files byte-identical over the 5 runs (artifacts: probe logs; consoles): %s\n' \
	"$(same_files $dirs)"
