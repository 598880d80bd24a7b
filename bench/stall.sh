#!/bin/sh
# stall.sh - the stall breakers (issue 28, docs/timers.md "When the guest
# spins"): a loop of each kind that waits for time by spinning, how long
# it takes in wall time to wait 5 simulated seconds, and whether the
# suites that passed before kept their simulated seconds.
#
#   sh bench/stall.sh            the loops, the stall suite 3 times, the
#                                timers and wireless suites twice (-j2)
#   KUNIT=1 sh bench/stall.sh    also `umlrun kunit` with the tree's
#                                default kunitconfig (a large build)
set -eu
. "$(dirname "$0")/lib.sh"

"$umlrun" build >/dev/null
echo "# stall breaker benchmark, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"

# One boot per kind: simulated seconds the loop saw, wall seconds of the boot.
for kind in clock mutex yield poll select epoll futex nanosleep getppid waitpid user; do
	t0=$(now)
	krc=0
	"$umlrun" exec --wall-timeout=90 -- spinwait "$kind" 5 >"$work/$kind.out" 2>&1 || krc=$?
	wall=$(calc "$(now) - $t0")
	ns=$(sed -n 's/^elapsed_ns=//p' "$work/$kind.out")
	printf '%-10s exit %d, %s simulated s waited, %.2f wall s (boot included)\n' "$kind" "$krc" \
		"$(calc "${ns:-0} / 1000000000")" "$wall"
done

# Under ptrace each call costs several times its seccomp wall time: the
# 200,000 calls may outlast the wall-clock window, whose check counts a
# flow of them as progress. wall_breaks must stay 0.
t0=$(now)
krc=0
"$umlrun" exec --seccomp=off --wall-timeout=200 -- sh -c \
	'spinwait select 5 && cat /sys/module/kernel/parameters/uml_stall_wall_breaks' >"$work/ptrace.out" 2>&1 || krc=$?
ns=$(sed -n 's/^elapsed_ns=//p' "$work/ptrace.out")
printf 'select, ptrace: exit %d, %s simulated s waited, wall_breaks %s, %.2f wall s (boot included)\n' "$krc" \
	"$(calc "${ns:-0} / 1000000000")" "$(tail -n 1 "$work/ptrace.out")" "$(calc "$(now) - $t0")"

# A pure user-space spin that waits for another process's `sleep 1`, at
# the default 20 s window: one window, then 1 ms ticks (the shell's fork
# and exec of sleep end the first episode; the windows after it are
# 100 ms until the guest idles: 100 s before that).
t0=$(now)
krc=0
"$umlrun" exec --wall-timeout=200 -- sh -c \
	'(while :; do :; done) & sleep 1; kill $!; cat /sys/module/kernel/parameters/uml_stall_wall_breaks' \
	>"$work/beside.out" 2>&1 || krc=$?
printf 'spin beside sleep 1, 20 s window: exit %d, wall_breaks %s, %.2f wall s (boot included)\n' "$krc" \
	"$(tail -n 1 "$work/beside.out")" "$(calc "$(now) - $t0")"

bench_run stall --repeat=3 --check-determinism stall/t0001-kernel-entry.sh stall/t0003-threads.sh \
	stall/t0004-wall-window.sh stall/t0005-busy.sh stall/t0006-poll-between-work.sh
printf 'stall/t0001, t0003, t0004, t0005 and t0006 x3 --check-determinism: exit %d, %s simulated s, %s wall s\n' "$rc" \
	"$(sum_field "$dir" sim_seconds)" "$(run_wall "$dir")"

bench_run suites -j2 --repeat=2 --check-determinism timers wireless
for s in timers wireless; do
	printf '%s: %s simulated s per run\n' "$s" \
		"$(grep '^    {"id": "'"$s"'/' "$dir/results.json" | grep -o '"sim_seconds": [0-9.]*' |
			awk '{ s += $2 } END { printf "%.3f", s / 2 }')"
done
printf 'timers + wireless x2 --check-determinism -j2: exit %d, %s wall s\n' "$rc" "$(run_wall "$dir")"

if [ "${KUNIT:-0}" = 1 ]; then
	t0=$(now)
	krc=0
	"$umlrun" kunit -q --results="$work/kunit" >"$work/kunit.out" 2>&1 || krc=$?
	printf 'umlrun kunit (default kunitconfig, inf-cpu): exit %d, %.1f wall s (build included)\n' \
		"$krc" "$(calc "$(now) - $t0")"
	grep '^# [0-9]*/[0-9]* KUnit suites' "$work/kunit.out" || tail -n 3 "$work/kunit.out"
	grep -c 'stall_breaker' "$work/kunit/latest/results.json" |
		sed 's/^/suites the wall-clock breaker touched: /'
fi
