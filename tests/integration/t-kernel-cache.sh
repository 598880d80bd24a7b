#!/bin/sh
# t-kernel-cache.sh - the kernel cache: a missing HOME, cached builds, prune,
# a changed root folder, fragments, the cache's lock.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# HOME=/nonexistent (as root) made that folder and began a kernel build in
# it: a cache whose folder is not there is refused, nothing made.
run env -u XDG_CACHE_HOME HOME="$work/nohome" timeout 60 "$umlrun" build
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "^umlrun: the cache $work/nohome/.cache/umlrun cannot be made: $work/nohome does not exist" "$work/err" &&
	[ ! -e "$work/nohome" ]
check "a HOME that does not exist: exit 2, one line, no folder made and no build begun"
run "$umlrun" build
[ $rc -eq 0 ] && grep -q "time-travel-start= in nanoseconds" "$work/out"
check "umlrun build succeeds and reports the time-travel-start unit"
run "$umlrun" build
[ $rc -eq 0 ] && grep -q " cached;" "$work/out"
check "a second umlrun build finds everything cached"

# prune, on entries made for the purpose in our cache: an old kernel
# and root folder (with its log), a recent one, one being assembled by a
# live process (pid 1).
cache=${XDG_CACHE_HOME:-$HOME/.cache}/umlrun
old=00prunetest0old0 new=00prunetest0new0
mkdir -p "$cache/kernels/$old" "$cache/rootfs/$old" "$cache/kernels/$new" "$cache/rootfs/$old.tmp-1"
echo x >"$cache/kernels/$old/linux"
echo x >"$cache/rootfs/$old.log"
touch -d '2 hours ago' "$cache/kernels/$old" "$cache/rootfs/$old" "$cache/rootfs/$old.log" "$cache/rootfs/$old.tmp-1"
run "$umlrun" prune --dry-run
[ $rc -eq 0 ] && grep -q "^would remove kernels/$old (" "$work/out" &&
	grep -q "^would remove rootfs/$old.log (" "$work/out" && [ -d "$cache/kernels/$old" ]
check "prune --dry-run names what it would remove and removes nothing"
# A build folder no kernel names goes; src/, a link to the developer's, is not ours.
mkdir -p "$cache/builds/00prunetest0bld"
touch -d '2 hours ago' "$cache/builds/00prunetest0bld"
srcs_before=$(ls "$real_cache/src" | wc -l)
# What an interrupted umlrun left (its pid gone, an hour ago) goes.
dead=$(sh -c 'echo $$')
mkdir -p "$cache/rootfs/00prunetest0dead.tmp-$dead/usr"
touch -d '2 hours ago' "$cache/rootfs/00prunetest0dead.tmp-$dead"
run "$umlrun" prune
[ $rc -eq 0 ] && grep -q "^removed kernels/$old (" "$work/out" && grep -q "^freed " "$work/out" &&
	grep -q "^removed rootfs/00prunetest0dead.tmp-$dead (" "$work/out" &&
	[ ! -e "$cache/rootfs/00prunetest0dead.tmp-$dead" ] &&
	[ ! -e "$cache/kernels/$old" ] && [ ! -e "$cache/rootfs/$old" ] && [ ! -e "$cache/rootfs/$old.log" ] &&
	[ -d "$cache/kernels/$new" ] && [ -d "$cache/rootfs/$old.tmp-1" ] &&
	! grep -q "$new\|\.tmp-1 (" "$work/out" &&
	grep -q "^removed builds/00prunetest0bld (" "$work/out" && [ ! -e "$cache/builds/00prunetest0bld" ] &&
	[ "$(ls "$real_cache/src" | wc -l)" -eq "$srcs_before" ] && ! grep -q "^removed src/" "$work/out"
check "prune removes old entries and build folders no kernel names, spares recent ones, folders being assembled and a linked src/"
rm -rf "$cache/kernels/$new" "$cache/rootfs/$old.tmp-1"
run "$umlrun" build
[ $rc -eq 0 ] && grep -q " cached;" "$work/out"
check "after prune, the current kernel and root folder are still cached"
# A root folder changed since it was assembled (a folder made 0700 outside
# umlrun: every guest's programs failed as if the tests had) is assembled
# again. Its folders are this cache's own (cp -al links only files).
rf=$(ls -td "$cache"/rootfs/*/ | head -n 1) # the one in use: touched at each use
chmod 700 "$rf/usr/sbin"
run "$umlrun" exec -- sh -c 'ls /usr/sbin/hostapd'
[ $rc -eq 0 ] && grep -q "the cached root folder .* changed since it was assembled (usr/sbin): assembling it again" "$work/err" &&
	[ "$(stat -c %a "$rf/usr/sbin")" = 755 ]
check "a cached root folder changed since it was assembled is assembled again, said in one line"

# A fragment asking for an option this kernel does not have: configured,
# checked after olddefconfig, refused with the option and its origin named.
printf '# no such option in Linux\nCONFIG_UMLRUN_NO_SUCH_OPTION=y\n' >"$work/bad.config"
run "$umlrun" build --config="$work/bad.config"
[ $rc -eq 2 ] && grep -q "CONFIG_UMLRUN_NO_SUCH_OPTION=y ($work/bad.config:2)" "$work/err"
check "a fragment option the kernel lacks exits 2 naming it and its line"
# A build that has to wait for the cache's lock says for whom, from the
# holder's note, and keeps waiting (cut short here by timeout).
printf 'CONFIG_CRC_ITU_T=y\n' >"$work/wait.config"
flock "$cache/lock" sleep 6 &
holder=$!
sleep 1
echo "$holder the test's flock holds it" >"$cache/lock.holder"
run timeout 4 "$umlrun" build --config="$work/wait.config"
wait "$holder"
[ $rc -eq 124 ] && grep -q "waiting 0s for the kernel cache's lock: the test's flock holds it" "$work/err" &&
	[ -z "$(find "$cache/kernels" -mindepth 1 -maxdepth 1 -type d -empty)" ]
check "a build waiting for the cache's lock says for whom, and leaves no entry when stopped"
printf 'CONFIG_HOSTFS\n' >"$work/malformed.config"
run "$umlrun" build --config="$work/malformed.config"
[ $rc -eq 2 ] && grep -q "malformed.config:1: not a config line" "$work/err"
check "a malformed fragment line exits 2 naming file and line"

tap_done
