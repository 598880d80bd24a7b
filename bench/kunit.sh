#!/bin/sh
# kunit.sh - umlrun kunit side by side with the kernel tree's own
# tools/testing/kunit/kunit.py (docs/kunit.md), per kunitconfig: the
# first build, a build with nothing to do, a run (the kernel built), and
# the tests each tool counts (kunit.py's counting: a parameter is a test).
#
#   sh bench/kunit.sh [--default]
#   ROWS=default sh bench/kunit.sh     # some rows only
#
# Rows: lib/kunit (the tree's lib/kunit/.kunitconfig) and kernel/time
# (umlrun's uml-config/kunit/kernel-time.kunitconfig, the tree's
# kernel/time/.kunitconfig for kunit.py: the same two lines); --default adds
# the tree's default.config (every test: a long first build for both).
# kunit.py runs on the same kernel source without umlrun's patches (the
# Debian tarball, unpacked once into $KUNITPY_BUILD/src) and builds in a
# folder of its own per row,
# $KUNITPY_BUILD/kunitpy-ROW (default ~/.cache/umlrun-bench), kept between
# runs: a first run pays both full builds.
#
# build no-op: `umlrun kunit --build-only` (finds the kernel by its key)
# against `kunit.py build` (its make with nothing to do). run: `umlrun kunit
# --no-build --summary` against `kunit.py exec`, the fastest of RUNS
# (default 3), the tools alternating. Counts: both tools' "Testing
# complete. Ran N tests: ..." line. umlrun runs in its default time-travel
# mode (TT=MODE for another). Python runs here only as the peer: umlrun
# itself has none.
set -eu
. "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
tt=${TT:-inf-cpu}
base=${KUNITPY_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/umlrun-bench}
jobs=$(nproc)
rows="lib/kunit kernel/time"
[ "${1:-}" = --default ] && rows="$rows default"
rows=${ROWS:-$rows}

# ucfg ROW, pcfg ROW: each tool's kunitconfig option for a row.
ucfg() {
	case $1 in
	kernel/time) echo "--kunitconfig=$top/uml-config/kunit/kernel-time.kunitconfig" ;;
	default) ;;
	*) echo "--kunitconfig=$1" ;;
	esac
}
pcfg() {
	[ "$1" = default ] || echo "--kunitconfig=$1"
}
# counts FILE: "tests pass fail skip" from a "Testing complete. Ran ..." line.
counts() {
	sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests: *\(.*\)$/\1 \2/p' "$1" | tail -n 1 |
		awk '{ t = $1; p = f = s = c = 0
			for (i = 2; i <= NF; i += 2) { k = $i; v = $(i + 1) + 0
				if (k ~ /^passed/) p = v; else if (k ~ /^failed/) f = v
				else if (k ~ /^skipped/) s = v; else if (k ~ /^crashed/) c = v }
			printf "%d %d %d %d", t, p, f + c, s }'
}
# timed OUT CMD...: run CMD, its output in OUT; the wall seconds on stdout.
timed() {
	out=$1
	shift
	t0=$(now)
	"$@" >"$out" 2>&1 || true
	calc "$(now) - $t0"
}

# find_tree UMLRUN_OUTPUT: the kernel tree kunit.py runs from, the one
# umlrun built its kernel from (its build log names it: make -C TREE).
find_tree() {
	kernel=$(sed -n 's/^# kernel: \([^ ]*\) .*/\1/p' "$1")
	tree=$(sed -n 's/^\$ make -C \([^ ]*\) ARCH=um .*/\1/p' "$(dirname "$kernel")/build.log" | head -n 1)
	tree=${tree%/}
	[ -d "$tree" ] || tree=${XDG_CACHE_HOME:-$HOME/.cache}/umlrun/src/${tree#*/umlrun/src/}
	[ -f "$tree/tools/testing/kunit/kunit.py" ] || {
		echo "bench/kunit.sh: cannot find the kernel tree of $kernel" >&2
		exit 3
	}
}
# pristine_tree: kunit.py runs on the kernel's own source, without
# umlrun's patches (a patched tree needs time travel to build, which
# kunit.py's configs leave off): the tarball umlrun built from, unpacked
# once into $base/src. A kernel umlrun built from --kernel-src: that tree.
pristine_tree() {
	inputs=$(dirname "$kernel")/inputs.txt
	tarball=$(sed -n 's/^source: tarball \([^ ]*\) .*/\1/p' "$inputs" 2>/dev/null)
	[ -n "$tarball" ] || return 0
	src=${XDG_CACHE_HOME:-$HOME/.cache}/umlrun/sources/$tarball
	dir=$base/src/${tarball%.tar.xz}
	if [ ! -f "$dir/tools/testing/kunit/kunit.py" ] && [ -f "$src" ]; then
		echo "# unpacking $tarball for kunit.py (once): $base/src" >&2
		rm -rf "$dir" && mkdir -p "$base/src" && tar -C "$base/src" -xf "$src" || exit 3
	fi
	[ -f "$dir/tools/testing/kunit/kunit.py" ] && tree=$dir
	return 0
}
kunitpy() {
	(cd "$tree" && python3 tools/testing/kunit/kunit.py "$@")
}

echo "# KUnit: umlrun kunit vs kunit.py, $jobs CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/^[^:]*: //')"
echo "# umlrun --time-travel=$tt; run_s: the fastest of $runs; build_s: this run's first build"
echo "# command (a full build only when none was there: umlrun says cached), noop_s its second"
printf '%-12s %-9s %9s %9s %7s %6s %5s %5s %5s\n' config tool build_s noop_s run_s tests pass fail skip
for row in $rows; do
	name=$(echo "$row" | tr / -)
	pdir=$base/kunitpy-$name
	mkdir -p "$pdir"
	py() { kunitpy "$@" $(pcfg "$row") --arch=um --build_dir="$pdir"; }
	echo "# $row: load before $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	# First builds (a full one only if not built before: see the output).
	u_build=$(timed "$work/$name.ub" "$umlrun" kunit --build-only $(ucfg "$row") --make-jobs="$jobs")
	grep -q ', built)$' "$work/$name.ub" || u_build=cached
	[ -n "${tree:-}" ] || { find_tree "$work/$name.ub" && pristine_tree; }
	p_build=$(timed "$work/$name.pb" py build --jobs="$jobs")
	# kunit.py's make always runs: a first build shows in its time only.
	u_noop=$(timed "$work/$name.un" "$umlrun" kunit --build-only $(ucfg "$row"))
	p_noop=$(timed "$work/$name.pn" py build --jobs="$jobs")
	u_best= p_best=
	i=1
	while [ "$i" -le "$runs" ]; do
		u=$(timed "$work/$name.u$i" "$umlrun" kunit --no-build --summary --time-travel="$tt" \
			--results="$work/r" $(ucfg "$row"))
		p=$(timed "$work/$name.p$i" py exec)
		if [ -z "$u_best" ] || [ "$(calc "$u < $u_best")" = 1 ]; then u_best=$u; fi
		if [ -z "$p_best" ] || [ "$(calc "$p < $p_best")" = 1 ]; then p_best=$p; fi
		i=$((i + 1))
	done
	uc=$(counts "$work/$name.u1")
	pc=$(counts "$work/$name.p1")
	[ "$u_build" = cached ] || u_build=$(printf '%.1f' "$u_build")
	printf '%-12s %-9s %9s %9.2f %7.2f %6s %5s %5s %5s\n' "$row" umlrun "$u_build" "$u_noop" \
		"$u_best" ${uc:-? ? ? ?}
	printf '%-12s %-9s %9.1f %9.2f %7.2f %6s %5s %5s %5s\n' "$row" kunit.py "$p_build" "$p_noop" \
		"$p_best" ${pc:-? ? ? ?}
	[ "$uc" = "$pc" ] || echo "# $row: the counts differ (umlrun: $uc; kunit.py: $pc)"
done
echo "# kernel tree: $tree"
