#!/bin/sh
# percall.sh - what one guest operation costs on this host (issue 12): the
# figures a suite's wall time is made of, to compare hosts with.
#
#   cpuid        one CPUID instruction on the host. Under a hypervisor it
#                exits to it; glibc runs dozens of them in every process
#                start (its CPU feature and cache probes), and a guest
#                process runs them natively, at the host's price
#   switch       one round trip between two host processes on one CPU:
#                two context switches, the floor of what UML pays per guest
#                system call (the stub and the UML kernel are two host
#                processes; shadow paging in a nested hypervisor makes
#                each switch dearer)
#   syscall      one guest system call (getppid): the guest process stops
#                in its host stub, the UML kernel serves it, the stub resumes
#   fault        one guest page fault (first touch of an anonymous page)
#   start        one guest process started by posix_spawn and reaped: with
#                no C library, then static glibc
#   fork+exec    one /bin/true run by busybox sh (fork, exec, exit, wait:
#                what every external command in a test costs)
#   subshell     one ( : ) in busybox sh: a fork alone
#
# Guest figures are (wall of N operations - wall of none) / N over whole
# `umlrun exec` runs, the best of BENCH_REPEAT (3); host figures are timed
# on the host. The last lines count the CPUIDs a process start executes
# (single-stepped on the host: a static program and busybox; a dynamic one
# such as hostapd runs 72, in its dynamic linker) and price them at this
# host's CPUID.
#
#   sh bench/percall.sh
set -eu
. "$(dirname "$0")/lib.sh"

repeat=${BENCH_REPEAT:-3}
echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"

ov=$work/ov
mkdir -p "$ov/usr/local/bin"
gcc -O2 -static -o "$ov/usr/local/bin/probe" "$top/bench/probe.c"
gcc -O2 -static -nostdlib -o "$ov/usr/local/bin/exit0" "$top/bench/exit0.c"
probe=$ov/usr/local/bin/probe

# guest_wall CMD...: the best wall seconds of $repeat `umlrun exec` runs.
guest_wall() {
	b=
	i=0
	while [ $i -lt "$repeat" ]; do
		t0=$(now)
		"$umlrun" exec --mem=512M --overlay="$ov" -- "$@" >/dev/null 2>&1 || {
			echo "percall: the guest failed: $*" >&2
			exit 3
		}
		t=$(calc "$(now) - $t0")
		if [ -z "$b" ] || [ "$(calc "$t < $b")" = 1 ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b"
}

# host_wall PROBE_ARGS...: the wall seconds of one probe run on the host.
host_wall() {
	t0=$(now)
	"$probe" "$@"
	calc "$(now) - $t0"
}

# row NAME WHERE N UNIT SCALE ZERO_WALL WALL: one line of the table.
row() {
	printf '%-12s %-6s %8s  %s\n' "$1" "$2" \
		"$(printf '%.2f' "$(calc "($7 - $6) / $3 * $5")")" "$4"
}

printf '%-12s %-6s %8s  %s\n' operation where each unit

n=200000
cpuid_wall=$(host_wall cpuid "$n")
cpuid_us=$(calc "$cpuid_wall / $n * 1000000")
row cpuid host "$n" us 1000000 0 "$cpuid_wall"
row switch host "$n" "us (round trip)" 1000000 0 "$(host_wall switch "$n")"

zero=$(guest_wall /usr/local/bin/probe syscall 0)
row syscall guest 200000 us 1000000 "$zero" "$(guest_wall /usr/local/bin/probe syscall 200000)"
row fault guest 50000 us 1000000 "$zero" "$(guest_wall /usr/local/bin/probe fault 50000)"
row start guest 300 "ms (no C library)" 1000 "$zero" \
	"$(guest_wall /usr/local/bin/probe spawn 300 /usr/local/bin/exit0)"
row start guest 300 "ms (static glibc)" 1000 "$zero" \
	"$(guest_wall /usr/local/bin/probe spawn 300 /usr/local/bin/probe exit)"
zero=$(guest_wall sh -c 'i=0; while [ $i -lt 0 ]; do i=$((i + 1)); done')
row fork+exec guest 300 "ms (/bin/true from busybox sh)" 1000 "$zero" \
	"$(guest_wall sh -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done')"
row subshell guest 300 "ms (( : ) in busybox sh)" 1000 "$zero" \
	"$(guest_wall sh -c 'i=0; while [ $i -lt 300 ]; do (:); i=$((i + 1)); done')"

for p in "$probe exit" "/usr/bin/busybox true"; do
	set -- $p
	[ -x "$1" ] || continue
	c=$("$probe" count "$@" 2>/dev/null | tail -n 1)
	n=${c##*, }
	n=${n%% cpuid}
	printf '# %s: %s at start-up: %.2f ms at this host'"'"'s CPUID\n' "${1##*/}" "$c" \
		"$(calc "$n * $cpuid_us / 1000")"
done
