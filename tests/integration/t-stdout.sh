#!/bin/sh
# t-stdout.sh - a stdout that cannot be written (/dev/full, closed):
# exit 3, saying so, the results in the run folder.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run sh -c '"$1" run $2 itest/t0001-pass.sh >/dev/full' sh "$umlrun" "$R"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write the results to stdout: No space left on device (they are in " "$work/err" &&
	grep -q '"exit_code": 3' "$results/latest/results.json"
check "result lines that cannot be written to stdout (/dev/full) exit 3, the run folder has them"
run sh -c '"$1" list $2 >/dev/full' sh "$umlrun" "--suite-dir=$suites"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write the list to stdout: No space left on device" "$work/err"
check "a list that cannot be written to stdout (/dev/full) exits 3, saying so"
run sh -c '"$1" doctor >/dev/full' sh "$umlrun"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write to stdout: No space left on device" "$work/err"
check "doctor (any command) whose output cannot be written to stdout exits 3, saying so"
run sh -c '"$1" exec -- echo hi >/dev/full' sh "$umlrun"
[ $rc -eq 3 ] && grep -q "^umlrun: warning: the command's output could not be written to stdout: No space left on device" "$work/err"
check "exec whose output cannot be written (/dev/full) exits 3, saying so"
# Closed descriptors (>&-): the first pipe or signalfd took their place once
# (the compiler's version read as empty, a new kernel build; exec hung).
run sh -c 'timeout 60 "$1" exec -- true <&- >&-' sh "$umlrun"
[ $rc -eq 0 ] && ! grep -q building "$work/err"
check "exec with stdin and stdout closed runs on the cached kernel"
run sh -c 'timeout 60 "$1" exec -- echo hi >&-' sh "$umlrun"
[ $rc -eq 3 ] && grep -q "could not be written to stdout: Bad file descriptor" "$work/err"
check "exec with stdout closed and output to write exits 3 (it hung)"

run sh -c 'timeout 60 "$1" run $2 itest/t0001-pass.sh >&-' sh "$umlrun" "$R"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write the results to stdout: Bad file descriptor" "$work/err" &&
	[ "$(head -n 1 "$results/latest/ktap.txt")" = "KTAP version 1" ] &&
	[ "$(grep -c "^KTAP version 1" "$results/latest/ktap.txt")" -eq 1 ]
check "run with stdout closed exits 3; ktap.txt holds the run once (the results went into it)"

tap_done
