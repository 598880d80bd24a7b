#!/bin/sh
# t-signals.sh - signals to umlrun (TERM, USR1, PIPE, HUP, TSTP, KILL): the
# run ends as it should, results written, nothing left behind.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# wait_for_header: until the test's header line is out (at most 30 s).
wait_for_header() {
	i=0
	while ! grep -q "^# itest/t0006-clock.sh" "$work/out" 2>/dev/null; do
		[ $i -ge 300 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
"$umlrun" run $R --time-travel=off itest/t0006-clock.sh >"$work/out" 2>"$work/err" &
pid=$!
wait_for_header && sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ]
check "SIGTERM ends umlrun with 128+15"
nothing_left
check "SIGTERM leaves no process, umid or staging folder behind"
grep -q '"result": "interrupted"' "$results/latest/results.json"
check "SIGTERM still writes results.json with the interrupted test"
"$umlrun" run $R --time-travel=off itest/t0006-clock.sh >"$work/out" 2>"$work/err" &
pid=$!
wait_for_header && sleep 1
kill -USR1 $pid
wait $pid
rc=$?
[ $rc -eq 138 ] && grep -q '"result": "interrupted"' "$results/latest/results.json" &&
	grep -q '"exit_code": 138' "$results/latest/results.json" && nothing_left
check "SIGUSR1 (any signal that would end umlrun) ends the run as SIGTERM does, results.json written"
# A reader that goes away (| head): SIGPIPE ends the run like SIGTERM.
rc=$( { "$umlrun" run $R --time-travel=off itest/t0007-short-sleep.sh 2>"$work/err"; echo $? >"$work/rc"; } | head -n 1 >/dev/null; cat "$work/rc")
[ "$rc" -eq 141 ] && grep -q '"exit_code": 141' "$results/latest/results.json" && nothing_left
check "a closed stdout (| head) ends umlrun with 128+13, results.json written, nothing left"

# A reader that stops reading (a pager left open): the wall-clock limit
# still ends the test, the reports are written, and SIGTERM still ends
# umlrun while the reader holds the rest of the output.
mkdir -p "$work/flood/fl"
printf '#!/bin/sh\necho "KTAP version 1"\necho "1..1"\nyes "# a flood of diagnostics"\n' >"$work/flood/fl/t0001-flood.sh"
chmod +x "$work/flood/fl/t0001-flood.sh"
rm -f "$work/flood.rc"
( "$umlrun" run -v --results="$work/floodres" --suite-dir="$work/flood" --wall-timeout=4 fl 2>/dev/null
	echo $? >"$work/flood.rc" ) | sleep 60 &
reader=$!
i=0
while [ ! -f "$work/floodres/latest/results.json" ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
pkill -TERM -f -- "--results=$work/floodres"
i=0
while [ ! -f "$work/flood.rc" ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
kill "$reader" 2>/dev/null # the pipeline's last process: the reader
[ "$(cat "$work/flood.rc" 2>/dev/null)" = 143 ] &&
	grep -q '"result": "timeout"' "$work/floodres/latest/results.json" && nothing_left
check "a reader that stops reading stdout: the wall-clock limit holds, reports are written, SIGTERM ends umlrun (143)"
nohup "$umlrun" exec --time-travel=off -- sleep 3 >"$work/nohup.out" 2>&1 &
p=$!
sleep 1.5
kill -HUP $p
wait $p
rc=$?
[ $rc -eq 0 ] && nothing_left
check "nohup: the SIGHUP its parent set to be ignored stays ignored (the command runs to its end)"
# ^Z: the guest stops with umlrun, and the wall-clock limit waits (it fired
# while stopped). Under bash's job control, as from a terminal: umlrun's
# group is not orphaned, so a SIGTSTP stops it (elsewhere it is dropped).
tstp_state=$(bash -c 'set -m
	"$1" exec --time-travel=off --wall-timeout=4 -- sleep 2 >"$2/out" 2>"$2/err" &
	p=$!
	sleep 1
	kill -TSTP $p
	sleep 5
	echo "$(ps -o stat= -p $p) $(for l in $(pgrep -f "$3/umlrun\..*/linux"); do ps -o stat= -p "$l"; done)"
	kill -CONT $p
	rc=147
	# bash reports the stop first (128+SIGSTOP), then the end.
	while [ $rc -eq 147 ]; do wait $p; rc=$?; done
	echo "rc=$rc"' tstp "$umlrun" "$work" "$TMPDIR" 2>/dev/null)
rc=$(echo "$tstp_state" | sed -n 's/^rc=//p')
[ "$rc" = 0 ] && case $tstp_state in T*" T"*) true ;; *) false ;; esac && nothing_left
check "^Z (SIGTSTP) stops the guest with umlrun and pauses its wall-clock limit: fg, and it ends as it would have ($(echo $tstp_state))"

# ---- SIGKILL to umlrun: nothing can clean up at once, so the kernel and
# the next umlrun do ----
"$umlrun" run $R --time-travel=off itest/t0006-clock.sh >"$work/out" 2>"$work/err" &
pid=$!
wait_for_header && sleep 1
kill -KILL $pid
wait $pid
i=0
while pgrep -f "$TMPDIR/umlrun" >/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ "$(id -u)" -eq 0 ]; then
	! pgrep -f "$TMPDIR/umlrun" >/dev/null
	check "SIGKILL to umlrun leaves no guest process (PID namespace, parent-death signal)"
fi
run "$umlrun" exec -- true
nothing_left
check "the next umlrun removes the staging folder a SIGKILLed one left"
leftover="$(readlink -f "$results/latest")/results.json.tmp-999999999.ns$(stat -L -c %i /proc/self/ns/pid)"
: >"$leftover"
run "$umlrun" run $R itest/t0001-pass.sh
[ $rc -eq 0 ] && [ ! -e "$leftover" ]
check "the next run removes a report a killed run left half written in its folder"
# Without a PID namespace (not root) UML's helpers outlived a SIGKILLed
# umlrun: the next one kills what still runs a stage's linux whose umlrun
# is gone (here a stand-in, a copy of sleep, and an owner that is gone).
mkdir -p "$TMPDIR/umlrun.Orphan"
cp "$(command -v sleep)" "$TMPDIR/umlrun.Orphan/linux"
echo 999999999 >"$TMPDIR/umlrun.Orphan/owner"
"$TMPDIR/umlrun.Orphan/linux" 300 &
orphan=$!
sleep 0.3
run "$umlrun" exec -- true
i=0
while [ -d "/proc/$orphan" ] && [ "$(cut -d' ' -f3 "/proc/$orphan/stat" 2>/dev/null)" != Z ] &&
	[ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill $orphan 2>/dev/null # if the sweep missed it: the check fails, nothing is left
wait $orphan
[ $? -eq 137 ] && [ ! -e "$TMPDIR/umlrun.Orphan" ]
check "the next umlrun kills a process still running a stage's linux whose umlrun is gone"

tap_done
