#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh FUZZDIR SECONDS HARNESS... - run each libFuzzer harness for SECONDS.
#
# Harness FUZZDIR/fuzz_NAME starts from the seeds in tests/fuzz/corpus/NAME
# and writes what it finds to FUZZDIR/corpus/NAME, the first corpus folder
# given (libFuzzer adds to that one only): the checked-in seeds stay as they
# are. Crash inputs go to FUZZDIR/crashes/NAME-*. libFuzzer's chatter goes to
# FUZZDIR/NAME.log; each harness prints one line, its name and its "Done N
# runs" line, or the end of its log when it found something. Exits 1 when a
# harness failed. FUZZ_SEED=N fixes libFuzzer's seed (make check's short run
# is then the same exploration every time, so it fails only on a change).
set -eu

[ $# -ge 3 ] || { echo "usage: run.sh FUZZDIR SECONDS HARNESS..." >&2; exit 2; }
dir=$1 seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/crashes"
failed=0
for bin; do
	name=${bin##*/fuzz_}
	log=$dir/$name.log
	mkdir -p "$dir/corpus/$name"
	status=0
	# FUZZ_SEED: the same mutations in the same order on every run (make check).
	"$bin" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} -max_total_time="$seconds" -timeout=10 \
		-artifact_prefix="$dir/crashes/$name-" \
		"$dir/corpus/$name" "$here/corpus/$name" >"$log" 2>&1 || status=$?
	if [ "$status" -eq 0 ] && done_line=$(grep '^Done [0-9]* runs' "$log"); then
		echo "fuzz_$name: $done_line"
	else
		failed=1
		echo "fuzz_$name: found a problem (exit status $status); the end of $log:"
		tail -n 40 "$log" | sed 's/^/    /'
	fi
done
exit "$failed"
