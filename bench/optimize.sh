#!/bin/sh
# optimize.sh - the guest kernel built for speed (-O2, umlrun's default
# since issue 31, as kunit.py builds) against built for size (-Os, UML's
# defconfig: bench/configs/size.config), every suite under both, in one
# run:
#
#   wireless   run -j2 wireless: wall, results, simulated seconds
#   timers     run -j2 timers
#   kselftest  kselftest -j2 timers
#   kunit      kunit --kunitconfig=kernel/time (the issue's 3.3x)
#   hwsim      the 95-case subset of bench/hwsim.sh at -j2 (BENCH_HWSIM=1,
#              with a hostap tree: BENCH_HOSTAP or the project's snapshot)
#
# Each suite runs ROUNDS times (default 2) under each kernel, alternating
# (speed, size, speed, size), and prints the fastest wall of each and
# their ratio; the results and simulated seconds must be the same under
# both (time travel: the guest's speed is not in its clock).
# Each kernel is built first if not cached (10 to 20 minutes each on 2
# CPUs: the size kernels are the benchmark's own), so run it by hand.
# BENCH_BEFORE=DIR takes the size kernels from another checkout of the
# project instead (built, e.g. `git worktree add DIR 2ef0e4f && make -C
# DIR`): its umlrun and its uml-config, whose kernels (built for size
# before issue 31) may already be in the cache.
set -eu
. "$(dirname "$0")/lib.sh"

rounds=${ROUNDS:-2}
size="--config=$top/bench/configs/size.config"
suites=${BENCH_SUITES:-wireless timers kselftest kunit}
[ "${BENCH_HWSIM:-0}" = 1 ] && suites="$suites hwsim"

echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"

tree=
if echo "$suites" | grep -q hwsim; then
	tree=$(hostap_tree "optimize.sh") || exit 2
	subset=
	for p in 'ap_open*' 'ap_wpa2_psk*' 'ap_pmf*' 'sae_*' 'scan_*' 'ap_ft*' 'wpas_ctrl*' 'ap_hs20*'; do
		subset="$subset $("$umlrun" hwsim --hostap="$tree" --list "$p" | awk 'NR % 8 == 1 { printf "%s ", $2 }')"
	done
fi

# one SUITE VARIANT N: the suite once under the variant's kernel, into
# $work/SUITE-VARIANT-N; its wall in $wall, its folder in $dir.
one() {
	out=$work/$1-$2-$3
	opt=
	u=$umlrun
	if [ "$2" = size ] && [ -n "${BENCH_BEFORE:-}" ]; then
		u=$BENCH_BEFORE/build/umlrun
	elif [ "$2" = size ]; then
		opt=$size
	fi
	rc=0
	t0=$(now)
	case $1 in
	wireless | timers)
		"$u" run -j2 $opt --results="$out" "$1" >"$out.out" 2>&1 || rc=$? ;;
	kselftest)
		"$u" kselftest -j2 $opt --results="$out" timers >"$out.out" 2>&1 || rc=$? ;;
	kunit)
		"$u" kunit $opt --kunitconfig="$top/uml-config/kunit/kernel-time.kunitconfig" \
			--results="$out" >"$out.out" 2>&1 || rc=$? ;;
	hwsim)
		# shellcheck disable=SC2086 # the cases are words
		"$u" hwsim -j2 $opt --hostap="$tree" --results="$out" $subset >"$out.out" 2>&1 || rc=$? ;;
	esac
	wall=$(calc "$(now) - $t0")
	dir=$out/latest
	[ -f "$dir/results.json" ] || { tail -n 20 "$out.out" >&2; exit 3; }
}

# sim DIR: every test's simulated seconds and result (results.json), sorted.
sim() {
	grep '^    {"id"' "$1/results.json" |
		sed 's/.*"id": "\([^"]*\)".*"result": "\([^"]*\)".*"sim_seconds": \([0-9.]*\),.*/\1 \2 \3/' | sort
}

# Build (or find) every kernel first: no figure holds a build.
for s in $suites; do
	for v in speed size; do
		t0=$(now)
		one "$s" "$v" warm
		printf '# %s kernel for %s: ready in %.0f s (a build, or found cached)\n' "$v" "$s" "$(calc "$(now) - $t0")"
	done
done

printf '%-10s %10s %10s %8s  %s\n' suite speed_s size_s size/speed 'same results and simulated seconds'
for s in $suites; do
	best_speed= best_size=
	i=1
	while [ $i -le "$rounds" ]; do
		for v in speed size; do
			one "$s" "$v" "$i"
			sim "$dir" >"$work/sim-$s-$v-$i"
			if [ $v = speed ]; then
				if [ -z "$best_speed" ] || [ "$(calc "$wall < $best_speed")" = 1 ]; then best_speed=$wall; fi
			elif [ -z "$best_size" ] || [ "$(calc "$wall < $best_size")" = 1 ]; then
				best_size=$wall
			fi
		done
		i=$((i + 1))
	done
	same=yes
	for f in "$work"/sim-"$s"-*; do
		cmp -s "$work/sim-$s-speed-1" "$f" || same="NO ($(basename "$f") differs)"
	done
	printf '%-10s %10.2f %10.2f %8.2fx  %s\n' "$s" "$best_speed" "$best_size" \
		"$(calc "$best_size / $best_speed")" "$same"
done
