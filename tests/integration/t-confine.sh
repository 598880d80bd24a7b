#!/bin/sh
# t-confine.sh - confinement: a hostile test file (docs/guest.md) reaches
# nothing outside its stage, and what it leaves and prints reaches the host defused.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# escape_run [VAR=VALUE]: the hostile file, under that confinement.
escape_run() {
	rm -f /tmp/umlrun-escape-canary "$TMPDIR/umlrun-escape-canary"
	run env "$@" "$umlrun" run $R iconfine
}
# oks: the numbers of the hostile file's passed checks, in one line.
oks() {
	sed -n 's/^    ok \([0-9]*\) .*/\1/p' "$work/out" | tr '\n' ' '
}
no_canary() {
	[ ! -e /tmp/umlrun-escape-canary ] && [ ! -e "$TMPDIR/umlrun-escape-canary" ]
}
no_specials() {
	[ -z "$(find "$results/latest/" -type l -o -type p -o -type c -o -type b)" ]
}
escape_run UMLRUN_CONFINE=
conf=$(sed -n 's/^  "confinement": "\(.*\)",$/\1/p' "$results/latest/results.json")
[ $rc -eq 0 ] && [ "$(oks)" = "1 2 3 4 5 6 7 8 9 10 " ] && no_canary && no_specials && [ -n "$conf" ] &&
	grep -q "<dd class=\"confinement\">$conf</dd>" "$results/latest/report.html"
check "a hostile test reaches nothing outside its stage ($conf), and the reports say so"
case $conf in
landlock*)
	escape_run UMLRUN_CONFINE=landlock
	[ $rc -eq 0 ] && [ "$(oks)" = "1 2 3 4 5 6 7 8 9 10 " ] && no_canary && no_specials
	check "Landlock alone refuses every escape"
	;;
*) pass "Landlock alone refuses every escape # SKIP no Landlock on this host" ;;
esac
case $conf in
*mount-ns)
	# Links and FIFOs can be made inside the jail; the host drops them.
	escape_run UMLRUN_CONFINE=mount-ns
	[ $rc -eq 1 ] && [ "$(oks)" = "1 2 3 4 5 6 7 9 " ] && no_canary && no_specials &&
		grep -q "# removed 2 symbolic links, FIFOs or devices the test left in /results" "$work/out"
	check "a mount namespace alone keeps the host out of reach, and the host drops links and FIFOs"
	;;
*) pass "a mount namespace alone keeps the host out of reach # SKIP not root" ;;
esac
# Not root: the mount, PID and network namespaces through a user namespace
# of the guest's own. Tried as nobody, on a copy of the project and of the
# cache (hard links: the tarball too, or umlrun would fetch it again).
unpriv=$work/unpriv
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	mkdir -p "$unpriv/cache/umlrun" "$unpriv/tmp" "$unpriv/home" "$unpriv/results" "$unpriv/proj" &&
	cp -al "$XDG_CACHE_HOME/umlrun/kernels" "$XDG_CACHE_HOME/umlrun/rootfs" "$unpriv/cache/umlrun/" 2>/dev/null &&
	{ [ ! -d "$real_cache/sources" ] || cp -al "$real_cache/sources" "$unpriv/cache/umlrun/" 2>/dev/null; }; then
	tar -C "$top" --exclude=./.git --exclude=./build -cf - . | tar -C "$unpriv/proj" -xf -
	mkdir "$unpriv/proj/build" && cp "$umlrun" "$unpriv/proj/build/umlrun" && cp -R "$B/guest" "$unpriv/proj/build/"
	find "$unpriv" -type d -exec chown 65534:65534 {} +
	as_nobody() {
		run setpriv --reuid=65534 --regid=65534 --clear-groups env -u UMLRUN_HOME HOME="$unpriv/home" \
			XDG_CACHE_HOME="$unpriv/cache" TMPDIR="$unpriv/tmp" "$@" "$unpriv/proj/build/umlrun" run \
			--results="$unpriv/results" --suite-dir="$unpriv/proj/tests/integration/suites" iconfine
	}
	as_nobody
	uconf=$(sed -n 's/^  "confinement": "\(.*\)",$/\1/p' "$unpriv/results/latest/results.json")
	[ $rc -eq 0 ] && [ "$(oks)" = "1 2 3 4 5 6 7 8 9 10 " ] && no_canary &&
		case $uconf in *user-ns) true ;; *) false ;; esac
	check "not root, a hostile test reaches nothing outside its stage ($uconf: mount, PID and network namespaces in a user namespace)"
	case $uconf in
	*user-ns)
		as_nobody UMLRUN_CONFINE=mount-ns
		[ $rc -eq 1 ] && [ "$(oks)" = "1 2 3 4 5 6 7 9 " ] && no_canary
		check "not root, the user namespace's jail alone keeps the host out of reach"
		;;
	*) pass "not root, the user namespace's jail alone # SKIP this host gives no user namespace" ;;
	esac
else
	pass "not root, a hostile test reaches nothing outside its stage # SKIP not root, no setpriv, or the cache on another file system"
	pass "not root, the user namespace's jail alone # SKIP as above"
fi
# The same file must fail without confinement, or it proves nothing.
escape_run UMLRUN_CONFINE=none
[ $rc -eq 1 ] && grep -q "^    not ok 3 reading the host's /etc/passwd through .. is refused" "$work/out" &&
	grep -q "^    not ok 5 writing into the host's /tmp through .. is refused" "$work/out" &&
	[ -e /tmp/umlrun-escape-canary ] &&
	grep -q "^umlrun: warning: the guest is not confined" "$work/err" &&
	grep -q '"confinement": "none"' "$results/latest/results.json" && no_specials
check "unconfined (UMLRUN_CONFINE=none), the same file escapes: the checks can fail"
rm -f /tmp/umlrun-escape-canary "$TMPDIR/umlrun-escape-canary"
# What a hostile test leaves and prints reaches the host defused.
ESC=$(printf '\033')
run "$umlrun" run -v $R ihostile
art=$results/latest/ihostile/t0001-plant/artifacts
[ $rc -eq 1 ] && grep -q "^    ok 1 planted" "$work/out" && [ -f "$art/suid" ] &&
	[ -z "$(find "$art" -perm /7022)" ] && no_specials
check "set-user-ID, set-group-ID, sticky and others' write bits are cleared in the artifacts"
# GNU find walks by descriptors too: the bottom's path is past PATH_MAX.
[ "$(find "$art/cur" -name f | awk 'length($0) > 4096' | wc -l)" -eq 1 ] &&
	[ -z "$(find "$art/cur" -type l)" ]
check "the artifacts are walked at any path length: nothing 200 levels down, past PATH_MAX, is a link"
! grep -q "$ESC" "$work/out" && ! grep -q "$ESC" "$results/latest/ktap.txt" &&
	! grep -q "$ESC" "$work/err" && grep -q '\\x1b\[2Jcleared' "$work/err" &&
	grep -q '^    not ok 2 this failed\\x1b\[1A\\x1b\[2Kok 2 this passed\\x1b\]0;title\\x07\\xc2\\x9b2J$' "$work/out" &&
	grep -q "^not ok 1 ihostile/t0001-plant.sh" "$work/out"
check "a test's escape sequences reach neither the terminal (results, -v console) nor ktap.txt (shown as \\xHH)"
grep -q '^    # saved to invoice\\xe2\\x80\\xaefdp.exe$' "$work/out" &&
	grep -q 'invoice\\xe2\\x80\\xaefdp.exe' "$results/latest/ktap.txt"
check "a bidirectional control (U+202E) in a test's output is shown as \\xHH, not obeyed"
[ "$(awk 'length($0) > 65600' "$results/latest/ihostile/t0001-plant/ktap.log" | wc -l)" -eq 0 ] &&
	grep -q "\[umlrun: line cut at 65536 bytes\]" "$results/latest/ihostile/t0001-plant/ktap.log"
check "a line of output is cut at 64 KiB"
run "$umlrun" run -v -j2 $R ihostile itest/t0001-pass.sh
[ $rc -eq 1 ] && grep -q '^\[itest/t0001-pass\] Linux version' "$work/err" &&
	grep -q '^\[ihostile/t0001-plant\] Linux version' "$work/err" &&
	! grep -q '^Linux version' "$work/err" &&
	! LC_ALL=C grep -q "$(printf '\233')" "$work/err" && ! grep -q "$ESC" "$work/err" &&
	grep -q '^\[ihostile/t0001-plant\] .*\\xc2\\x9b2J$' "$work/err" &&
	grep -q '^\[ihostile/t0001-plant\] half a line$' "$work/err" &&
	grep -q '^\[ihostile/t0001-plant\] .*umlrun kernel line$' "$work/err"
check "-v with two guests tags each console line with its test, escapes cut lines included, a kernel line inside the test's own line cuts neither"
# The init's control line is a device the guest (root) can write too.
run "$umlrun" run $R iforge
[ $rc -eq 3 ] && grep -q "^not ok [1-5] iforge/t0001-fake-end.sh # TIMEOUT wall-clock limit of 6 s" "$work/out" &&
	grep -q '"id": "iforge/t0001-fake-end.sh", "attempt": 1, "result": "timeout"' "$results/latest/results.json"
check "a test that writes the init's end line itself and spins still ends as a wall timeout"
grep -q "^not ok [1-5] iforge/t0003-half-line.sh # TIMEOUT simulated-time limit of 5 s" "$work/out" &&
	grep -q "^not ok [1-5] iforge/t0004-stty.sh # TIMEOUT simulated-time limit of 5 s" "$work/out"
check "a forged end line, then half a line or the line's settings changed, hides no simulated-time limit"
grep -q "^not ok [1-5] iforge/t0005-end-then-panic.sh # ERROR Kernel panic - not syncing" "$work/out"
check "a forged end line before a kernel panic: a crash, not a pass"
grep -qF ' iforge/t0002-bad-numbers.sh # ERROR guest init: error \x1b]0;pwned\x07\x1b[2J\xc2\x9bHforged' "$work/out" &&
	! grep -q "$ESC" "$work/out" "$results/latest/ktap.txt" &&
	! grep -qi '"sim_seconds": [-a-z]\|": -' "$results/latest/results.json" &&
	[ -s "$results/latest/report.html" ] && nothing_left
check "forged control lines: numbers no init writes are ignored (no hang, valid JSON), the reason's escapes shown as \\xHH"
run "$umlrun" run $R ifull
[ $rc -eq 3 ] &&
	grep -q "^not ok [123] ifull/t0001-sparse.sh # ERROR the test wrote more than 2048 MiB to /results: stopped, its artifacts dropped" "$work/out" &&
	grep -q "^not ok [123] ifull/t0002-deep.sh # ERROR the test made folders more than 256 levels deep in /results: stopped, its artifacts dropped" "$work/out" &&
	grep -q "^not ok [123] ifull/t0003-many.sh # ERROR the test made more than 100000 files and folders in /results: stopped, its artifacts dropped" "$work/out" &&
	[ -z "$(ls -A "$results/latest/ifull/t0003-many/artifacts")" ] &&
	grep -q "^    ok 1 made it" "$work/out" &&
	[ -z "$(ls -A "$results/latest/ifull/t0001-sparse/artifacts")" ] &&
	[ -z "$(ls -A "$results/latest/ifull/t0002-deep/artifacts")" ] && nothing_left
check "/results past 2 GiB (a sparse file counts whole), 256 levels or 100,000 entries: a crash, the artifacts dropped"
run timeout 120 "$umlrun" exec -- sh -c 'truncate -s 3G /results/big && sleep 30'
[ $rc -eq 3 ] && grep -q "the test wrote more than 2048 MiB to /results" "$work/err" && nothing_left
check "exec holds the guest to the same 2 GiB of /results (it never measured it)"
run timeout 120 "$umlrun" exec -- sh -c 'exec 3>/results/x && rm /results/x && dd if=/dev/zero bs=1M count=2600 >&3 2>/dev/null; sleep 30'
[ $rc -eq 3 ] && grep -q "the test wrote more than 2048 MiB to /results" "$work/err" && nothing_left
check "a file removed while the guest still writes to it counts with /results (the walk cannot see it)"
# A test's own crash before its first result line is no host problem:
# 'umlrun doctor' is hinted at only when no guest booted at all.
run "$umlrun" run $R icrash
[ $rc -eq 3 ] && grep -q "^not ok [12] icrash/t0001-panic-first.sh # ERROR Kernel panic" "$work/out" &&
	grep -q "^not ok [12] icrash/t0002-full-first.sh # ERROR the test wrote more than 2048 MiB" "$work/out" &&
	! grep -q "umlrun doctor" "$work/err" && nothing_left
check "a test that panics or fills /results before its first result line: a crash, no hint that the host is at fault"
run "$umlrun" exec -- sh -c 'echo c >/proc/sysrq-trigger'
[ $rc -eq 3 ] && grep -q "^umlrun: the guest failed: Kernel panic" "$work/err" && ! grep -q "umlrun doctor" "$work/err"
check "exec of a command that panics the guest: no hint that the host is at fault"
run sh -c 'ulimit -v 200000 && exec "$1" run -q $2 itest/t0001-pass.sh' sh "$umlrun" "$R"
[ $rc -eq 3 ] && grep -q "the host refused the guest's memory" "$work/out" &&
	grep -qx "umlrun: no guest booted: 'umlrun doctor' checks what this host must offer a guest" "$work/err"
check "no guest booted at all (ulimit -v below its memory): the hint to run umlrun doctor, its own whole line"
case $conf in
*mount-ns)
	run "$umlrun" exec -- sh -c 'mkdir /tmp/u && mount -t hostfs none /tmp/u -o guest/uml && df -k /tmp/u'
	[ $rc -eq 0 ] && [ "$(awk 'NR == 2 { print $2 }' "$work/out")" -le $(((256 + 64) * 1024)) ]
	check "the guest's memory folder holds its memory and 64 MiB, no more"
	;;
*) pass "the guest's memory folder holds its memory and 64 MiB # SKIP no mount namespace" ;;
esac
run env UMLRUN_CONFINE=jail "$umlrun" exec -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "UMLRUN_CONFINE=jail: expected" "$work/err"
check "an unknown UMLRUN_CONFINE exits 2 with one line"

tap_done
