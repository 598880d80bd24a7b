#!/bin/sh
# t-overlay.sh - --overlay: the user's own builds in the guest.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" exec --overlay="$work/nosuch" -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --overlay=.*nosuch: no such folder" "$work/err"
check "--overlay with a missing folder exits 2 with one line"
ov=$work/overlay
mkdir -p "$ov/usr/sbin" "$ov/usr/local/bin"
printf '#!/bin/sh\necho "my hostapd $*"\n' >"$ov/usr/sbin/hostapd"
chmod 755 "$ov/usr/sbin/hostapd"
# A program of the host that needs a library the guest's root lacks.
printf '#include <json-c/json.h>\n#include <stdio.h>\nint main(void) { puts(json_object_to_json_string(json_object_new_int(42))); return 0; }\n' >"$work/j.c"
cc -o "$ov/usr/local/bin/jsonhello" "$work/j.c" -ljson-c
run "$umlrun" exec --overlay="$ov" -- sh -c 'hostapd -v && jsonhello'
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = "my hostapd -v
42" ] && grep -q "overlay: added .*libjson-c.so.*, which /usr/local/bin/jsonhello needs" "$work/err"
check "--overlay replaces a packaged program and brings a program's libraries"
run "$umlrun" exec -- sh -c 'hostapd -v 2>&1; test ! -e /usr/local/bin/jsonhello'
[ $rc -eq 0 ] && grep -q "^hostapd v" "$work/out"
check "the overlay changed only that run: the cached root is untouched"
run "$umlrun" run $R --overlay="$ov" itest/t0001-pass.sh
[ $rc -eq 0 ] && grep -q "\"overlays\": \[\"$ov\"\]" "$results/latest/results.json"
check "results.json names the overlays of the run"
# A static program: no library to list, and no noise (the loader's --list
# crashed on it, and the shell printed "Segmentation fault" on every run).
mkdir -p "$work/ovs/usr/local/bin" && cp "$B/guest/nsexec" "$work/ovs/usr/local/bin/mystatic"
run "$umlrun" exec --overlay="$work/ovs" -- test -x /usr/local/bin/mystatic
[ $rc -eq 0 ] && [ ! -s "$work/err" ]
check "--overlay with a static program lays it with nothing on stderr"
# A hostile overlay (a pull request's build): a link to a host folder, then
# a second overlay writing through it; a folder where the root has a link
# to a host file (linuxrc -> /usr/bin/busybox). Refused, nothing written.
mkdir -p "$work/ovx/target" "$work/ovx/a" "$work/ovx/b/x" "$work/ovx/d/linuxrc"
echo victim >"$work/ovx/target/victim"
ln -s "$work/ovx/target" "$work/ovx/a/x"
echo pwned >"$work/ovx/b/x/victim"
echo pwned >"$work/ovx/d/linuxrc/f"
run "$umlrun" exec --overlay="$work/ovx/a" --overlay="$work/ovx/b" -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "^umlrun: --overlay=$work/ovx/a: refused: $work/ovx/a/x is a link to .*: an overlay's links must be relative" "$work/err" &&
	[ "$(cat "$work/ovx/target/victim")" = victim ] && nothing_left
check "an overlay with a link out of itself is refused (exit 2, one line), no host file written"
run "$umlrun" exec --overlay="$work/ovx/d" -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "^umlrun: --overlay=$work/ovx/d: refused: .*ovx/d/linuxrc is a folder, and /linuxrc in the guest's root is not" "$work/err" &&
	[ ! -e /usr/bin/busybox/f ] && nothing_left
check "an overlay folder over the root's link to a host file is refused (exit 2)"
mkdir -p "$work/ovx/f/usr/bin"
mkfifo "$work/ovx/f/usr/bin/pipe"
run timeout 30 "$umlrun" exec --overlay="$work/ovx/f" -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "ovx/f/usr/bin/pipe is not a file, folder or link" "$work/err" && nothing_left
check "an overlay holding a fifo is refused (exit 2): cp waited on it for ever"
# The laid root is kept (it cost 41 s for 2,315 files on every run): the
# same overlay again starts from the cached entry (a file planted in it
# shows), a changed file is laid again, never served stale.
mkdir -p "$work/ovc/etc" && echo one >"$work/ovc/etc/umlrun-ovc"
run "$umlrun" exec --overlay="$work/ovc" -- cat /etc/umlrun-ovc
first=$(cat "$work/out")
entry=$(ls -td "$XDG_CACHE_HOME"/umlrun/overlays/*/ 2>/dev/null | head -n 1)
[ -n "$entry" ] && echo cached >"${entry}root/etc/umlrun-ovc-planted"
run "$umlrun" exec --overlay="$work/ovc" -- cat /etc/umlrun-ovc /etc/umlrun-ovc-planted
second=$(cat "$work/out")
echo two >"$work/ovc/etc/umlrun-ovc"
run "$umlrun" exec --overlay="$work/ovc" -- sh -c 'cat /etc/umlrun-ovc && test ! -e /etc/umlrun-ovc-planted'
[ "$first" = one ] && [ "$second" = "one
cached" ] && [ $rc -eq 0 ] && [ "$(cat "$work/out")" = two ] && nothing_left
check "a laid overlay is cached: the same overlay again starts from it, a changed file is laid again"

tap_done
