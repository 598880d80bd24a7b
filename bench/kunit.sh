#!/bin/sh
# kunit.sh - umlrun kunit side by side with the kernel tree's own
# tools/testing/kunit/kunit.py on the same kunitconfigs (docs/kunit.md):
# both walls, build included and excluded, and whether the verdicts agree.
#
#   sh bench/kunit.sh [KUNITCONFIG...]    (default: kernel/time's and lib/kunit)
#
# Each tool builds its kernel first (umlrun in its cache, kunit.py in a
# build folder of its own, $KUNITPY_BUILD or ~/.cache/umlrun-bench/kunitpy),
# timed: on a first run that is a full build, later ones find it done
# ("build included" is then the tool's whole command with nothing to
# build). Then RUNS (default 3) runs of each, alternating: "build
# excluded" is umlrun kunit with its kernel cached against `kunit.py exec`
# (which only boots the kernel it built), the fastest of the runs.
# Python runs here only as the peer: umlrun itself has none.
set -eu
. "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
[ $# -gt 0 ] || set -- "$top/uml-config/kunit/kernel-time.kunitconfig" lib/kunit
kpy_build=${KUNITPY_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/umlrun-bench/kunitpy}
ucfg= pcfg=
for c in "$@"; do
	ucfg="$ucfg --kunitconfig=$c"
done

# umlrun first: it finds (or extracts) the kernel tree kunit.py runs from.
# Under basic time travel, as kunit.py has none: both tools then let time
# pass with the work (docs/kunit.md).
t0=$(now)
"$umlrun" kunit -q --time-travel=basic --results="$work/u0" $ucfg >"$work/u0.out" 2>&1 || true
u_build=$(calc "$(now) - $t0")
[ -f "$work/u0/latest/results.json" ] || { cat "$work/u0.out" >&2; exit 3; }
kernel=$(sed -n 's/^  "kernel": "\(.*\)",$/\1/p' "$work/u0/latest/results.json")
# The tree it was built from: its build log names it (make -C TREE).
tree=$(sed -n 's/^\$ make -C \([^ ]*\) ARCH=um .*/\1/p' "$(dirname "$kernel")/build.log" | head -n 1)
[ -d "$tree/tools/testing/kunit" ] || { echo "bench/kunit.sh: cannot find the kernel tree of $kernel" >&2; exit 3; }
tree=${tree%/}
# kunit.py resolves its paths from the tree: make them absolute first.
for c in "$@"; do
	if [ -e "$c" ]; then
		pcfg="$pcfg --kunitconfig=$(cd "$(dirname "$c")" && pwd)/$(basename "$c")"
	else
		pcfg="$pcfg --kunitconfig=$c"
	fi
done
kunitpy() {
	(cd "$tree" && python3 tools/testing/kunit/kunit.py "$@" --arch=um --build_dir="$kpy_build")
}
mkdir -p "$kpy_build"
t0=$(now)
kunitpy run $pcfg --jobs="$(nproc)" >"$work/p0.out" 2>&1 || true
p_build=$(calc "$(now) - $t0")

echo "# KUnit: umlrun kunit vs kunit.py run/exec, $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: //')"
echo "# kunitconfigs: $*"
echo "# kernel tree: $tree; umlrun's kernel: $kernel"
echo "# load before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

u_best= p_best= u_boot=
i=1
while [ "$i" -le "$runs" ]; do
	t0=$(now)
	"$umlrun" kunit -q --time-travel=basic --results="$work/u$i" $ucfg >"$work/u$i.out" 2>&1 || true
	u=$(calc "$(now) - $t0")
	t0=$(now)
	kunitpy exec >"$work/p$i.out" 2>&1 || true
	p=$(calc "$(now) - $t0")
	b=$(run_wall "$work/u$i/latest")
	printf '# run %d: umlrun kunit %.2f s (of which the boot %.2f s), kunit.py exec %.2f s\n' \
		"$i" "$u" "$b" "$p"
	if [ -z "$u_best" ] || [ "$(calc "$u < $u_best")" = 1 ]; then u_best=$u u_boot=$b; fi
	if [ -z "$p_best" ] || [ "$(calc "$p < $p_best")" = 1 ]; then p_best=$p; fi
	i=$((i + 1))
done

# Verdicts per suite: umlrun's results.json, kunit.py's own summary lines.
grep '^    {"id"' "$work/u1/latest/results.json" |
	sed 's/.*"id": "kunit\/\([^"]*\)".*"result": "\([^"]*\)".*/\1 \2/' | sort >"$work/u.verdicts"
# kunit.py: "[hh:mm:ss] [PASSED] case", and "[hh:mm:ss] ==== [PASSED] suite ====".
sed -n 's/^.*\[\(PASSED\|FAILED\|SKIPPED\|CRASHED\)\] \([^ ]*\).*$/\2 \1/p' "$work/p1.out" |
	tr 'A-Z' 'a-z' | sed 's/passed$/pass/; s/failed$/fail/; s/skipped$/skip/; s/crashed$/crash/' |
	sort >"$work/p.suites"
# kunit.py prints cases and suites alike: keep the names umlrun has as suites.
awk 'NR == FNR { want[$1] = 1; next } ($1 in want)' "$work/u.verdicts" "$work/p.suites" >"$work/p.verdicts"
printf '%-36s %-8s %-8s\n' suite umlrun kunit.py
join -a 1 -a 2 -e - -o 0,1.2,2.2 "$work/u.verdicts" "$work/p.verdicts" |
	awk '{ printf "%-36s %-8s %-8s%s\n", $1, $2, $3, $2 == $3 ? "" : "   DIFFERENT" }'
if cmp -s "$work/u.verdicts" "$work/p.verdicts"; then same=yes; else same=no; fi
sim=$(sed -n 's/.*(\([0-9.]*\) s simulated).*/\1/p' "$work/u1.out")
printf '%-44s %10s %10s\n' wall_s umlrun kunit.py
printf '%-44s %10.2f %10.2f\n' "build included (first command, see above)" "$u_build" "$p_build"
printf '%-44s %10.2f %10.2f\n' "build excluded (fastest of $runs)" "$u_best" "$p_best"
printf '# umlrun: the boot itself %.2f s wall for %s simulated s; same verdicts: %s\n' \
	"$u_boot" "${sim:-?}" "$same"
