#!/bin/sh
# root.sh - what serving the guest's root over hostfs costs the daemons'
# start (issue 12 part 2), and whether a tmpfs copy would do better.
#
# The workload W starts what a wireless test starts (hostapd, wpa_supplicant,
# iw, tcpdump, ip: each with -v or --version, so the dynamic linker maps and
# relocates all their libraries: 17 shared objects, libcrypto among them).
# Each figure is the best wall of BENCH_REPEAT whole `umlrun exec` runs
# (inf-cpu, the default kernel), measured on the host:
#
#   boot      exec true: the floor
#   cold      W once, from hostfs (every page read from the host)
#   warm      W a second time in the same guest: the pages are in the
#             guest's page cache, as they would be on any memory-backed
#             root; warm - the floor is what a faster root could reach
#   tmpfs     the working set (W's binaries and libraries) copied to a tmpfs
#             first, then W run from there: the copy reads every byte over
#             hostfs once, so it cannot beat cold
#
#   sh bench/root.sh
set -eu
. "$(dirname "$0")/lib.sh"

repeat=${BENCH_REPEAT:-5}
echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"

w='for p in /usr/sbin/hostapd /usr/sbin/wpa_supplicant; do $R$p -v; done; $R/usr/sbin/iw --version; $R/usr/bin/tcpdump --version; $R/usr/bin/ip -V'
# The working set: the binaries and what ld.so lists for them, copied with
# their paths under /dev/shm/r; W then runs with R=/dev/shm/r and the
# libraries found there first.
copy='for b in /usr/sbin/hostapd /usr/sbin/wpa_supplicant /usr/sbin/iw /usr/bin/tcpdump /usr/bin/ip; do
	echo $b; /lib64/ld-linux-x86-64.so.2 --list $b | sed -n "s|.*=> \(/[^ ]*\) .*|\1|p"; done | sort -u >/tmp/set
	while read -r f; do mkdir -p /dev/shm/r${f%/*} && cp $f /dev/shm/r$f || exit 1; done </tmp/set
	R=/dev/shm/r; export LD_LIBRARY_PATH=$R/lib/x86_64-linux-gnu'

# best SCRIPT: the smallest wall seconds of $repeat runs of the guest SCRIPT.
best() {
	b=
	i=0
	while [ $i -lt "$repeat" ]; do
		t0=$(now)
		"$umlrun" exec -- sh -c "$1" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 3; }
		t=$(calc "$(now) - $t0")
		if [ -z "$b" ] || [ "$(calc "$t < $b")" = 1 ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b"
}

"$umlrun" exec -- true >/dev/null 2>&1 || { echo "root.sh: umlrun exec true failed" >&2; exit 3; }
boot=$(best true)
cold=$(best "R=; { $w; } >/dev/null 2>&1")
twice=$(best "R=; { $w; $w; } >/dev/null 2>&1")
tmpfs=$(best "$copy; { $w; } >/dev/null 2>&1")
"$umlrun" exec -- sh -c "$copy; cat /tmp/set | xargs du -cL | tail -n 1" >"$work/size" 2>&1
printf 'working set: %s files, %s KiB\n' "$("$umlrun" exec -- sh -c "$copy; wc -l </tmp/set")" \
	"$(awk '{ print $1 }' "$work/size")"
printf '%-34s %8s\n' figure seconds
printf '%-34s %8.3f\n' "boot (exec true)" "$boot"
printf '%-34s %8.3f\n' "W cold, over hostfs" "$(calc "$cold - $boot")"
printf '%-34s %8.3f\n' "W warm (guest page cache)" "$(calc "$twice - $cold")"
printf '%-34s %8.3f\n' "W from a tmpfs copy, copy included" "$(calc "$tmpfs - $boot")"
printf 'hostfs costs at most %.3f s per boot for these daemons (cold - warm)\n' \
	"$(calc "($cold - $boot) - ($twice - $cold)")"
