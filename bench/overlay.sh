#!/bin/sh
# overlay.sh - what --overlay costs a run: the first run lays the overlay
# (rootfs/overlay.sh checks and copies it file by file, with the host
# libraries its programs need), later runs take the laid root from the
# overlay cache (docs/guest.md). FILES (default 2315, the python3 tree of
# issue 29) small files and one program in a fresh overlay; `exec true`
# three times.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
umlrun=$top/build/umlrun
files=${1:-2315}
work=$(mktemp -d /tmp/umlrun-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

now() { date +%s.%N; }

mkdir -p "$work/ov/usr/local/lib/bench" "$work/ov/usr/local/bin"
i=0
while [ $i -lt "$files" ]; do
	d=$work/ov/usr/local/lib/bench/d$((i / 100))
	[ -d "$d" ] || mkdir "$d"
	echo "$i" >"$d/f$i.py"
	i=$((i + 1))
done
cp /bin/true "$work/ov/usr/local/bin/bench-true"

"$umlrun" build >/dev/null
echo "# umlrun overlay benchmark, $files files, $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
for run in "1 (lays it)" "2 (cached)" "3 (cached)"; do
	t0=$(now)
	"$umlrun" exec --overlay="$work/ov" -- bench-true 2>/dev/null
	t1=$(now)
	printf 'exec --overlay, run %s: %.3f s wall\n' "$run" "$(echo "$t1 - $t0" | bc -l)"
done
t0=$(now)
"$umlrun" exec -- true
t1=$(now)
printf 'exec without an overlay: %.3f s wall\n' "$(echo "$t1 - $t0" | bc -l)"
