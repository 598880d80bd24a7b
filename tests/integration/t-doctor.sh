#!/bin/sh
# t-doctor.sh - umlrun doctor, the host checks, and the hint to run it.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" doctor
[ $rc -eq 0 ] && ! grep -q '^FAIL' "$work/out" && grep -q '^ok   ptrace' "$work/out"
check "doctor exits 0 on this host, one ok line per check"
printf 'gcc build\numlrun-no-such-package guest\n' >"$work/packages"
run env UMLRUN_PACKAGES="$work/packages" "$umlrun" doctor
[ $rc -eq 3 ] && grep -q "^FAIL Debian packages: missing umlrun-no-such-package;" "$work/out"
check "doctor names a missing Debian package and exits 3"
printf 'gcc build\numlrun-absent-tshark tshark\n' >"$work/packages"
run env UMLRUN_PACKAGES="$work/packages" "$umlrun" doctor
[ $rc -eq 0 ] && grep -q "^warn Debian packages for umlrun hwsim --tshark: missing umlrun-absent-tshark" "$work/out" &&
	grep -q "^ok   Debian packages (1, " "$work/out"
check "doctor only warns of hwsim --tshark's packages, and leaves them out of the main list"
mkdir -p "$work/nodpkg" && ln -sf "$(command -v env)" "$work/nodpkg/env"
run env PATH="$work/nodpkg" "$umlrun" doctor
[ $rc -eq 3 ] && grep -q "^FAIL Debian packages: dpkg-query cannot be run" "$work/out"
check "doctor without dpkg-query on PATH says so and exits 3"
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 700 "$work/doctor-tmp"
	run env TMPDIR="$work/doctor-tmp" "$umlrun" doctor
	[ $rc -eq 3 ] && grep -q "^FAIL TMPDIR $work/doctor-tmp .*set TMPDIR" "$work/out"
	check "doctor names a TMPDIR the guest's user cannot traverse and exits 3"
fi

if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 700 "$work/private"
	run env TMPDIR="$work/private" "$umlrun" exec -- true
	[ $rc -eq 3 ] && grep -q "set TMPDIR" "$work/err" && [ -z "$(ls -A "$work/private")" ]
	check "a TMPDIR the guest's user cannot reach exits 3 and leaves nothing"
	grep -q "'umlrun doctor' checks" "$work/err"
	check "a guest that cannot start points to umlrun doctor"
fi

tap_done
