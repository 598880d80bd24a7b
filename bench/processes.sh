#!/bin/sh
# processes.sh - what each test file costs, guest and host side (issue 12
# part 2), from the "cost" umlrun records per test in results.json
# (docs/results.md):
#
#   forks    processes the guest kernel created (/proc/stat)
#   gfault   page faults in the guest (/proc/vmstat)
#   usr sys  host CPU seconds of the linux process and its host processes
#   csw      host context switches
#   ms/fork  host CPU (user + system) per guest process: what a fork, an
#            exec and the process's page faults cost through UML
#
# One guest at a time (-j1), so the host figures are the file's own.
#
#   sh bench/processes.sh                          # every suite, default kernel
#   BENCH_KERNELS="6.1 7.2" sh bench/processes.sh wireless
set -eu
. "$(dirname "$0")/lib.sh"

kernels=${BENCH_KERNELS:-}
[ $# -gt 0 ] || set -- smoke timers wireless

echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"

# field LINE KEY: a number of one test's line of results.json.
field() {
	printf '%s\n' "$1" | grep -o "\"$2\": [0-9.e+-]*" | head -n 1 | sed 's/.*: //'
}

report() {
	printf '%-34s %9s %7s %6s %7s %6s %6s %8s %8s\n' file sim_s wall_s forks gfault usr_s sys_s csw ms/fork
	grep '^    {"id"' "$1/results.json" | while IFS= read -r l; do
		id=$(printf '%s\n' "$l" | sed 's/^    {"id": "\([^"]*\)".*/\1/')
		forks=$(field "$l" guest_forks)
		usr=$(field "$l" host_user_seconds)
		sys=$(field "$l" host_system_seconds)
		per=-
		[ "${forks:-0}" -gt 0 ] && per=$(printf '%.1f' "$(calc "($usr + $sys) * 1000 / $forks")")
		printf '%-34s %9.3f %7.2f %6s %7s %6.2f %6.2f %8s %8s\n' "$id" \
			"$(field "$l" sim_seconds)" "$(field "$l" wall_seconds)" "${forks:--}" \
			"$(field "$l" guest_page_faults)" "$usr" "$sys" \
			"$(field "$l" host_context_switches)" "$per"
	done
	grep -o '"guest_forks": [0-9]*\|"host_user_seconds": [0-9.]*\|"host_system_seconds": [0-9.]*' \
		"$1/results.json" | awk -F': ' '
		/forks/ { f += $2 } /user/ { u += $2 } /system/ { s += $2 }
		END { printf "# total: %d guest processes, host %.2f s user + %.2f s system", f, u, s
		      if (f) printf ", %.1f ms per guest process", (u + s) * 1000 / f
		      print "" }'
}

for k in ${kernels:-default}; do
	opt=
	[ "$k" = default ] || opt=--kernel=$k
	echo "## kernel: $k"
	bench_run "proc-$k" -j1 $opt "$@"
	[ "$rc" = 0 ] || echo "# the run exited $rc: $(tail -n 1 "$work/proc-$k.out")"
	report "$dir"
done
