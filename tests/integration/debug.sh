#!/bin/sh
# Integration tests of the debugging options (docs/debugging.md): tracing
# from boot, kernel reports, --profile and --kprobe-event refusals, gdb.
#
# Prints TAP; exits 1 if any check failed. Boots the default kernel (built
# or found in the cache); builds no profile kernel (make profiles-check
# does, tests/profiles/check.sh).
. "$(dirname "$0")/lib.sh"
itest_build

# ---- bad input: one line, exit 2 ----
run "$umlrun" run $R --profile=tsan itrace
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "unknown profile; umlrun knows hardened, kasan, lockdep, gcov" "$work/err"
check "an unknown --profile exits 2 with one line naming the profiles"
run "$umlrun" exec --kprobe-event='p:myprobe do_nanosleep' -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "HAVE_KPROBES" "$work/err"
check "--kprobe-event on a UML kernel exits 2 with one line saying why"
run "$umlrun" run $R --trace-event='timer:hrtimer start' itrace
[ $rc -eq 2 ] && grep -q "SYSTEM:EVENT" "$work/err"
check "a malformed --trace-event exits 2"
mkdir -p "$work/nogdb" && ln -sf "$(command -v env)" "$work/nogdb/env"
run env PATH="$work/nogdb" "$umlrun" exec --gdb=/dev/null -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "apt-get install gdb" "$work/err"
check "--gdb without gdb installed exits 2 with the apt-get line"
run "$umlrun" exec --gdb -- true </dev/null
[ $rc -eq 2 ] && grep -q "not a terminal" "$work/err"
check "--gdb without a terminal or a script exits 2"
run env PATH="$work/nogdb" "$umlrun" exec --gdb-guest=/dev/null -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "apt-get install gdb" "$work/err"
check "--gdb-guest without gdb installed exits 2 with the apt-get line"
run "$umlrun" exec --gdb-guest -- true </dev/null
[ $rc -eq 2 ] && grep -q "not a terminal" "$work/err"
check "--gdb-guest without a terminal or a script exits 2"
run "$umlrun" exec --gdb=/dev/null --gdb-guest=/dev/null -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "give one" "$work/err"
check "--gdb with --gdb-guest exits 2 with one line"
if "$umlrun" build 2>/dev/null | grep -q "seccomp userspace"; then
	run "$umlrun" exec --seccomp=on --gdb-guest=/dev/null -- true
	[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "ptrace userspace" "$work/err"
	check "--gdb-guest with --seccomp=on exits 2 with one line (gdbserver needs ptrace)"
fi

# ---- a kernel report fails the test ----
run "$umlrun" run $R itrace/t0002-report.sh
[ $rc -eq 1 ] &&
	grep -q '"reason": "ERROR kernel report: BUG: KASAN: slab-out-of-bounds in fake_function' \
		"$results/latest/results.json"
check "a KASAN report on the console fails a test that passed, with its first line"
run "$umlrun" exec -- sh -c 'echo "WARNING: possible circular locking dependency detected" >/dev/kmsg'
[ $rc -eq 1 ] && grep -q "kernel report: WARNING: possible circular" "$work/err"
check "exec: a lockdep report makes a command that exited 0 exit 1"

# ---- tracing from boot: every hrtimer start and expiry, in simulated ns ----
run "$umlrun" run $R --trace-event=timer:hrtimer_start,timer:hrtimer_expire_entry \
	itrace/t0001-sleep.sh
trace=$results/latest/itrace/t0001-sleep/artifacts/trace.txt
[ $rc -eq 0 ] && [ -s "$trace" ]
check "run --trace-event saves the trace as artifacts/trace.txt"
grep -q "trace_clock=mono trace_event=timer:hrtimer_start,timer:hrtimer_expire_entry" \
	"$results/latest/itrace/t0001-sleep/cmdline.txt"
check "the kernel is booted with trace_event= and the monotonic trace clock"
grep -q 'href="itrace/t0001-sleep/artifacts/trace.txt"' "$results/latest/report.html"
check "report.html links the trace"
# The sleep's timer: armed for an hour (plus 50 us of slack), run by the
# timer interrupt between its soft and hard expiry, and the line's
# timestamp is the expiry's simulated time.
awk '
# The number of a NAME=VALUE field; ptr: the hrtimer= field, as text.
function field(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2) + 0
}
function ptr(   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, "hrtimer=") == 1)
			return $i
}
/hrtimer_start:.*function=hrtimer_wakeup/ {
	e[ptr()] = field("expires"); s[ptr()] = field("softexpires")
}
/hrtimer_expire_entry:.*function=hrtimer_wakeup/ && field("now") >= 3600e9 {
	t = ptr(); now = field("now")
	ts = $0; sub(/: hrtimer_expire_entry.*/, "", ts); sub(/.* /, "", ts)
	found = 1
	# Trace lines show microseconds, rounded (ns2usecs).
	exit !(s[t] >= 3600e9 && now >= s[t] && now <= e[t] + 1024 &&
		ts == sprintf("%.6f", int((now + 500) / 1000) / 1e6))
}
END { if (!found) exit 1 }' "$trace"
check "the hour-long sleep's hrtimer starts, and expires at its simulated nanosecond" \
	"$(grep hrtimer_wakeup "$trace" | tail -n 3)"
cp "$trace" "$work/trace1"
run "$umlrun" run $R --trace-event=timer:hrtimer_start,timer:hrtimer_expire_entry \
	itrace/t0001-sleep.sh
cmp -s "$work/trace1" "$trace"
check "the same run traced twice gives the same trace, byte for byte"
run "$umlrun" exec --trace-event='timer:*' --timeout=100 -- sleep 10
[ $rc -eq 0 ] && grep -q "trace: trace.txt" "$work/err"
check "exec --trace-event leaves trace.txt in the current folder"
rm -f trace.txt
# The guest is root inside: what it leaves at /results/trace.txt is not
# followed or waited on, by the init or by umlrun (a fifo there blocked the
# init's copy; a link to a host file, under mount-ns alone, had umlrun copy
# that file: umlrun now opens it with O_NOFOLLOW, O_NONBLOCK).
# Landlock refuses a fifo in /results: mount-ns alone (root) lets it be.
if [ "$(id -u)" -eq 0 ]; then
	run env UMLRUN_CONFINE=mount-ns timeout 60 "$umlrun" exec --trace-event='timer:*' -- \
		sh -c 'rm -f /results/trace.txt; mkfifo /results/trace.txt'
	[ $rc -eq 0 ] && grep -q "trace: trace.txt" "$work/err" && [ -f trace.txt ] && [ ! -p trace.txt ]
	check "exec --trace-event: a fifo the guest put at /results/trace.txt blocks nothing"
	rm -f trace.txt
fi
run "$umlrun" exec --timeout=100000 --trace-event=timer:hrtimer_expire_entry -- sleep 86400
[ $rc -eq 0 ] && grep -q "^umlrun: warning: --trace-event: the buffer kept the newest [0-9]* of [0-9]* events" "$work/err" &&
	grep -q "^# entries-in-buffer/entries-written: " trace.txt
check "a trace whose buffer overwrote its oldest events says so"
rm -f trace.txt
run "$umlrun" run $R --trace-event=timer:nosuch itrace/t0001-sleep.sh
[ $rc -eq 1 ] && grep -q '"reason": "ERROR kernel report: Failed to enable trace event: timer:nosuch' \
	"$results/latest/results.json"
check "an event the kernel does not have fails the test with the kernel's line"

# ---- gdb: stopped before init, simulated time still while stopped ----
cat >"$work/cmds.gdb" <<'EOF'
print time_travel_time
shell sleep 1
print time_travel_time
break hrtimer_wakeup if time_travel_time > 100000000000
continue
print time_travel_time
delete
continue
EOF
run "$umlrun" exec --timeout=300 --gdb="$work/cmds.gdb" -- sh -c 'sleep 100; cat /proc/uptime'
[ $rc -eq 0 ] && grep -q "^Temporary breakpoint 1, kernel_init" "$work/err"
check "exec --gdb=FILE runs the kernel under gdb, stopped at kernel_init"
[ "$(grep -c '^\$[12] = 0$' "$work/err")" -eq 2 ]
check "the simulated clock stands still while gdb holds the kernel"
grep -q "hit Breakpoint 2, hrtimer_wakeup" "$work/err" && grep -q '^100.00 ' "$work/out"
check "a breakpoint in an hrtimer callback; the guest's clock as without gdb"


# ---- gdb on a guest program: gdbserver in the guest, a serial line ----
cat >"$work/guest.gdb" <<'EOF2'
break main
continue
info registers rip
continue
EOF2
run "$umlrun" exec --gdb-guest="$work/guest.gdb" -- timerprobe now
[ $rc -eq 0 ] && grep -q "^Breakpoint 1, 0x[0-9a-f]* in main ()" "$work/err" &&
	grep -q "^rip  *0x[0-9a-f]*  *0x[0-9a-f]* <main>" "$work/err" &&
	# gdb's line and the guest's stderr (gdbserver) may come in one another
	grep -q "(process [0-9]*) exited normally\]" "$work/err" &&
	grep -q "^monotonic_ns=" "$work/out" && nothing_left
check "exec --gdb-guest=FILE: gdb breaks in a guest program's main, the program runs to its end"
printf 'continue
' >"$work/cont.gdb"
run "$umlrun" exec --gdb-guest="$work/cont.gdb" -- sh -c 'echo hi; exit 3'
[ $rc -eq 3 ] && grep -q "^hi$" "$work/out" && nothing_left
check "exec --gdb-guest exits with the program's status, not gdbserver's"
grep -q "^Child exited with status 3" "$work/err" && ! grep -q "Error detected on fd" "$work/err"
check "exec --gdb-guest: the line's hangup that ends the session prints no gdbserver error"
# gdb itself is confined (Landlock): a path a guest names cannot reach the
# host's other files; its shell command, its child, cannot either.
printf 'shell cat /etc/hostname || echo gdb-denied\ncontinue\n' >"$work/deny.gdb"
if "$umlrun" doctor 2>/dev/null | grep -q "^ok   Landlock ABI"; then
	run "$umlrun" exec --gdb-guest="$work/deny.gdb" -- timerprobe now
	[ $rc -eq 0 ] && cat "$work/out" "$work/err" | grep -q "^gdb-denied" && nothing_left
	check "exec --gdb-guest: gdb may not read the host's other files (Landlock)"
fi
# The program's source lines, from a folder gdb is given (and may read).
mkdir -p "$work/gsrc" "$work/gov/usr/local/bin"
cat >"$work/gsrc/hello.c" <<'EOF2'
#include <stdio.h>
int main(void)
{
	puts("hello from the guest"); /* umlrun-source-line */
	return 0;
}
EOF2
if (cd "$work/gsrc" && cc -g -O0 -static -o "$work/gov/usr/local/bin/hello" hello.c); then
	printf 'break main\ncontinue\nlist hello.c:4,4\ncontinue\n' >"$work/src.gdb"
	run "$umlrun" exec --overlay="$work/gov" --gdb-guest="$work/src.gdb" \
		--gdb-guest-source="$work/gsrc" -- /usr/local/bin/hello
	[ $rc -eq 0 ] && grep -q "umlrun-source-line" "$work/err" &&
		grep -q "^hello from the guest" "$work/out" && nothing_left
	check "exec --gdb-guest-source=DIR: gdb shows the program's source lines"
	if "$umlrun" doctor 2>/dev/null | grep -q "^ok   Landlock ABI"; then
		run "$umlrun" exec --overlay="$work/gov" --gdb-guest="$work/src.gdb" -- /usr/local/bin/hello
		[ $rc -eq 0 ] && ! grep -q "umlrun-source-line" "$work/err" && nothing_left
		check "exec --gdb-guest without --gdb-guest-source: gdb may not read the sources"
	fi
fi
run "$umlrun" exec --gdb-guest-source="$work/gsrc" -- true
[ $rc -eq 2 ] && grep -q "give --gdb-guest too" "$work/err"
check "--gdb-guest-source without --gdb-guest exits 2 with one line"
run "$umlrun" exec --gdb-guest="$work/cont.gdb" -- true
[ $rc -eq 0 ] && nothing_left
check "exec --gdb-guest of a program that exits while gdbserver starts it exits 0 (it read 137)"
# A dynamic program: gdbserver names its libraries, the vDSO among them by
# a relative name, and the relay lets the list through.
run "$umlrun" exec --gdb-guest="$work/cont.gdb" -- /usr/sbin/iw --version
[ $rc -eq 0 ] && grep -q "^iw version" "$work/out" && ! grep -q "refused" "$work/err" && nothing_left
check "exec --gdb-guest of a dynamic program runs to its end through the relay"
# A guest program that takes gdbserver's place on the line and asks gdb for
# a host file (a File-I/O request): the relay ends the line instead.
run "$umlrun" exec --gdb-guest="$work/cont.gdb" -- sh -c '( trap "" HUP; sleep 1
	kill -9 $(pidof gdbserver); exec 3<>/dev/ttyS3; printf "\$Fisatty,1#41" >&3
	timeout 2 cat <&3 | od -c; sleep 1 ) & sleep 5'
grep -q "^umlrun: --gdb-guest: the guest asked gdb for the host.s files (a File-I/O request, or a path out of the staged root); refused" "$work/err" &&
	! grep -q "F" "$work/out" && nothing_left
check "exec --gdb-guest: a guest program that asks gdb for host files (File-I/O) is cut off"
run "$umlrun" exec --gdb-guest="$work/cont.gdb" -- /no/such/program
[ $rc -eq 127 ] && nothing_left
check "exec --gdb-guest of a program that does not exist exits 127, nothing left behind"

tap_done
