#!/bin/sh
# t-stage-and-cache.sh - where the stage and the cache live: TMPDIR elsewhere,
# a read-only cache, another user's, a relative XDG_CACHE_HOME, a full results folder.
. "$(dirname "$0")/lib.sh"
itest_own_cache

shm=$(mktemp -d /dev/shm/umlrun-itest.XXXXXX) && chmod 755 "$shm"
run env TMPDIR="$shm" "$umlrun" run $R itest/t0001-pass.sh
[ $rc -eq 0 ] && [ -z "$(ls -A "$shm")" ]
check "a TMPDIR on another file system (tmpfs) works and is left empty"
rm -rf "$shm"
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$work/rocache/umlrun"
	mount --bind "$XDG_CACHE_HOME/umlrun" "$work/rocache/umlrun" &&
		mount -o remount,bind,ro "$work/rocache/umlrun" &&
		run env XDG_CACHE_HOME="$work/rocache" "$umlrun" run $R itest/t0001-pass.sh
	[ $rc -eq 0 ] && grep -q "^ok 1 itest/t0001-pass.sh" "$work/out"
	check "a read-only cache still runs tests"
	umount "$work/rocache/umlrun"
	mkdir -p "$work/othercache/umlrun" && chown nobody "$work/othercache/umlrun"
	run env XDG_CACHE_HOME="$work/othercache" "$umlrun" exec -- true
	[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "^umlrun: the cache $work/othercache/umlrun belongs to another user" "$work/err" &&
		[ -z "$(ls -A "$work/othercache/umlrun")" ]
	check "a cache folder another user owns is refused (it could run code as us), nothing written"
	run sh -c 'cd "$1" && env -u HOME XDG_CACHE_HOME=relative "$2" exec -- true' sh "$work" "$umlrun"
	[ $rc -eq 0 ] && [ ! -e "$work/relative" ] && [ ! -e /tmp/.cache ] &&
		grep -q "XDG_CACHE_HOME=relative is not an absolute path, so it is ignored" "$work/err"
	check "a relative XDG_CACHE_HOME and no HOME: the cache is in the home of the password database, and a warning says so"
	# A results folder with no room: every report that cannot be written
	# is named, and the run is not a pass.
	mkdir -p "$work/full"
	mount -t tmpfs -o size=64k umlrun-itest "$work/full" &&
		head -c 60000 /dev/zero >"$work/full/filler" 2>/dev/null
	run "$umlrun" run --suite-dir="$suites" --results="$work/full" itest/t0001-pass.sh
	[ $rc -eq 3 ] && grep -q "No space left on device" "$work/err" && nothing_left
	check "a results folder that fills up exits 3, naming what could not be written"
	umount "$work/full"
fi

tap_done
