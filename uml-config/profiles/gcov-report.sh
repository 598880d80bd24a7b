#!/bin/sh
# The kernel coverage of a run (--profile=gcov) as HTML, with Debian's lcov.
#
#   sh gcov-report.sh GCNO_DIR RUN_DIR
#
# GCNO_DIR is kernels/KEY/gcov: the build's .gcno files, by their path below
# the build folder. The linux process of each test of RUN_DIR wrote its
# .gcda files when it exited, under artifacts/gcov/ (GCOV_PREFIX) by their
# absolute path in the build folder. Per test: the .gcno tree and its .gcda
# files in one folder, captured with lcov; then every test's capture added
# up into RUN_DIR/coverage/kernel.info and turned into RUN_DIR/coverage/.
set -eu

gcno=$1
run=$2
if ! command -v lcov >/dev/null || ! command -v genhtml >/dev/null; then
	echo "gcov-report: lcov is not installed; install it with 'apt-get install lcov'" >&2
	exit 1
fi
[ -d "$gcno" ] || { echo "gcov-report: no .gcno files in $gcno" >&2; exit 1; }
out=$run/coverage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
infos=
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
	rm -rf "$work/tree"
	cp -a "$gcno" "$work/tree"
	(cd "$base" && find . -name '*.gcda' -print0 | tar --null -T - -cf -) | tar -C "$work/tree" -xf -
	lcov --quiet --capture --directory "$work/tree" --output-file "$work/$n.info" \
		--test-name "t$n" >"$work/lcov.log" 2>&1 ||
		{ tail -n 5 "$work/lcov.log" >&2; exit 1; }
	infos="$infos -a $work/$n.info"
done
[ "$n" -gt 0 ] || { echo "gcov-report: no test saved coverage in $run" >&2; exit 1; }
# shellcheck disable=SC2086 # one -a per capture
lcov --quiet $infos --output-file "$out/kernel.info" >"$work/lcov.log" 2>&1 ||
	{ tail -n 5 "$work/lcov.log" >&2; exit 1; }
genhtml --quiet --output-directory "$out" --title "umlrun kernel coverage" \
	"$out/kernel.info" >"$work/genhtml.log" 2>&1 ||
	{ tail -n 5 "$work/genhtml.log" >&2; exit 1; }
