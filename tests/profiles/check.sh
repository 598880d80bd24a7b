#!/bin/sh
# The debug kernel profiles (--profile, docs/debugging.md), each built and
# run: make profiles-check. Not part of make check: every profile is a
# kernel build of its own (5 to 15 minutes each on 2 cores, one at a time).
#
#   sh tests/profiles/check.sh [PROFILE...]   (default: all four)
#
# Per profile: the kernel builds and every option of its fragment survived
# (umlrun build checks), the timers suite passes under it (time travel, its
# exact assertions), and for gcov the run's coverage report exists. Prints
# TAP; exits 1 if a check failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
umlrun=${UMLRUN:-$top/build/umlrun}
work=$(mktemp -d /tmp/umlrun-ptest.XXXXXX)
chmod 755 "$work"
export TMPDIR="$work/tmp"
mkdir "$TMPDIR"
trap 'rm -rf "$work"' EXIT INT TERM
. "$top/tests/tap.sh"
rc=0
tap_on_fail() {
	echo "# exit status $rc"
	for f in "$work/out" "$work/err"; do
		[ -s "$f" ] && tail -n 8 "$f" | sed 's/^/#   /'
	done
}
run() {
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
}

profiles=${*:-hardened kasan lockdep gcov}
# gcov's report is made with Debian's lcov: installed as the other packages are.
case " $profiles " in
*" gcov "*)
	echo lcov >"$work/packages"
	UMLRUN_PACKAGES="$work/packages" sh "$top/tests/deps.sh" || exit 3
	;;
esac
echo "TAP version 13"
for p in $profiles; do
	run "$umlrun" build --profile="$p"
	[ $rc -eq 0 ] && grep -q "^kernel: " "$work/out"
	check "--profile=$p: the kernel builds, every option of its fragment survived"
	[ $rc -eq 0 ] || continue
	kdir=$(sed -n 's|^kernel: \(.*\)/linux .*|\1|p' "$work/out")
	grep -q "^fragment: profile:$p.config " "$kdir/inputs.txt"
	check "--profile=$p: a kernel of its own, the profile in its key"
	run "$umlrun" run -q --results="$work/results-$p" --profile="$p" timers
	[ $rc -eq 0 ]
	check "--profile=$p: the timers suite passes under time travel"
	if [ "$p" = gcov ]; then
		[ -s "$work/results-$p/latest/coverage/index.html" ] &&
			grep -q "kernel/time" "$work/results-$p/latest/coverage/kernel.info"
		check "--profile=gcov: the run's coverage report covers kernel/time"
	fi
done
tap_done
