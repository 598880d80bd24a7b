#!/bin/sh
# debug.sh - what the debug kernel profiles cost (docs/debugging.md): each
# profile's build time (from its build.log's first and last lines, when
# this script built it; "cached" otherwise) and the timers and wireless
# suites' wall seconds under it against the default kernel, measured in
# this run, in turns (default, profile), so that the host's other load
# weighs on both alike. Also the cost of --trace-event on the timers suite.
#
#   sh bench/debug.sh [PROFILE...]      (default: hardened kasan lockdep gcov)
#
# A profile kernel takes as long to build as the default one (5 to 15 min
# on 2 cores): this script builds the ones missing, one at a time.
set -eu
. "$(dirname "$0")/lib.sh"

profiles=${*:-hardened kasan lockdep gcov}
suites=${BENCH_SUITES:-timers wireless}
echo "# debug profiles benchmark, $(nproc) CPUs ($(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
"$umlrun" build >/dev/null

# build_profile NAME: build (or find) its kernel; print the seconds taken.
build_profile() {
	t0=$(now)
	if ! "$umlrun" build --profile="$1" >"$work/build-$1.out" 2>&1; then
		echo "profile $1: does not build or its options do not survive:" >&2
		tail -n 3 "$work/build-$1.out" >&2
		return 1
	fi
	if grep -q 'building the kernel' "$work/build-$1.out"; then
		printf '%.0f' "$(calc "$(now) - $t0")"
	else
		printf 'cached'
	fi
}

# suite_wall NAME [options]: one run of the suites; "WALL s, P/N passed".
suite_wall() {
	name=$1
	shift
	# shellcheck disable=SC2086 # the suites are meant to split
	bench_run "$name" -q "$@" $suites
	printf '%s s wall, %s simulated s, %s/%s passed (exit %d)' "$(run_wall "$dir")" \
		"$(sum_field "$dir" sim_seconds)" \
		"$(grep '^    {"id"' "$dir/results.json" | grep -c '"attempt": [0-9]*, "result": "pass"' || true)" \
		"$(grep -c '^    {"id"' "$dir/results.json")" "$rc"
}

printf '%-10s %-8s %s\n' profile build_s "suites ($suites): default kernel, then the profile"
for p in $profiles; do
	b=$(build_profile "$p") || { printf '%-10s %-8s %s\n' "$p" failed "-"; continue; }
	d=$(suite_wall "default-$p")
	w=$(suite_wall "$p" --profile="$p")
	printf '%-10s %-8s default: %s\n%-10s %-8s %s: %s\n' "$p" "$b" "$d" "" "" "$p" "$w"
done
# Tracing from boot, on the timers suite: every hrtimer event into the buffer.
suites=timers
d=$(suite_wall trace-off)
w=$(suite_wall trace-on --trace-event=timer:hrtimer_start,timer:hrtimer_expire_entry)
printf 'tracing (timers): without %s\n                  with    %s\n' "$d" "$w"
