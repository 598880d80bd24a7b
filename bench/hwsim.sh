#!/bin/sh
# hwsim.sh - hostap's own tests/hwsim suite under `umlrun hwsim` (issue 27).
#
#   subset   92 cases, every 8th of the ap_open*, ap_wpa2_psk*, ap_pmf*,
#            sae_*, scan_*, ap_ft*, wpas_ctrl* and ap_hs20* cases, at -j2,
#            twice: wall seconds, the cases' counts, their simulated
#            seconds, and whether the second run's results and simulated
#            seconds are the first's; and at -j1 (the -j2 speed-up)
#   full     with BENCH_HWSIM_FULL=1: every case at -j2 (and -j1 too with
#            BENCH_HWSIM_J1=1): wall, counts, wall per case and per
#            core-second
#
#   BENCH_HOSTAP=~/src/hostap sh bench/hwsim.sh
#
# The tree defaults to the project's hostap snapshot (../shared/hostap),
# unpacked into a scratch folder. The first run builds hostap's programs
# and the hwsim kernel (cached): 15 minutes or more on 2 CPUs.
set -eu
. "$(dirname "$0")/lib.sh"

echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"
tree=$(hostap_tree "hwsim.sh") || exit 2

# counts DIR: "PASS SKIP FAIL" cases of a run folder's ktap.txt.
counts() {
	awk '/^    ok [0-9]+ [^ ]+ # SKIP/ { s++; next }
	     /^    ok [0-9]+ / { p++; next }
	     /^    not ok [0-9]+ / { f++ }
	     END { printf "%d %d %d", p, s, f }' "$1/ktap.txt"
}

# sim DIR: the cases' simulated seconds, summed (their diagnostics).
sim() {
	sed -n 's/^    # [^ ]*: \([0-9.]*\) simulated s$/\1/p' "$1/ktap.txt" |
		awk '{ s += $1 } END { printf "%.3f", s }'
}

# cases_fp DIR: each case's result and simulated seconds, sorted.
cases_fp() {
	grep -E '^    (ok|not ok) [0-9]+ |^    # [^ ]*: [0-9.]* simulated s$' "$1/ktap.txt" |
		sed 's/^    \(not ok\|ok\) [0-9]* /\1 /' | sort
}

# hw NAME OPTIONS...: one `umlrun hwsim` into $work/NAME; wall in $wall.
hw() {
	name=$1
	shift
	t0=$(now)
	rc=0
	"$umlrun" hwsim --hostap="$tree" --results="$work/$name" "$@" >"$work/$name.out" 2>&1 || rc=$?
	wall=$(calc "$(now) - $t0")
	dir=$work/$name/latest
	[ -f "$dir/results.json" ] || { tail -n 20 "$work/$name.out" >&2; exit 3; }
}

report() {
	set -- "$1" "$2" $(counts "$dir")
	printf '%-14s -j%s %8.1f s wall  %4d cases: %4d passed %3d skipped %3d failed  %10s simulated s  exit %d\n' \
		"$1" "$2" "$wall" $(($3 + $4 + $5)) "$3" "$4" "$5" "$(sim "$dir")" "$rc"
}

# Building (cached) first, so that no figure below holds a build.
"$umlrun" hwsim --hostap="$tree" ap_open >"$work/warm.out" 2>&1 || {
	tail -n 20 "$work/warm.out" >&2
	exit 3
}

subset=
for p in 'ap_open*' 'ap_wpa2_psk*' 'ap_pmf*' 'sae_*' 'scan_*' 'ap_ft*' 'wpas_ctrl*' 'ap_hs20*'; do
	subset="$subset $("$umlrun" hwsim --hostap="$tree" --list "$p" | awk 'NR % 8 == 1 { printf "%s ", $2 }')"
done
# shellcheck disable=SC2086 # the cases are words
set -- $subset
echo "# subset: $# cases"

hw subset1 -j2 "$@"
report subset 2
cases_fp "$dir" >"$work/fp1"
w2=$wall
hw subset2 -j2 "$@"
report subset 2
cases_fp "$dir" >"$work/fp2"
w2b=$wall
if cmp -s "$work/fp1" "$work/fp2"; then
	echo "# subset twice: every case's result and simulated seconds identical"
else
	echo "# subset twice: DIFFERENT results or simulated seconds:"
	diff "$work/fp1" "$work/fp2" | head -n 10 | sed 's/^/#   /'
fi
hw subset_j1 -j1 "$@"
report subset 1
printf '# subset -j1/-j2 wall: %.2f\n' "$(calc "$wall / (($w2 + $w2b) / 2)")"

if [ "${BENCH_HWSIM_FULL:-0}" = 1 ]; then
	hw full -j2
	report full 2
	set -- $(counts "$dir")
	printf '# full -j2: %.3f s wall a case, %.2f core-seconds a case (2 CPUs)\n' \
		"$(calc "$wall / ($1 + $2 + $3)")" "$(calc "2 * $wall / ($1 + $2 + $3)")"
	grep -E '^    not ok [0-9]+ ' "$dir/ktap.txt" | sed 's/^/# failed: /' | head -n 100
	if [ "${BENCH_HWSIM_J1:-0}" = 1 ]; then
		hw full_j1 -j1
		report full 1
	fi
fi
