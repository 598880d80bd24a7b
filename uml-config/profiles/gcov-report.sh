#!/bin/sh
# The kernel coverage of a run (--profile=gcov) as HTML, with Debian's lcov.
#
#   sh gcov-report.sh GCNO_DIR RUN_DIR
#
# GCNO_DIR is kernels/KEY/gcov: the build's .gcno files, by their path below
# the build folder. The linux process of each test of RUN_DIR wrote its
# .gcda files when it exited, under artifacts/gcov/ (GCOV_PREFIX) by their
# absolute path in the build folder. The tests' counters are added up with
# gcc's gcov-tool (merge, two folders at a time), and the sum is captured
# once with lcov into RUN_DIR/coverage/kernel.info, then turned into HTML
# in RUN_DIR/coverage/. (A capture per test, added up by lcov, took about
# 25 minutes and 1.5 GB of memory for the wireless suite's 34 tests.)
set -eu

gcno=$1
run=$2
if ! command -v lcov >/dev/null || ! command -v genhtml >/dev/null; then
	echo "gcov-report: lcov is not installed; install it with 'apt-get install lcov'" >&2
	exit 1
fi
if ! command -v gcov-tool >/dev/null; then
	echo "gcov-report: gcov-tool (gcc's) is not installed; install it with 'apt-get install gcc'" >&2
	exit 1
fi
[ -d "$gcno" ] || { echo "gcov-report: no .gcno files in $gcno" >&2; exit 1; }
out=$run/coverage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
# copy_gcda FROM TO: the .gcda files below FROM, by their paths, into TO.
copy_gcda() {
	(cd "$1" && find . -name '*.gcda' -print0 | tar --null -T - -cf -) | tar -C "$2" -xf -
}

n=0
for art in "$run"/*/artifacts/gcov "$run"/*/*/artifacts/gcov; do
	[ -d "$art" ] || continue
	# The build folder's path in the guest: the folder above the first .gcda
	# whose path, taken from there, names a .gcno of GCNO_DIR.
	first=$(find "$art" -name '*.gcda' | head -n 1)
	[ -n "$first" ] || continue
	rel=${first#"$art"/}
	base=
	while [ -n "$rel" ]; do
		if [ -f "$gcno/${rel%.gcda}.gcno" ]; then
			base=${first%/"$rel"}
			break
		fi
		case $rel in */*) rel=${rel#*/} ;; *) rel= ;; esac
	done
	[ -n "$base" ] || { echo "gcov-report: $art matches no .gcno of $gcno" >&2; continue; }
	n=$((n + 1))
	if [ "$n" = 1 ]; then
		mkdir "$work/sum"
		copy_gcda "$base" "$work/sum"
	else
		gcov-tool merge -o "$work/next" "$work/sum" "$base" >"$work/merge.log" 2>&1 ||
			{ tail -n 5 "$work/merge.log" >&2; exit 1; }
		rm -rf "$work/sum"
		mv "$work/next" "$work/sum"
	fi
done
[ "$n" -gt 0 ] || { echo "gcov-report: no test saved coverage in $run" >&2; exit 1; }
cp -a "$gcno" "$work/tree"
copy_gcda "$work/sum" "$work/tree"
lcov --quiet --capture --directory "$work/tree" --output-file "$out/kernel.info" \
	--test-name "umlrun" >"$work/lcov.log" 2>&1 ||
	{ tail -n 5 "$work/lcov.log" >&2; exit 1; }
genhtml --quiet --output-directory "$out" --title "umlrun kernel coverage" \
	"$out/kernel.info" >"$work/genhtml.log" 2>&1 ||
	{ tail -n 5 "$work/genhtml.log" >&2; exit 1; }
