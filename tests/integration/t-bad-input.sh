#!/bin/sh
# t-bad-input.sh - usage and bad input: one line, exit 2 (3 for what the
# host lacks), nothing written.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" --help
[ $rc -eq 0 ] && grep -q '^Usage: umlrun' "$work/out"
check "--help prints usage to stdout and exits 0"
run "$umlrun" run --bogus
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ]
check "an unknown option exits 2 with one line"
run "$umlrun" run --jobs
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "unknown option --jobs or missing value" "$work/err"
check "a long option with its value missing is named as written (--jobs, not -j)"
run "$umlrun" frobnicate
[ $rc -eq 2 ] && grep -q "unknown command 'frobnicate'" "$work/err"
check "an unknown command exits 2"
run "$umlrun" run $R nosuch
[ $rc -eq 2 ] && [ ! -e "$results" ] && grep -q "unknown suite 'nosuch'" "$work/err"
check "an unknown suite exits 2 and creates no results folder"
run "$umlrun" run $R --start=yesterday-ish itest/t0001-pass.sh
[ $rc -eq 2 ] && grep -q "ISO-8601" "$work/err" && [ ! -e "$results" ]
check "--start=yesterday-ish exits 2 naming the accepted forms"
run "$umlrun" run --suite-dir="$suites" --results=/dev/null/x itest/t0001-pass.sh
[ $rc -eq 2 ] && grep -q "not writable" "$work/err"
check "an unwritable results folder exits 2"
run "$umlrun" run --suite-dir="$suites" --results=/proc/umlrun-results itest/t0001-pass.sh
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "not writable" "$work/err"
check "a results folder where mkdir fails though access() says yes (/proc) exits 2 at once"
mkdir -p "$work/dirty" && : >"$work/dirty/.config"
run "$umlrun" build --kernel-src="$work/dirty"
[ $rc -eq 2 ] && grep -q "mrproper" "$work/err"
check "an unclean kernel tree exits 2 and says how to fix it"
run env UMLRUN_KERNEL_TARBALL="$work/none.tar.xz" "$umlrun" build
[ $rc -eq 3 ] && grep -q "apt-get install linux-source-[0-9.]*'" "$work/err"
check "a missing kernel source exits 3 naming the package"
# A copy of the project whose manifest wants a package that does not exist.
mkdir -p "$work/proj/build"
cp -R "$top/uml-config" "$top/rootfs" "$top/testsuites" "$work/proj/"
cp -R "$B/guest" "$work/proj/build/"
echo "package umlrun-no-such-package" >>"$work/proj/rootfs/manifest"
run env UMLRUN_HOME="$work/proj" "$umlrun" build
[ $rc -eq 3 ] && grep -q "apt-get install umlrun-no-such-package" "$work/err"
check "a missing Debian package exits 3 naming it and the install command"

mkfifo "$work/fifo"
bad=0
for f in /dev/zero "$work/fifo"; do
	run timeout 20 "$umlrun" run --results="$work/nores" --durations="$f" --shard=1/2 smoke
	usage_line "durations file $f: not a regular file" || bad=1
	run timeout 20 "$umlrun" build --config="$f"
	usage_line "config fragment $f: not a regular file" || bad=1
done
[ $bad -eq 0 ]
check "--durations and --config of a device or a fifo exit 2 at once (they grew umlrun without end or hung it)"

tap_done
