#!/bin/sh
# hwsim-peer.sh - hostap's own vm-run.sh beside `umlrun hwsim` (issue 27):
# the same tree, the same programs, the same kernel (umlrun's hwsim kernel),
# the same cases, one guest each, in one run:
#
#   vm-run   hostap's tests/hwsim/vm/vm-run.sh (the host's / as the guest's
#            root, time-travel=inf-cpu), its KERNEL= the cached kernel
#   umlrun   umlrun hwsim -j1 (its own root; 50 cases in batches of 29)
#
#   BENCH_HOSTAP=~/src/hostap BENCH_CASES=50 sh bench/hwsim-peer.sh
#
# Run as root on a host with the "hwsim" packages of debian-packages (the
# peer uses the host's python3 and tools as its guest's). vm-run.sh is run,
# not copied: it comes from the tree. The cases: the first BENCH_CASES (50)
# of every 8th case of the ap_open*, ap_wpa2_psk*, ap_pmf*, sae_*, ap_ft*
# cases.
set -eu
. "$(dirname "$0")/lib.sh"

echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs; host kernel $(uname -r)"
ncases=${BENCH_CASES:-50}
tree=$(hostap_tree "hwsim-peer.sh") || exit 2

# Build (cached) and learn where: the programs and the kernel.
"$umlrun" hwsim --hostap="$tree" -v ap_open >"$work/warm.out" 2>&1 || {
	tail -n 20 "$work/warm.out" >&2
	exit 3
}
kernel=$(sed -n 's/^# kernel: \(.*\)$/\1/p' "$work/warm.out" | head -n 1)
build=$(sed -n 's/^umlrun: hostap .*: \(\/.*\)$/\1/p' "$work/warm.out" | head -n 1)
[ -x "$kernel" ] || {
	echo "hwsim-peer.sh: no kernel path in umlrun's output" >&2
	exit 3
}
if [ -z "$build" ]; then
	build=$(ls -dt "${XDG_CACHE_HOME:-$HOME/.cache}"/umlrun/hostap/*/ | head -n 1)
fi

cases=
for p in 'ap_open*' 'ap_wpa2_psk*' 'ap_pmf*' 'sae_*' 'ap_ft*'; do
	cases="$cases $("$umlrun" hwsim --hostap="$tree" --list "$p" | awk 'NR % 8 == 1 { printf "%s ", $2 }')"
done
# shellcheck disable=SC2086 # the cases are words
set -- $cases
cases=$(echo "$@" | tr ' ' '\n' | head -n "$ncases" | tr '\n' ' ')
# shellcheck disable=SC2086
set -- $cases
echo "# $# cases; kernel $kernel"

# The peer's tree: a copy with the programs where build.sh leaves them,
# outside /tmp (inside.sh mounts a tmpfs over the guest's /tmp, and the
# guest's root is the host's /).
peer=$top/build/hwsim-peer.$$
trap 'rm -rf "$work" "$peer"' EXIT INT TERM
cp -a "$tree" "$peer"
cp -a "$build/tree/." "$peer/"
printf 'KERNEL=%s\nMEMORY=512\n' "$kernel" >"$peer/tests/hwsim/vm/vm-config"

t0=$(now)
HWSIM_TEST_LOG_DIR=$work/peer-logs "$peer/tests/hwsim/vm/vm-run.sh" "$@" >"$work/peer.out" 2>&1 || true
peer_wall=$(calc "$(now) - $t0")
peer_pass=$(grep -c '^PASS ' "$work/peer.out" || true)
peer_fail=$(grep -c '^FAIL ' "$work/peer.out" || true)
peer_skip=$(grep -c '^SKIP ' "$work/peer.out" || true)

t0=$(now)
rc=0
"$umlrun" hwsim --hostap="$tree" -j1 --retry=0 --results="$work/umlrun" "$@" >"$work/umlrun.out" 2>&1 || rc=$?
ours_wall=$(calc "$(now) - $t0")
k=$work/umlrun/latest/ktap.txt
ours_pass=$(grep -Ec '^    ok [0-9]+ [^ ]+$' "$k" || true)
ours_skip=$(grep -Ec '^    ok [0-9]+ [^ ]+ # SKIP' "$k" || true)
ours_fail=$(grep -Ec '^    not ok [0-9]+ ' "$k" || true)

printf '%-8s %8s %6s %6s %6s\n' who wall_s passed skipped failed
printf '%-8s %8.1f %6d %6d %6d\n' vm-run "$peer_wall" "$peer_pass" "$peer_skip" "$peer_fail"
printf '%-8s %8.1f %6d %6d %6d  (exit %d)\n' umlrun "$ours_wall" "$ours_pass" "$ours_skip" "$ours_fail" "$rc"
printf '# vm-run / umlrun wall: %.2f\n' "$(calc "$peer_wall / $ours_wall")"
