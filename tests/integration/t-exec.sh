#!/bin/sh
# t-exec.sh - umlrun exec: its output, its status, the guest's seccomp filter.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# linux runs under umlrun's seccomp filter (the host calls a test's own
# kernel module could make: keyrings, connect, vsock; tests/unit/test_hostcalls.c).
"$umlrun" exec --time-travel=off -- sleep 3 >/dev/null 2>&1 &
u=$!
sleep 1.5
filtered=no
for p in $(pgrep -P "$u") $(for c in $(pgrep -P "$u"); do pgrep -P "$c"; done); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = linux ] &&
		grep -q '^Seccomp_filters:[[:space:]]*[1-9]' "/proc/$p/status" && filtered=yes
done
wait "$u"
[ $filtered = yes ]
check "the guest's linux process runs under a seccomp filter"
run "$umlrun" exec -- sh -c 'echo out; echo err >&2; exit 7'
[ $rc -eq 7 ] && [ "$(cat "$work/out")" = out ] && grep -q '^err$' "$work/err"
check "exec streams stdout and stderr and exits with the command's status"
run "$umlrun" exec -- sh -c 'touch /suite/x'
[ $rc -eq 1 ] && grep -q "Read-only file system" "$work/err"
check "the suites are read-only in the guest"
run "$umlrun" exec -- /no/such/program
[ $rc -eq 127 ]
check "exec of a missing program exits 127"

tap_done
