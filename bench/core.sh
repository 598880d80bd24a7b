#!/bin/sh
# core.sh - the core benchmark (issue 2): a sleep-bound test in all three
# modes in one run, boot-to-first-test, and a no-op `umlrun build`.
#
# Prints simulated seconds, wall seconds and their ratio per mode. Figures
# come from umlrun's own results.json (simulated time measured by the guest
# init, wall time by the host), all from this one run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
umlrun=$top/build/umlrun
work=$(mktemp -d /tmp/umlrun-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
suites=$top/bench/suites

now() { date +%s.%N; }

# field FILE KEY: the first numeric value of "KEY": in a results.json.
field() {
	sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$1" | head -n 1
}

# one MODE TEST: run TEST in MODE; print "sim wall".
one() {
	"$umlrun" run --results="$work/r" --suite-dir="$suites" --time-travel="$1" "$2" \
		>"$work/out" 2>&1 || { cat "$work/out" >&2; exit 3; }
	j=$work/r/latest/results.json
	# the test's own figures, not the run's: skip the run-level wall_seconds
	sim=$(sed -n 's/.*"sim_seconds": \([0-9.]*\), "wall_seconds": \([0-9.]*\).*/\1/p' "$j")
	wall=$(sed -n 's/.*"sim_seconds": \([0-9.]*\), "wall_seconds": \([0-9.]*\).*/\2/p' "$j")
	echo "$sim $wall"
}

"$umlrun" build >/dev/null
echo "# umlrun core benchmark, $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '%-10s %-18s %12s %10s %10s\n' mode test simulated_s wall_s ratio
for spec in "inf-cpu sleep/t0001-hour.sh" "basic sleep/t0001-hour.sh" "off sleep/t0002-ten.sh"; do
	set -- $spec
	set -- "$1" "$2" $(one "$1" "$2")
	printf '%-10s %-18s %12.3f %10.3f %10.1f\n' "$1" "${2#sleep/}" "$3" "$4" \
		"$(echo "$3 / $4" | bc -l)"
done

# Boot to first test: from umlrun's start to the test file's first line.
t0=$(now)
"$umlrun" exec -- true
t1=$(now)
printf 'exec true (boot, run, power off): %.3f s wall\n' "$(echo "$t1 - $t0" | bc -l)"
"$umlrun" run --results="$work/r" --suite-dir="$top/tests/integration/suites" \
	itest/t0001-pass.sh >/dev/null
printf 'run of one trivial test file, guest wall time: %.3f s\n' \
	"$(sed -n 's/.*"sim_seconds": [0-9.]*, "wall_seconds": \([0-9.]*\).*/\1/p' "$work/r/latest/results.json")"

t0=$(now)
"$umlrun" build >/dev/null
t1=$(now)
printf 'no-op umlrun build: %.3f s wall\n' "$(echo "$t1 - $t0" | bc -l)"
