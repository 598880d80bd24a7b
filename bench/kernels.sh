#!/bin/sh
# kernels.sh - the kernels umlrun knows, side by side (issue 12): per kernel
# and userspace (ptrace, and seccomp where the kernel has it), in one run:
#
#   loop     one guest running 200 /bin/true and 2 `ip link` (the cost of a
#            guest process), best wall of BENCH_REPEAT tries;
#   exec     `umlrun exec true` end to end, best of BENCH_REPEAT;
#   SUITES   each suite's whole run at -j2: wall, results, and whether its
#            simulated seconds are the same as on the first kernel's run.
#
#   sh bench/kernels.sh                    # every kernel it can build
#   BENCH_KERNELS="6.1 7.2" BENCH_SUITES="timers" sh bench/kernels.sh
#
# Each kernel is built (or found in the cache) first, which costs 10 to
# 20 minutes per kernel the first time on 2 CPUs: run it by hand.
set -eu
. "$(dirname "$0")/lib.sh"

kernels=${BENCH_KERNELS:-6.1 6.12 7.2}
suites=${BENCH_SUITES:-smoke timers wireless}
repeat=${BENCH_REPEAT:-3}

echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"

# best CMD...: the smallest wall seconds of $repeat runs of CMD.
best() {
	b=
	i=0
	while [ $i -lt "$repeat" ]; do
		t0=$(now)
		"$@" >"$work/best.out" 2>&1 || { cat "$work/best.out" >&2; return 3; }
		t=$(calc "$(now) - $t0")
		if [ -z "$b" ] || [ "$(calc "$t < $b")" = 1 ]; then b=$t; fi
		i=$((i + 1))
	done
	printf '%.2f' "$b"
}

loop='i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; /usr/bin/ip link >/dev/null; /usr/bin/ip link >/dev/null'
printf '%-8s %-8s %8s %8s' kernel user loop_s exec_s
for s in $suites; do printf ' %14s' "$s"; done
echo
for k in $kernels; do
	"$umlrun" build --kernel="$k" >"$work/build.out" 2>&1 || {
		echo "# --kernel=$k does not build:"
		tail -n 3 "$work/build.out" | sed 's/^/#   /'
		continue
	}
	modes=off
	grep -q "seccomp userspace" "$work/build.out" && modes="off on"
	for m in $modes; do
		user=ptrace
		[ "$m" = on ] && user=seccomp
		o="--kernel=$k --seccomp=$m"
		l=$(best "$umlrun" exec $o -- sh -c "$loop")
		x=$(best "$umlrun" exec $o -- true)
		printf '%-8s %-8s %8s %8s' "$k" "$user" "$l" "$x"
		for s in $suites; do
			bench_run "$k-$user-$s" $o -j2 "$s"
			w=$(run_wall "$dir")
			pass=$(grep -c '"result": "pass"\|"result": "skip"' "$dir/results.json" || true)
			total=$(grep -c '^    {"id"' "$dir/results.json" || true)
			ref=$work/ref-$s
			same=
			if [ -d "$ref" ]; then
				if [ "$(sim_spread "$ref" "$dir")" = 0.000000000 ]; then same=" =sim"; else same=" ~sim"; fi
			else
				ln -s "$dir" "$ref"
			fi
			printf ' %6ss %2s/%-2s%s' "$w" "$pass" "$total" "$same"
		done
		echo
	done
done
echo "# loop: 200 /bin/true + 2 ip link in one guest, best of $repeat; exec: umlrun exec true, best of $repeat"
echo "# per suite: its wall at -j2, files passed/total; =sim: every file's simulated seconds equal"
echo "# the first kernel's (~sim: some differ)"
