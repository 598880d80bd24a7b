# lib.sh - helpers shared by the benchmarks (sourced, POSIX sh).
#
# Figures come from umlrun's own results.json: simulated seconds as the
# guest init measured them, wall seconds as the host measured them.

top=$(cd "$(dirname "$0")/.." && pwd)
umlrun=$top/build/umlrun
work=$(mktemp -d /tmp/umlrun-bench.XXXXXX)
# As root the guests run as nobody, who must reach the stage in TMPDIR.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT INT TERM

now() { date +%s.%N; }
calc() { echo "$*" | bc -l; }

# bench_run NAME [umlrun run options and tests]: one run into $work/NAME;
# its exit status is kept in $rc, its folder in $dir.
bench_run() {
	name=$1
	shift
	# A failing run is a figure too: its status is kept, the script goes on.
	rc=0
	"$umlrun" run --results="$work/$name" "$@" >"$work/$name.out" 2>&1 || rc=$?
	dir=$work/$name/latest
	[ -f "$dir/results.json" ] || { cat "$work/$name.out" >&2; exit 3; }
}

# sum_field DIR KEY: the sum of a per-test numeric field of results.json.
sum_field() {
	grep '^    {"id"' "$1/results.json" | grep -o "\"$2\": [0-9.]*" | awk '{ s += $2 } END { printf "%.3f", s }'
}

# run_wall DIR: the whole run's wall seconds.
run_wall() {
	sed -n 's/^  "wall_seconds": \([0-9.]*\),$/\1/p' "$1/results.json"
}

# fingerprint DIR: what must not change between runs: every test's id,
# result, exit status and subtests (one line per test), less the host's
# cost counters, which differ in every run. Simulated seconds
# are compared apart (sim_spread).
fingerprint() {
	grep '^    {"id"' "$1/results.json" |
		sed 's/"sim_seconds": [0-9.]*, //; s/"wall_seconds": [0-9.]*, //; s/"dir": "[^"]*", //; s/"cost": {[^}]*}, //; s/,$//' |
		sort
}

# sim_spread DIR...: the largest difference, over tests, between the runs'
# simulated seconds for the same test.
sim_spread() {
	for d in "$@"; do
		grep -o '"id": "[^"]*", "attempt": [0-9]*\|"sim_seconds": [0-9.]*' "$d/results.json" | paste - -
	done | awk '{ id = $2 $4; v = $NF; if (!(id in lo) || v < lo[id]) lo[id] = v; if (!(id in hi) || v > hi[id]) hi[id] = v }
		END { m = 0; for (i in lo) if (hi[i] - lo[i] > m) m = hi[i] - lo[i]; printf "%.9f", m }'
}

# same_results DIR...: 0 when every run has the fingerprint of the first.
same_results() {
	first=$1
	shift
	fingerprint "$first" >"$work/fp.first"
	for d in "$@"; do
		fingerprint "$d" >"$work/fp.other"
		if ! cmp -s "$work/fp.first" "$work/fp.other"; then
			diff "$work/fp.first" "$work/fp.other" | head -n 6 | sed 's/^/# /'
			return 1
		fi
	done
}

# same_files DIR...: prints "N of M" files the same in every run: each
# test's artifacts/ and console.log (after its first line, the host's
# command line with the temporary folder's name).
same_files() {
	first=$1
	shift
	(cd "$first" && find . -path '*/artifacts/*' -type f -o -name console.log -type f) |
		sort >"$work/files"
	same=0 total=0
	while IFS= read -r f; do
		total=$((total + 1))
		ok=1
		for d in "$@"; do
			case $f in
			*/console.log)
				tail -n +2 "$first/$f" >"$work/a"
				tail -n +2 "$d/$f" >"$work/b" 2>/dev/null || ok=0
				cmp -s "$work/a" "$work/b" || ok=0 ;;
			*) cmp -s "$first/$f" "$d/$f" || ok=0 ;;
			esac
		done
		same=$((same + ok))
	done <"$work/files"
	echo "$same of $total"
}

# hostap_tree NAME: the hostap tree to measure: $BENCH_HOSTAP, or the
# project's snapshot (../shared/hostap) unpacked into $work.
hostap_tree() {
	if [ -n "${BENCH_HOSTAP:-}" ]; then
		echo "$BENCH_HOSTAP"
		return 0
	fi
	for t in "$top"/../shared/hostap/hostap-*.tar.xz /work/shared/hostap/hostap-*.tar.xz; do
		[ -f "$t" ] || continue
		tar -xJf "$t" -C "$work" && echo "$work/hostap"
		return
	done
	echo "$1: no hostap tree: give BENCH_HOSTAP=DIR" >&2
	return 2
}
