#!/bin/sh
# Integration tests: boot the real kernel and check what umlrun reports.
#
# Prints TAP; exits 1 if any check failed. Each check names the behaviour
# it proves; the raw-KTAP suites under suites/ test the runner apart from
# the shell harness. Needs `make` and a built kernel (umlrun builds it).
# The preamble and helpers are lib.sh's; t-*.sh are the topics already
# split out of this file.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# ---- doctor: the host checks ----
run "$umlrun" doctor
[ $rc -eq 0 ] && ! grep -q '^FAIL' "$work/out" && grep -q '^ok   ptrace' "$work/out"
check "doctor exits 0 on this host, one ok line per check"
printf 'gcc build\numlrun-no-such-package guest\n' >"$work/packages"
run env UMLRUN_PACKAGES="$work/packages" "$umlrun" doctor
[ $rc -eq 3 ] && grep -q "^FAIL Debian packages: missing umlrun-no-such-package;" "$work/out"
check "doctor names a missing Debian package and exits 3"
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

# ---- the kernel cache ----
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

# ---- outcomes ----
run "$umlrun" run $R itest/t0001-pass.sh
[ $rc -eq 0 ] && grep -q "^ok 1 itest/t0001-pass.sh" "$work/out"
check "a passing test exits 0"
grep -q "^    ok 2 results are writable" "$work/out"
check "the guest's KTAP is nested in the output"
[ -f "$results/latest/results.json" ] && [ -f "$results/latest/junit.xml" ] &&
	grep -q '"result": "pass"' "$results/latest/results.json"
check "results.json, junit.xml and the latest link are written"
grep -q artifact "$results/latest/itest/t0001-pass/artifacts/note.txt"
check "the guest's artifacts land in the test's folder"
grep -q "time-travel=inf-cpu" "$results/latest/itest/t0001-pass/cmdline.txt"
check "the exact kernel command line is logged"
if [ "$(id -u)" -eq 0 ]; then
	[ "$(cat "$results/latest/itest/t0001-pass/artifacts/writer.txt")" = "$(id -u nobody)" ]
	check "started as root, the guest runs as nobody"
	[ -z "$(find "$results/latest/itest" ! -user root)" ]
	check "started as root, the artifacts are root's once the guest has ended (no process of nobody may change them)"
fi
nothing_left
check "nothing is left behind after a pass"

run "$umlrun" run $R itest/t0002-fail.sh
[ $rc -eq 1 ] && grep -q "^not ok 1 itest/t0002-fail.sh" "$work/out"
check "a failing test exits 1"
run "$umlrun" run $R -q itest/t0002-fail.sh
[ $rc -eq 1 ] && [ "$(grep -c "^ " "$work/out")" -eq 0 ] &&
	grep -q "^    not ok 2 second" "$results/latest/ktap.txt"
check "-q shortens stdout only: ktap.txt keeps the test's own lines"

run "$umlrun" run $R --wall-timeout=5 itest/t0003-busyloop.sh
[ $rc -eq 124 ] && grep -q "# TIMEOUT wall-clock limit of 5 s" "$work/out"
check "a busy loop under inf-cpu ends as a wall-time timeout (124)"
grep -q "^    ok 1 before the loop" "$work/out"
check "the result reported before the busy loop is kept"
nothing_left
check "nothing is left behind after a timeout"
# With time travel off a test's time limit is real time: the wall-clock
# limit follows it (plus a margin), unless --wall-timeout gives one.
mkdir -p "$work/wallsuites/iwall" &&
	printf 'timeout=20\nwall_timeout=2\n' >"$work/wallsuites/iwall/settings" &&
	printf '#!/bin/sh\necho "KTAP version 1"\necho "1..1"\nsleep 4\necho "ok 1 slept 4 s"\n' \
		>"$work/wallsuites/iwall/t0001-sleep.sh" &&
	chmod 755 "$work/wallsuites" "$work/wallsuites/iwall" "$work/wallsuites/iwall/t0001-sleep.sh"
run "$umlrun" run --results="$results" --suite-dir="$work/wallsuites" --time-travel=off iwall
[ $rc -eq 0 ] && grep -q "^ok 1 iwall/t0001-sleep.sh" "$work/out"
check "--time-travel=off: 4 s of sleep within timeout=20 passes a wall_timeout=2 (the wall limit follows)"
run "$umlrun" run --results="$results" --suite-dir="$work/wallsuites" --time-travel=off --wall-timeout=2 iwall
[ $rc -eq 124 ] && grep -q "# TIMEOUT wall-clock limit of 2 s" "$work/out"
check "--time-travel=off: an explicit --wall-timeout still wins over the time limit"

run "$umlrun" run $R ilong
[ $rc -eq 124 ] && grep -q "# TIMEOUT simulated-time limit of 60 s" "$work/out"
check "a test past its simulated-time limit ends as a timeout (124)"

run "$umlrun" run $R itest/t0004-crash.sh itest/t0001-pass.sh
[ $rc -eq 3 ] && grep -q "^not ok [12] itest/t0004-crash.sh # ERROR Kernel panic" "$work/out"
check "a kernel panic is a crash (exit 3) named in the result"
grep -q "^    ok 1 reported before the crash" "$work/out" &&
	grep -q '"name": "reported before the crash", "result": "pass"' "$results/latest/results.json"
check "results reported before the crash are kept"
grep -q "^ok [12] itest/t0001-pass.sh" "$work/out"
check "the next test still runs after a crash"
nothing_left
check "nothing is left behind after a crash"

# shell= in a suite's settings: dash runs the file; anything else is one
# line naming the file and line, exit 2, before any guest boots.
mkdir -p "$work/shells/ishell"
printf '#!/bin/sh\n. ../lib/harness.sh\ntest_expect_success dash %s\ntest_done\n' \
	"'test \"\$(readlink /proc/\$\$/exe)\" = /usr/bin/dash'" >"$work/shells/ishell/t0001-which.sh"
chmod +x "$work/shells/ishell/t0001-which.sh"
echo shell=dash >"$work/shells/ishell/settings"
run "$umlrun" run --results="$results" --suite-dir="$work/shells" ishell
[ $rc -eq 0 ] && grep -q "^ok 1 ishell/t0001-which.sh" "$work/out"
check "shell=dash in a suite's settings runs its test files under dash"
echo shell=bash >"$work/shells/ishell/settings"
run "$umlrun" run --results="$results" --suite-dir="$work/shells" ishell
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && [ ! -s "$work/out" ] &&
	grep -q "ishell/settings:1: shell=bash: want sh (busybox ash, the default) or dash" "$work/err"
check "an unknown shell= is one line naming the settings file, exit 2"

# Test file and suite names reach the kernel command line and KTAP lines:
# a blank, newline or '#' in one is refused, one line naming the file,
# exit 2, before anything is written. A broken suite fails only when used.
mkdir -p "$work/names/inames" "$work/names/iok"
printf '#!/bin/sh\necho "1..0"\n' >"$work/names/iok/t0001-fine.sh"
printf '#!/bin/sh\necho "1..0"\n' >"$work/names/inames/t0001-a b.sh"
chmod +x "$work/names/iok/t0001-fine.sh" "$work/names/inames/t0001-a b.sh"
run "$umlrun" run -j1 --results="$work/names-results" --suite-dir="$work/names" inames
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
	[ ! -e "$work/names-results" ] &&
	grep -q "inames/t0001-a b.sh': a test file's name may hold only ASCII letters, digits and '.', '_', '+', '-'; rename it" "$work/err"
check "a test file name with a blank exits 2, one line naming it, no results folder"
mv "$work/names/inames/t0001-a b.sh" "$work/names/inames/t0002-nl
ok 99 forged.sh"
run "$umlrun" list --suite-dir="$work/names"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
	grep -q "inames/t0002-nl\\\\nok 99 forged.sh': a test file's name" "$work/err"
check "a test file name with a newline is refused on one line, the newline escaped"
run "$umlrun" list --suite-dir="$work/names" iok
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = iok/t0001-fine.sh ] && [ ! -s "$work/err" ]
check "a badly named test file fails only its own suite"
printf '# Saved on Windows.\r\ntimeout=30\r\n' >"$work/names/iok/settings"
run "$umlrun" run -j1 --results="$work/names-results" --suite-dir="$work/names" iok
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -e "$work/names-results" ] &&
	grep -q "iok/settings:1: a CR at the end of the line (a Windows line ending): save the file with LF line endings" "$work/err"
check "a settings file with CRLF line endings says so, exit 2"

# A suite may not set umlrun's own kernel parameters: its words come last
# on the line and would override the run's --timeout.
mkdir -p "$work/badparam/ibadparam"
printf '#!/bin/sh\necho "1..1"\necho "ok 1 ran"\n' >"$work/badparam/ibadparam/t0001-never.sh"
chmod +x "$work/badparam/ibadparam/t0001-never.sh"
printf '# a comment\n\ncmdline=quiet umlrun.timeout=99999\n' >"$work/badparam/ibadparam/settings"
run "$umlrun" run --results="$results" --suite-dir="$work/badparam" --timeout=5 ibadparam
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "ibadparam/settings:3: cmdline=quiet umlrun.timeout=99999: umlrun.timeout is umlrun's own parameter" "$work/err"
check "a suite's cmdline= may not set umlrun's own parameters (it overrode --timeout): exit 2 naming the word"

# ---- confinement: a hostile test file (docs/guest.md) ----
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
	grep -q '^\[ihostile/t0001-plant\] .*\\xc2\\x9b2J$' "$work/err"
check "-v with two guests tags each console line with its test, escapes cut lines included"
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

# ---- --mount: a host folder in the guest ----
mkdir -p "$work/mproj/tests" "$work/rwdir"
chmod 777 "$work/rwdir"
echo hello >"$work/mproj/tests/data.txt"
printf '#!/bin/sh\necho "sees $(cat /src/tests/data.txt)"\n' >"$work/mproj/tests/run.sh"
chmod 755 "$work/mproj/tests/run.sh"
run "$umlrun" exec --mount="$work/mproj:/src" -- /src/tests/run.sh
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = "sees hello" ]
check "--mount=HOST:GUEST runs a tree never written for umlrun"
run "$umlrun" exec --mount="$work/mproj:/src" -- sh -c 'echo x >/src/new'
[ $rc -eq 1 ] && [ ! -e "$work/mproj/new" ]
check "--mount is read-only by default"
run "$umlrun" exec --mount="$work/rwdir:/out:rw" --mount="$work/mproj" -- sh -c 'echo y >/out/f && ls /mnt/mproj'
[ $rc -eq 0 ] && [ "$(cat "$work/rwdir/f")" = y ] && [ "$(cat "$work/out")" = tests ]
check "--mount :rw writes through; without a guest path it is /mnt/NAME"
# The guest mounts the same folder again by the name the host gave it
# (hex on umlrun.mount=), then climbs out of it.
src='$(sed -n "s/.*umlrun.mount=\([0-9a-f]*\),.*/\1/p" /proc/cmdline | sed "s/../\\\\x&/g")'
run "$umlrun" exec --mount="$work/mproj:/src" -- sh -c "s=\$(printf \"$src\") &&
	mkdir -p /tmp/m /tmp/e && mount -t hostfs none /tmp/m -o \"\$s\" && ls /tmp/m &&
	{ mount -t hostfs none /tmp/e -o \"\$s/../../../../../../../etc\" && cat /tmp/e/passwd; true; }"
[ $rc -eq 0 ] && [ "$(head -n 1 "$work/out")" = tests ] && ! grep -q '^root:' "$work/out"
check "a mounted folder is no way out: .. above it is refused"
for bad in "$work/nosuch" / "$TMPDIR" "$work/mproj:/suite" "$work/mproj:/proc/x" "$work/mproj:rel"; do
	run "$umlrun" exec --mount="$bad" -- true
	[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --mount=" "$work/err" ||
		{ echo "# --mount=$bad: exit $rc"; false; } || break
done
check "a --mount of a missing folder, of /, of umlrun's own folders or over the guest's paths exits 2 with one line"
ln -sfn "$XDG_CACHE_HOME" "$work/cachelink"
run env XDG_CACHE_HOME="$work/cachelink" "$umlrun" exec --mount="$XDG_CACHE_HOME/umlrun:/c" -- true
[ $rc -eq 2 ] && grep -q "is in umlrun's cache" "$work/err"
check "the cache is known through a link in XDG_CACHE_HOME: a --mount of it is refused"
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$work/mbind/sub"
	mount --bind "$XDG_CACHE_HOME/umlrun/kernels" "$work/mbind/sub"
	run "$umlrun" exec --mount="$work/mbind:/src:rw" -- true
	umount "$work/mbind/sub"
	[ $rc -eq 2 ] && grep -q "a mount at or below .*/mbind shows umlrun.s own folders" "$work/err"
	check "a --mount folder with the cache bind-mounted below it is refused"
	mkdir -p "$work/mbind2"
	mount --bind "$XDG_CACHE_HOME/umlrun/kernels" "$work/mbind2"
	run "$umlrun" exec --mount="$work/mbind2:/k" -- true
	umount "$work/mbind2"
	[ $rc -eq 2 ] && grep -q "a mount at or below .*/mbind2 shows umlrun.s own folders" "$work/err"
	check "a --mount folder that is a bind mount of a folder of the cache is refused"
fi
# The host kernel's own file systems: through a --mount of /proc a guest
# reached /proc/PID/root, every host process's /, another guest's results
# among them (UMLRUN_CONFINE=mount-ns). Refused before boot under every
# confinement, and so is a folder with a proc mount below it.
pseudo_refused() {
	[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "the host kernel's own" "$work/err" &&
		[ ! -s "$work/out" ] && nothing_left
}
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$work/withproc/p" && mount -t proc umlrun-itest "$work/withproc/p"
fi
attack=
for confine in "" landlock mount-ns; do
	for m in /proc /proc/1 /sys /dev; do
		run env UMLRUN_CONFINE=$confine "$umlrun" exec --mount="$m:/hostproc" -- ls /hostproc/1/root/
		pseudo_refused || attack="$attack $m${confine:+($confine)}"
	done
	if mountpoint -q "$work/withproc/p" 2>/dev/null; then
		run env UMLRUN_CONFINE=$confine "$umlrun" exec --mount="$work/withproc:/src" -- ls /src/p/1/root/
		pseudo_refused && grep -q "proc is mounted at $work/withproc/p, below $work/withproc" "$work/err" ||
			attack="$attack withproc${confine:+($confine)}"
	fi
done
mountpoint -q "$work/withproc/p" 2>/dev/null && umount "$work/withproc/p"
[ -z "$attack" ] || echo "# accepted:$attack"
[ -z "$attack" ]
check "--mount of /proc, /sys, /dev or of a folder with proc mounted below it exits 2 before boot, under every confinement"
# A mount below a --mount folder: the guest's bind mount is not recursive
# (in a user namespace it failed at boot: Invalid argument). Said before boot.
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$work/withsub/sub" && mount -t tmpfs -o size=64k umlrun-itest "$work/withsub/sub"
	run "$umlrun" exec --mount="$work/withsub:/src" -- true
	r1=$rc && cp "$work/err" "$work/err1"
	if command -v setpriv >/dev/null; then
		run timeout 120 setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$work" \
			"$umlrun" exec --mount="$work/withsub:/src" -- true
	fi
	umount "$work/withsub/sub"
	[ $r1 -eq 2 ] && [ "$(wc -l <"$work/err1")" -eq 1 ] &&
		grep -q "^umlrun: --mount=$work/withsub:/src: $work/withsub has a file system mounted below it, at $work/withsub/sub" "$work/err1" &&
		[ $rc -eq 2 ] && grep -q "mounted below it, at $work/withsub/sub" "$work/err" && nothing_left
	check "a --mount folder with a mount below it exits 2 before boot, root or not, saying where"
else
	pass "a --mount folder with a mount below it # SKIP not root: cannot mount"
fi

# ---- --mem, --run and --mount: refused with one line before any guest boots ----
for mem in 16M 31M 100000G; do
	run "$umlrun" run --results="$work/nores" --mem=$mem smoke/t0001-pass.sh
	usage_line "^umlrun: --mem=$mem: .*give 32M to " || { echo "# --mem=$mem: exit $rc"; false; } || break
done
check "--mem below 32M or above the host's RAM exits 2 with one line, before a boot"
run "$umlrun" run --results="$results" --mem=32M smoke/t0001-pass.sh
[ $rc -eq 0 ]
check "--mem=32M, the least umlrun takes, boots a guest that passes its test"
run "$umlrun" run --results="$work/nores" --cpu-cost=5 --time-travel=off smoke/t0001-pass.sh
usage_line "^umlrun: --cpu-cost needs --time-travel=inf-cpu" && nothing_left
check "--cpu-cost under time travel off exits 2 with one line, no stage left (152 MB were)"
for list in 3-1 0 1,0-2 2,5-4; do
	run "$umlrun" run --results="$work/nores" --run=$list smoke/t0001-pass.sh
	usage_line "^umlrun: --run=$list: " || { echo "# --run=$list: exit $rc"; false; } || break
done
check "--run=0 or a range that runs backwards exits 2 with one line (it would skip every test)"
for bad in "$work/mproj:/data:rx" "$work/mproj:/a:b" "$work/mproj:/a:b:rw" ":/data"; do
	run "$umlrun" exec --mount="$bad" -- true
	usage_line "^umlrun: --mount=" || { echo "# --mount=$bad: exit $rc"; false; } || break
done
check "--mount with a third field other than rw, a GUEST holding ':' or no HOST exits 2 with one line"
: >"$work/mfile"
run "$umlrun" exec --mount="$work/mfile" -- true
usage_line "^umlrun: --mount=$work/mfile: .*not a folder"
check "--mount of a file exits 2 saying it is not a folder"
run "$umlrun" run --results="$work/rwdir/res" --mount="$work/rwdir:/out:rw" smoke/t0001-pass.sh
usage_line "^umlrun: --mount=$work/rwdir:/out:rw: .* holds the results folder .*/rwdir/res, which the guest could then rewrite"
check "a read-write --mount holding the results folder exits 2 (the guest could rewrite the reports)"

# A suite folder with a lib/ of its own: the project's harness.sh is added
# to it, the suite's own helpers stay, and its harness.sh would win.
mkdir -p "$work/ownlib/lib" "$work/ownlib/mine"
printf 'greet() { echo "hello from my lib"; }\n' >"$work/ownlib/lib/my.sh"
printf '#!/bin/sh\ntest_description=own\n. ../lib/harness.sh\n. "$HARNESS_SUITE_DIR/../lib/my.sh"\ntest_expect_success mine "greet | grep -q hello"\ntest_done\n' \
	>"$work/ownlib/mine/t0001-own.sh"
chmod +x "$work/ownlib/mine/t0001-own.sh"
run "$umlrun" run --results="$results" --suite-dir="$work/ownlib" mine
[ $rc -eq 0 ] && grep -q '^ok 1 mine/t0001-own.sh$' "$work/out" && [ ! -e "$work/ownlib/lib/harness.sh" ]
check "--suite-dir with a lib/ of its own: the project's harness.sh is added beside it, the folder untouched"

# ---- --plain: a folder of plain executables as a suite ----
mkdir -p "$work/plainsuite"
printf '#!/bin/sh\necho waiting; sleep 30\n' >"$work/plainsuite/waits"
printf '#!/bin/sh\nexit 4\n' >"$work/plainsuite/needs-hw"
printf '#!/bin/sh\necho broken >&2; exit 3\n' >"$work/plainsuite/broken"
echo 'not a test' >"$work/plainsuite/README"
chmod 755 "$work/plainsuite/waits" "$work/plainsuite/needs-hw" "$work/plainsuite/broken"
run "$umlrun" run --results="$results" --plain="$work/plainsuite"
[ $rc -eq 1 ] && grep -q '^not ok [0-9] plainsuite/t0001-broken.sh' "$work/out" &&
	grep -q '^    # exit status 3' "$work/out" && grep -q '^    not ok 1 broken$' "$work/out" &&
	grep -q '"name": "broken", "result": "fail"' "$results/latest/results.json" &&
	grep -q '^ok [0-9] plainsuite/t0002-needs-hw.sh # SKIP' "$work/out" &&
	grep -q '"id": "plainsuite/t0003-waits.sh", "attempt": 1, "result": "pass"' "$results/latest/results.json" &&
	grep -q '"sim_seconds": 30.0' "$results/latest/results.json" &&
	grep -q '^broken' "$results/latest/plainsuite/t0001-broken/console.log" && nothing_left
check "--plain runs a folder's executables as a suite: exit 0 passes, 4 skips, else fails"
run "$umlrun" run --results="$results" --plain="$work/mproj"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "no executable file" "$work/err" && nothing_left
check "--plain of a folder with no executable exits 2 with one line"
for bad in / "$TMPDIR" "$work" "$XDG_CACHE_HOME/umlrun/kernels"; do
	run "$umlrun" run --results="$work/nores" --plain="$bad"
	usage_line "^umlrun: --plain=$bad: " || { echo "# --plain=$bad: exit $rc"; false; } || break
done
check "--plain of /, of umlrun's own folders or one holding them exits 2 with one line, as --mount does"

# A program's name is its KTAP title and goes into the generated test
# file: one a test file could not be named is refused, one line naming
# it, exit 2, before anything is written (docs/guest.md, --plain).
mkdir -p "$work/plainbad"
printf '#!/bin/sh\nexit 1\n' >"$work/plainbad/broken # SKIP"
chmod 755 "$work/plainbad/broken # SKIP"
run "$umlrun" run -j1 --results="$work/plainbad-results" --plain="$work/plainbad"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
	[ ! -e "$work/plainbad-results" ] &&
	grep -q "^umlrun: '$work/plainbad/broken # SKIP': a --plain program's name may hold only ASCII letters, digits and '.', '_', '+', '-'; rename it" "$work/err" &&
	nothing_left
check "--plain: a program named 'broken # SKIP' exits 2, one line naming it, no results folder"
mv "$work/plainbad/broken # SKIP" "$work/plainbad/n
not ok 7 forged\$(touch pwned)"
run "$umlrun" list --plain="$work/plainbad"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
	grep -q "plainbad/n\\\\nnot ok 7 forged\$(touch pwned)': a --plain program's name" "$work/err" &&
	[ ! -e pwned ] && [ ! -e "$work/plainbad/pwned" ] && nothing_left
check "--plain: a program name with a newline or \$(...) is refused on one line, the newline escaped"

# ---- --seeds: which guest random seeds fail, and the replay ----
run "$umlrun" run $R -q --seeds=3-10 -j2 iseed
replay=$(sed -n 's/^# replay the first: umlrun run //p' "$work/out")
listed=$(sed -n 's/^# seeds: [1-8] of 8 runs failed://p' "$work/out" | tr ' ' '\n' | sed -n 's/^iseed\/t0001-coin.sh@//p')
[ $rc -eq 1 ] && [ -n "$listed" ] && [ "$listed" = "$(printf '%s\n' "$listed" | sort -n)" ] &&
	[ "$(grep -c '"seed": ' "$results/latest/results.json")" -eq 8 ] && [ -n "$replay" ]
check "--seeds runs a test under each seed and lists the failing ones, in the seeds' order"
unnamed=
for seed in 3 4 5 6 7 8 9 10; do
	[ -f "$results/latest/iseed/t0001-coin.$seed/ktap.log" ] &&
		grep -q "^\(not \)\{0,1\}ok [1-8] iseed/t0001-coin.sh@$seed\$" "$work/out" &&
		grep -q "<testsuite name=\"iseed/t0001-coin.sh@$seed\"" "$results/latest/junit.xml" ||
		unnamed="$unnamed $seed"
done
[ -z "$unnamed" ]
check "each seed's run is named by its seed: result line ID@SEED, folder ID.SEED, junit suite"
first=$(sed -n 's/.*--random-seed=\([0-9]*\) .*/\1/p' "$work/out" | head -n 1)
byte=$(grep -h "first random byte" "$results/latest/iseed/t0001-coin.$first/ktap.log")
# shellcheck disable=SC2086 # the printed command, as a user pastes it
run "$umlrun" run $replay
[ $rc -eq 1 ] && grep -qx "$byte" "$results/latest/iseed/t0001-coin/ktap.log"
check "the printed replay command fails again, with the same random byte"
run "$umlrun" run $R --seeds=9-1 iseed
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --seeds=9-1: give a range" "$work/err"
check "--seeds=9-1 exits 2 with one line"
# Outside inf-cpu the host's timing varies every run: a seed replays nothing.
run "$umlrun" run $R -q --time-travel=off --seeds=3-4 -j2 itest/t0002-fail.sh
[ $rc -eq 1 ] && grep -q "^# seeds: 2 of 2 runs failed: itest/t0002-fail.sh@3 itest/t0002-fail.sh@4" "$work/out" &&
	! grep -q "replay" "$work/out" && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "^umlrun: warning: --seeds under --time-travel=off: only inf-cpu replays a seed" "$work/err"
check "--seeds under --time-travel=off warns in one line that only inf-cpu replays, prints no replay"

# ---- --cpu-cost: a per-system-call cost that seeds explore ----
# Without it no update is ever lost (work takes no simulated time);
# with it, under some seeds, and a seed replays its interleaving exactly.
run "$umlrun" run $R -q --seeds=1-4 -j2 icost
[ $rc -eq 0 ]
check "without --cpu-cost the tick race loses no update under any seed"
run "$umlrun" run $R -q --cpu-cost=300,jitter=50 --seeds=1-12 -j2 icost
replay=$(sed -n 's/^# replay the first: umlrun run //p' "$work/out")
[ $rc -eq 1 ] && grep -q "^# seeds: [0-9]* of 12 runs failed: icost/t0001-tickrace.sh@" "$work/out" &&
	! grep -q "^# seeds: 12 of 12" "$work/out" && [ -n "$replay" ] &&
	grep -q '"cpu_cost": "300,jitter=50"' "$results/latest/results.json"
check "--cpu-cost: the tick race loses updates under some seeds, not all"
hashes=$(cat "$results"/latest/icost/t0001-tickrace.*/ktap.log | grep -c '^# log_hash=' )
distinct=$(cat "$results"/latest/icost/t0001-tickrace.*/ktap.log | grep '^# log_hash=' | sort -u | wc -l)
[ "$hashes" -eq 12 ] && [ "$distinct" -gt 1 ]
check "--cpu-cost: other seeds, other interleavings ($distinct of 12 distinct)"
first=$(sed -n 's/.*--random-seed=\([0-9]*\) .*/\1/p' "$work/out" | head -n 1)
hash=$(grep -h '^# log_hash=' "$results/latest/icost/t0001-tickrace.$first/ktap.log")
# shellcheck disable=SC2086 # the printed command, as a user pastes it
run "$umlrun" run --repeat=2 --check-determinism $replay
[ $rc -eq 1 ] && [ "$(grep -h '^# log_hash=' "$results"/latest/icost/t0001-tickrace.*/ktap.log | sort -u)" = "$hash" ]
check "--cpu-cost: the printed replay loses updates again, with the same interleaving, twice"
run "$umlrun" run $R --cpu-cost=2000,jitter=101 icost
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --cpu-cost=2000,jitter=101: give NS" "$work/err"
check "--cpu-cost with a jitter above 100 % exits 2 with one line"
run "$umlrun" run $R --time-travel=basic --cpu-cost=2000 icost
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^umlrun: --cpu-cost needs --time-travel=inf-cpu" "$work/err"
check "--cpu-cost outside inf-cpu exits 2 with one line"

# ---- where the stage and the cache live ----
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

# ---- clock and determinism ----
run "$umlrun" exec --start=2030-01-01T00:00:00Z -- date +%s
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = 1893456000 ]
check "--start sets the guest clock (ISO-8601)"
run "$umlrun" exec --start=1000000000 -- date +%s
[ "$(cat "$work/out")" = 1000000000 ]
check "--start sets the guest clock (Unix seconds)"
run "$umlrun" run $R --repeat=3 --check-determinism itest/t0006-clock.sh
[ $rc -eq 0 ] && grep -q "^ok 1 itest/t0006-clock.sh$" "$work/out" &&
	grep -q "^ok 3 itest/t0006-clock.sh (run 3)$" "$work/out"
check "an hour of sleep gives identical output on 3 runs (told apart on their result lines)"
run "$umlrun" run $R --time-travel=off --repeat=2 --check-determinism itest/t0005-random.sh
[ $rc -eq 1 ] && grep -q "not deterministic: run 1 and run 2 differ at result output line 3" "$work/out"
check "--check-determinism fails a test whose output differs, showing where"

# ---- several guests, selection, retries, compare ----
run "$umlrun" run $R -j2 itest/t0001-pass.sh itest/t0002-fail.sh itest/t0006-clock.sh
# Every test's block (its "# id" header to its result line) is contiguous.
awk '/^# itest\/t[0-9]+-[a-z-]+\.sh$/ { if (open) bad = 1; open = $2 }
	/^(not )?ok [0-9]+ itest\// { if ($0 !~ open) bad = 1; open = "" }
	END { exit bad || open != "" }' "$work/out" && [ $rc -eq 1 ]
check "-j2 keeps each test's KTAP block whole"
if [ "$(nproc)" -ge 2 ]; then
	# Real time: the guest sleeps 6 s while we look at its processes.
	"$umlrun" exec --time-travel=off -- sleep 6 >"$work/out" 2>"$work/err" &
	bg=$!
	pinned=0 unpinned=0 tries=0
	while [ $pinned -eq 0 ] && [ $tries -lt 50 ]; do
		sleep 0.1
		tries=$((tries + 1))
		for p in $(pgrep -f "$TMPDIR/umlrun.*/linux"); do
			cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$p/status 2>/dev/null)
			case $cpus in
			'') ;;
			*[,-]*) unpinned=$((unpinned + 1)) ;;
			*) pinned=$((pinned + 1)) ;;
			esac
		done
	done
	wait $bg
	rc=$?
	[ $rc -eq 0 ] && [ $pinned -gt 0 ] && [ $unpinned -eq 0 ]
	check "a guest's processes are pinned to one CPU"
else
	pass "a guest's processes are pinned to one CPU # SKIP one CPU only"
fi
# ---- --overlay: the user's own builds in the guest ----
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

# ---- the guest's random numbers ----
rand() {
	"$umlrun" exec "$@" -- sh -c 'head -c 16 /dev/urandom | od -An -tx1' 2>"$work/err"
}
r1=$(rand) && r2=$(rand) && [ -n "$r1" ] && [ "$r1" = "$r2" ]
check "the guest's random numbers are the same in every run"
r3=$(rand --random-seed=7) && r4=$(rand --random-seed=7) && [ "$r3" = "$r4" ] && [ "$r3" != "$r1" ]
check "--random-seed=N gives other random numbers, the same each time"
r5=$(rand --random-seed=random) &&
	seed=$(sed -n 's/.*guest random seed: \([0-9]*\) (replay with --random-seed=[0-9]*)$/\1/p' "$work/err") &&
	[ -n "$seed" ] && [ "$(rand --random-seed="$seed")" = "$r5" ]
check "--random-seed=random prints the seed that replays it"
# The console (the kernel's log, with its simulated time stamps) after its
# first line, the host's command line with the stage's name.
run "$umlrun" run --results="$work/same1" --suite-dir="$suites" itest/t0006-clock.sh
run "$umlrun" run --results="$work/same2" --suite-dir="$suites" itest/t0006-clock.sh
tail -n +2 "$work/same1/latest/itest/t0006-clock/console.log" >"$work/c1"
tail -n +2 "$work/same2/latest/itest/t0006-clock/console.log" >"$work/c2"
[ -s "$work/c1" ] && cmp -s "$work/c1" "$work/c2"
check "two runs of a test leave byte-identical consoles"
run "$umlrun" exec --random-seed=-1 -- true
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "random-seed=-1: give a whole number" "$work/err"
check "a bad --random-seed exits 2 with one line"

# A test's mode-000 file and folder: readable by the run's owner after.
mkdir -p "$work/psuites/p"
cat >"$work/psuites/p/t0001-private.sh" <<'EOF'
#!/bin/sh
. ../lib/harness.sh
test_expect_success 'private artifacts' '
	mkdir "$UMLRUN_ARTIFACTS/d" && echo y >"$UMLRUN_ARTIFACTS/d/f" && echo x >"$UMLRUN_ARTIFACTS/key" &&
	chmod 000 "$UMLRUN_ARTIFACTS/key" "$UMLRUN_ARTIFACTS/d/f" "$UMLRUN_ARTIFACTS/d"'
test_done
EOF
chmod +x "$work/psuites/p/t0001-private.sh"
run "$umlrun" run --results="$results" --suite-dir="$work/psuites" p
a=$results/latest/p/t0001-private/artifacts
[ $rc -eq 0 ] && [ "$(stat -c %a "$a/key")" = 600 ] && [ "$(stat -c %a "$a/d/f")" = 600 ] &&
	[ "$(stat -c %a "$a/d")" = 700 ] && cp -RL "$results/latest" "$work/pcopy"
check "a test's mode-000 files and folders come out readable by their owner (cp -R of the run works)"

# ---- the harness's own options, from the host ----
mkdir -p "$work/hsuites/h"
cat >"$work/hsuites/h/t0001-two-fail.sh" <<'EOF'
#!/bin/sh
test_description='two failing tests'
. ../lib/harness.sh
test_expect_success 'the first fails' 'echo first-body && false'
test_expect_success 'the second fails' 'false'
test_done
EOF
chmod +x "$work/hsuites/h/t0001-two-fail.sh"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" --trace --immediate h
[ $rc -eq 1 ] && grep -q "not ok 1 the first fails" "$work/out" && ! grep -q "the second fails" "$work/out" &&
	grep -q "^+ echo first-body" "$results/latest/h/t0001-two-fail/console.log"
check "--trace and --immediate reach the harness in the guest (set -x, stop at the first failure)"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" h
[ $rc -eq 1 ] && grep -q "not ok 2 the second fails" "$work/out" &&
	! grep -q "^+ echo first-body" "$results/latest/h/t0001-two-fail/console.log"
check "without them, every test runs untraced"
# KTAP's order: each block's plan just after its version line and its
# name (the harness prints the plan last), as KUnit writes a block.
plan_follows_version() {
	grep -q '^    KTAP version 1' "$1" &&
		awk -v id="$2" '/^    KTAP version/ { v = NR; next }
			v && NR == v + 1 { if ($0 != "    # Subtest: " id) bad = 1; next }
			v && NR == v + 2 { if ($0 !~ /^    1\.\.[0-9]/) bad = 1; v = 0 }
			END { exit bad }' "$1"
}
plan_follows_version "$work/out" h/t0001-two-fail.sh &&
	plan_follows_version "$results/latest/ktap.txt" h/t0001-two-fail.sh &&
	[ "$(grep -c '^    1\.\.' "$results/latest/ktap.txt")" -eq 1 ] &&
	[ "$(tail -n 1 "$results/latest/h/t0001-two-fail/ktap.log")" = 1..2 ]
check "stdout and ktap.txt put a harness file's plan after its version line, as KTAP wants (ktap.log keeps the guest's order)"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" --run=2 h
[ $rc -eq 1 ] && grep -q "ok 1 the first fails # SKIP not selected by --run=2" "$work/out" &&
	grep -q "not ok 2 the second fails" "$work/out"
check "--run=LIST runs only those tests of the file"
run "$umlrun" run --results="$results" --suite-dir="$work/hsuites" --run=2-x h
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "want test numbers and ranges" "$work/err"
check "a malformed --run list exits 2 with one line"

run "$umlrun" run $R --retry=2 itest/t0002-fail.sh
[ $rc -eq 1 ] && grep -q "retrying (2 of 2)" "$work/out" &&
	[ -d "$results/latest/itest/t0002-fail.try1" ] && grep -q "^not ok 1 itest/t0002-fail.sh" "$work/out"
check "--retry runs a failing test again and keeps each try's folder"
[ "$(grep -c '^    KTAP version' "$results/latest/ktap.txt")" -eq 1 ] &&
	grep -q "retrying (1 of 2); its lines are in .*/itest/t0002-fail.try1/ktap.log" "$results/latest/ktap.txt" &&
	grep -q "^not ok 2 second" "$results/latest/itest/t0002-fail.try1/ktap.log"
check "a failed try's lines are in its folder, not in the run's KTAP (one block per result line)"
run "$umlrun" run $R --retry=2 itest/t0008-flaky.sh
[ $rc -eq 0 ] && grep -q "^ok 1 itest/t0008-flaky.sh # flaky: failed 1 time before passing" "$work/out" &&
	grep -q '"result": "flaky"' "$results/latest/results.json" &&
	grep -q '"failed_attempts": 1' "$results/latest/results.json" &&
	grep -q '<flakyFailure message="flaky: failed 1 time, then passed (--retry)">see itest/t0008-flaky.try1/console.log</flakyFailure>' "$results/latest/junit.xml" &&
	[ -f "$results/latest/itest/t0008-flaky.try1/console.log" ]
check "a test that fails, then passes on a retry, is reported flaky (junit.xml too)"
run "$umlrun" run $R --list --filter='itest/t000[12]*' --exclude='*fail*'
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = itest/t0001-pass.sh ]
check "--filter and --exclude select by test id"
run "$umlrun" run $R --filter='itest/t0001*' --filter='itest/typo*' itest
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
	grep -q "^umlrun: --filter='itest/typo\*' matches no test file id" "$work/err" && nothing_left
check "a --filter that matches nothing exits 2 (a typo must not pass as an empty run)"
run "$umlrun" run $R --exclude='itest/*' itest
[ $rc -eq 2 ] && grep -q "^umlrun: --filter and --exclude leave no test file to run" "$work/err"
check "--exclude that leaves nothing exits 2"
run "$umlrun" run $R --list --shuffle=42 itest
cp "$work/out" "$work/order1"
run "$umlrun" run $R --list --shuffle=42 itest
"$umlrun" list --suite-dir="$suites" itest >"$work/plain"
cmp -s "$work/out" "$work/order1" && ! cmp -s "$work/out" "$work/plain" &&
	[ "$(sort "$work/out")" = "$(sort "$work/plain")" ]
check "--shuffle=SEED gives the same order every time"
run "$umlrun" list --suite-dir="$suites" --shuffle itest
seed=$(sed -n 's/^# shuffle seed: \([0-9]*\) (replay with --shuffle=\1)$/\1/p' "$work/err")
cp "$work/out" "$work/order2"
run "$umlrun" list --suite-dir="$suites" --shuffle="$seed" itest
[ -n "$seed" ] && cmp -s "$work/out" "$work/order2" && ! grep -q seed "$work/out"
check "list --shuffle prints its seed on stderr, and that seed replays the order"
run "$umlrun" compare --json $R itest/t0007-short-sleep.sh
[ $rc -eq 0 ] && grep -q '"sim_seconds": 2.0' "$work/out" &&
	awk -F'"speedup": ' '/"speedup"/ { split($2, a, "[},]"); if (a[1] + 0 < 2) exit 1 }' "$work/out"
check "compare runs off and inf-cpu and reports a speedup"

# ---- shards and merge ----
Q="--filter=itest/t000[1267]*"
run "$umlrun" run $R "$Q" itest
cp -R "$(readlink -f "$results/latest")" "$work/whole"
run "$umlrun" run $R --rerun-failed
[ $rc -eq 1 ] && grep -q "^not ok 1 itest/t0002-fail.sh" "$work/out" && [ "$(grep -c "^\(not \)\?ok [0-9]" "$work/out")" -eq 1 ]
check "--rerun-failed runs only what failed last time"
before=$(readlink "$results/latest")
run "$umlrun" run --results="$results" --rerun-failed
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "^umlrun: --rerun-failed: the last run failed itest/t0002-fail.sh, which is not among the tests here" "$work/err" &&
	[ "$(readlink "$results/latest")" = "$before" ]
check "--rerun-failed without the --suite-dir the failed run had exits 2 naming the test, latest kept"
"$umlrun" run -q -j1 $R --time-travel=off itest >/dev/null 2>&1 &
p=$!
sleep 2
kill -TERM $p
wait $p
rc=$?
passed=$(grep -c '"attempt": [0-9]*, "result": "\(pass\|skip\|flaky\)"' "$results/latest/results.json")
run "$umlrun" list $R --rerun-failed
[ $rc -eq 0 ] && [ "$(wc -l <"$work/out")" -eq $((8 - passed)) ] &&
	grep -q '"not_run": \["itest/' "$results/latest/results.json"
check "an interrupted run lists what it never started (not_run), and --rerun-failed runs those too"
run "$umlrun" run $R itest/t0001-pass.sh
before=$(readlink "$results/latest")
run "$umlrun" run $R --rerun-failed
[ $rc -eq 0 ] && grep -q "^umlrun: --rerun-failed: the last run failed nothing; nothing to rerun" "$work/err" &&
	[ "$(readlink "$results/latest")" = "$before" ]
check "--rerun-failed after a run that failed nothing exits 0 and keeps that run as latest"
for k in 1 2 3; do
	"$umlrun" run $R "$Q" --shard=$k/3 itest >"$work/shard$k.out" 2>&1
	cp -R "$(readlink -f "$results/latest")" "$work/shard$k"
done
# Each shard reruns its own failures (they were split again once, to other shards).
reran=0
for k in 1 2 3; do
	"$umlrun" run $R "$Q" --results="$work/rr$k" --shard=$k/3 itest >/dev/null 2>&1
	"$umlrun" run $R --results="$work/rr$k" --shard=$k/3 --rerun-failed >"$work/rr.out" 2>&1
	reran=$((reran + $(grep -c "^not ok [0-9]* itest/" "$work/rr.out")))
done
run "$umlrun" run $R --results="$work/rr1" --shard=2/3 --rerun-failed
[ $reran -eq 1 ] && [ $rc -eq 2 ] && grep -q "the last run in .*rr1 was shard 1/3" "$work/err"
check "--rerun-failed --shard=K/N reruns that shard's failures, and only after a run of that shard"
run "$umlrun" merge --output="$work/merged" "$work/shard1" "$work/shard2" "$work/shard3"
# What must match: each test's id, result and subtests (not timings, folders).
same() {
	grep '^    {"id"' "$1/results.json" | sed 's/"wall_seconds": [0-9.]*, //; s/"cost": {[^}]*}, //; s/"dir": "[^"]*", //; s/,$//' | sort
}
[ $rc -eq 1 ] && [ "$(same "$work/whole")" = "$(same "$work/merged")" ] &&
	[ -f "$work/merged/junit.xml" ] && [ -f "$work/merged/ktap.txt" ]
check "3 shards merged give the results of one whole run (and its exit status)"
[ "$(cat "$work/shard1.out" "$work/shard2.out" "$work/shard3.out" | grep -c "^\(not \)\?ok [0-9]* itest")" -eq 4 ]
check "every test ran in exactly one shard"
# A merge of this PID namespace that is gone (its pid free): swept at once.
killed="$work/merged-s.merging-999999999.ns$(stat -L -c %i /proc/self/ns/pid)"
mkdir -p "$killed/x"
run "$umlrun" merge --output="$work/merged-s" "$work/shard1" "$work/shard2" "$work/shard3"
[ $rc -eq 1 ] && [ -d "$work/merged-s" ] && [ ! -e "$killed" ]
check "merge removes the half-made folder a killed merge into the same output left"
run "$umlrun" merge --output="$work/merged2" "$work/shard1" "$work/shard3"
[ $rc -eq 2 ] && grep -q "shard 2" "$work/err" && [ ! -e "$work/merged2" ]
check "merge refuses a missing shard, naming it, and writes nothing"
run "$umlrun" merge --output="$work/merged3" "$work/shard1" "$work/shard1" "$work/shard2" "$work/shard3"
[ $rc -eq 2 ] && [ ! -e "$work/merged3" ]
check "merge refuses a shard given twice"
# A crafted shard (a CI job merging shards from untrusted runners): merge
# follows no link below a shard's folder and copies none, writes control
# characters from results.json as \xHH, and refuses numbers no run writes.
# Shard k has a test (one of the 3 may have none); the copies replace it.
for k in 1 2 3; do
	grep -q '^    {"id"' "$work/shard$k/results.json" && break
done
others=$(for j in 1 2 3; do [ $j -eq "$k" ] || echo "$work/shard$j"; done)
# A test folder of another shard, as a link in shard k's copy.
victim=
for s in $others; do
	victim=$(cd "$s" && ls -d -- */*/ 2>/dev/null | head -n 1)
	[ -n "$victim" ] && break
done
victim=${victim%/}
cp -R "$work/shard$k" "$work/evil1"
mkdir "$work/outside"
mkdir -p "$(dirname "$work/evil1/${victim:-itest/planted}")"
ln -s "$work/outside" "$work/evil1/${victim:-itest/planted}"
# shellcheck disable=SC2086 # $others: two folder names without spaces
run "$umlrun" merge --output="$work/merged4" "$work/evil1" $others
[ $rc -eq 2 ] && grep -q "evil1/${victim:-itest/planted} is a symbolic link: merge neither follows nor copies one" "$work/err" &&
	[ "$(wc -l <"$work/err")" -eq 1 ] && [ -z "$(ls -A "$work/outside")" ] && [ ! -e "$work/merged4" ]
check "merge refuses a shard holding a symbolic link, and writes nothing through it"
# merge_crafted NAME SED: shard k copied to NAME, SED applied to its
# results.json, merged with the others into merged-NAME.
merge_crafted() {
	cp -R "$work/shard$k" "$work/$1"
	sed -i "$2" "$work/$1/results.json"
	# shellcheck disable=SC2086 # $others: two folder names without spaces
	run "$umlrun" merge --output="$work/merged-$1" "$work/$1" $others
}
# Its first test made a crash (junit.xml shows a crash's reason), with ESC, BEL and C1 CSI.
merge_crafted evil2 '0,/"result": "[a-z]*", "reason": "[^"]*"/s//"result": "crash", "reason": "ERROR \\u001b[2J\\u0007\\u009b"/'
esc=$(printf '\033')
[ $rc -eq 3 ] && grep -qF ' # ERROR \x1b[2J\x07\xc2\x9b' "$work/merged-evil2/ktap.txt" &&
	grep -qF 'ERROR \x1b[2J\x07\xc2\x9b' "$work/merged-evil2/junit.xml" &&
	! grep -q "$esc" "$work/merged-evil2/ktap.txt" "$work/merged-evil2/junit.xml"
check "merge writes a crafted reason's control characters as \\xHH in ktap.txt and junit.xml"
merge_crafted evil3 '0,/"attempt": 1,/s//"attempt": 2147483647,/'
[ $rc -eq 2 ] && grep -q 'evil3/results.json: tests\[0\]: "attempt" must be from 1 to 1000000, not 2147483647' "$work/err" &&
	[ ! -e "$work/merged-evil3" ]
check "merge refuses an attempt no run makes, naming the file and the field"
merge_crafted seed7 's/"random_seed": 0,/"random_seed": 7,/'
[ $rc -eq 2 ] && grep -q "seed7 ran with --random-seed 7 but .* with 0: not shards of one run" "$work/err" &&
	[ ! -e "$work/merged-seed7" ]
check "merge refuses shards run with another --random-seed (the merged run names one)"
merge_crafted sel 's/"selection": "\([0-9]*\):/"selection": "9\1:/'
[ $rc -eq 2 ] && grep -q "split the test files 9[0-9]*:[0-9a-f]* (count:hash) but .* split [0-9]*:[0-9a-f]*: not shards of one run" "$work/err"
check "merge refuses shards that split other test files (tests would fall between them)"
# A shard run on another host: merged, the run's host says the shards differ.
grep -q '"host_cpu": "[^"]*, [0-9]* CPUs\{0,1\}",' "$work/shard$k/results.json" &&
	merge_crafted otherhost 's/"host_cpu": "[^"]*"/"host_cpu": "Other CPU, 64 CPUs"/' &&
	grep -q '"host_cpu": "mixed (see each shard' "$work/merged-otherhost/results.json" &&
	grep -q '<dt>host</dt><dd>mixed' "$work/merged-otherhost/report.html"
check "results.json names the host's CPU, and merge of shards from two hosts says they are mixed"
cp -R "$work/shard$k" "$work/nodirs"
rm -rf "$work/nodirs/itest"
# shellcheck disable=SC2086
run "$umlrun" merge --output="$work/merged8" "$work/nodirs" $others
# 3 when every test passed, 1 when one failed (a failure is the more serious).
[ $rc -eq "$(grep -q '"result": "fail"' "$work/merged8/results.json" && echo 1 || echo 3)" ] &&
	grep -q '"lost": "its folder itest/[^ ]* was not in [^ ]*nodirs when merged"' "$work/merged8/results.json"
check "merge of a shard whose test folders are gone marks those tests lost (exit 3 unless a test failed)"

# ---- exec ----
# linux runs under umlrun's seccomp filter (the host calls a test's own
# kernel module could make: keyrings, connect, vsock; tests/unit/test_hostcalls.c).
"$umlrun" exec --time-travel=off -- sleep 3 >/dev/null 2>&1 &
u=$!
sleep 1.5
filtered=no
for p in $(pgrep -P "$u") $(for c in $(pgrep -P "$u"); do pgrep -P "$c"; done); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = linux ] &&
		grep -q '^Seccomp_filters:[[:space:]]*[1-9]' "/proc/$p/status" && filtered=yes
done
wait "$u"
[ $filtered = yes ]
check "the guest's linux process runs under a seccomp filter"
run "$umlrun" exec -- sh -c 'echo out; echo err >&2; exit 7'
[ $rc -eq 7 ] && [ "$(cat "$work/out")" = out ] && grep -q '^err$' "$work/err"
check "exec streams stdout and stderr and exits with the command's status"
run "$umlrun" exec -- sh -c 'touch /suite/x'
[ $rc -eq 1 ] && grep -q "Read-only file system" "$work/err"
check "the suites are read-only in the guest"
run "$umlrun" exec -- /no/such/program
[ $rc -eq 127 ]
check "exec of a missing program exits 127"

# ---- the interactive shell, driven through a terminal (tmux) ----
# wait_screen TEXT: until the shell's screen shows TEXT (at most 30 s).
wait_screen() {
	i=0
	while ! tmux -L umlrun-itest capture-pane -p -t sh 2>/dev/null | grep -q "$1"; do
		[ $i -ge 150 ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}
tmux -L umlrun-itest new-session -d -s sh -x 100 -y 30 \
	"$umlrun shell --suite-dir=$suites; echo shell-exit=\$?; sleep 30"
wait_screen '/suite #' && tmux -L umlrun-itest send-keys -t sh 'echo marker-$((6*7)); ls' Enter &&
	wait_screen 'marker-42' && tmux -L umlrun-itest send-keys -t sh 'exit' Enter &&
	wait_screen 'shell-exit=0' && tmux -L umlrun-itest capture-pane -p -t sh | grep -q itest
check "umlrun shell gives an interactive shell in /suite that exits cleanly"
tmux -L umlrun-itest kill-server 2>/dev/null
nothing_left
check "nothing is left behind after the shell"

# ---- SIGTERM to umlrun itself ----
# wait_for_header: until the test's header line is out (at most 30 s).
wait_for_header() {
	i=0
	while ! grep -q "^# itest/t0006-clock.sh" "$work/out" 2>/dev/null; do
		[ $i -ge 300 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
"$umlrun" run $R --time-travel=off itest/t0006-clock.sh >"$work/out" 2>"$work/err" &
pid=$!
wait_for_header && sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ]
check "SIGTERM ends umlrun with 128+15"
nothing_left
check "SIGTERM leaves no process, umid or staging folder behind"
grep -q '"result": "interrupted"' "$results/latest/results.json"
check "SIGTERM still writes results.json with the interrupted test"
"$umlrun" run $R --time-travel=off itest/t0006-clock.sh >"$work/out" 2>"$work/err" &
pid=$!
wait_for_header && sleep 1
kill -USR1 $pid
wait $pid
rc=$?
[ $rc -eq 138 ] && grep -q '"result": "interrupted"' "$results/latest/results.json" &&
	grep -q '"exit_code": 138' "$results/latest/results.json" && nothing_left
check "SIGUSR1 (any signal that would end umlrun) ends the run as SIGTERM does, results.json written"
# A reader that goes away (| head): SIGPIPE ends the run like SIGTERM.
rc=$( { "$umlrun" run $R --time-travel=off itest/t0007-short-sleep.sh 2>"$work/err"; echo $? >"$work/rc"; } | head -n 1 >/dev/null; cat "$work/rc")
[ "$rc" -eq 141 ] && grep -q '"exit_code": 141' "$results/latest/results.json" && nothing_left
check "a closed stdout (| head) ends umlrun with 128+13, results.json written, nothing left"
run sh -c '"$1" run $2 itest/t0001-pass.sh >/dev/full' sh "$umlrun" "$R"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write the results to stdout: No space left on device (they are in " "$work/err" &&
	grep -q '"exit_code": 3' "$results/latest/results.json"
check "result lines that cannot be written to stdout (/dev/full) exit 3, the run folder has them"
run sh -c '"$1" list $2 >/dev/full' sh "$umlrun" "--suite-dir=$suites"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write the list to stdout: No space left on device" "$work/err"
check "a list that cannot be written to stdout (/dev/full) exits 3, saying so"
run sh -c '"$1" doctor >/dev/full' sh "$umlrun"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write to stdout: No space left on device" "$work/err"
check "doctor (any command) whose output cannot be written to stdout exits 3, saying so"
run sh -c '"$1" exec -- echo hi >/dev/full' sh "$umlrun"
[ $rc -eq 3 ] && grep -q "^umlrun: warning: the command's output could not be written to stdout: No space left on device" "$work/err"
check "exec whose output cannot be written (/dev/full) exits 3, saying so"
# Closed descriptors (>&-): the first pipe or signalfd took their place once
# (the compiler's version read as empty, a new kernel build; exec hung).
run sh -c 'timeout 60 "$1" exec -- true <&- >&-' sh "$umlrun"
[ $rc -eq 0 ] && ! grep -q building "$work/err"
check "exec with stdin and stdout closed runs on the cached kernel"
run sh -c 'timeout 60 "$1" exec -- echo hi >&-' sh "$umlrun"
[ $rc -eq 3 ] && grep -q "could not be written to stdout: Bad file descriptor" "$work/err"
check "exec with stdout closed and output to write exits 3 (it hung)"
run prlimit --as=200000000 "$umlrun" run $R itest/t0001-pass.sh
[ $rc -eq 3 ] && grep -q "# ERROR the host refused the guest.s memory (setup_physmem - mapping .*): a lower --mem, or a higher ulimit -v" "$work/out"
check "a guest whose memory the host refuses (ulimit -v) is a crash that says why"
run sh -c 'timeout 60 "$1" run $2 itest/t0001-pass.sh >&-' sh "$umlrun" "$R"
[ $rc -eq 3 ] && grep -q "^umlrun: cannot write the results to stdout: Bad file descriptor" "$work/err" &&
	[ "$(head -n 1 "$results/latest/ktap.txt")" = "KTAP version 1" ] &&
	[ "$(grep -c "^KTAP version 1" "$results/latest/ktap.txt")" -eq 1 ]
check "run with stdout closed exits 3; ktap.txt holds the run once (the results went into it)"
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
# A reader that stops reading (a pager left open): the wall-clock limit
# still ends the test, the reports are written, and SIGTERM still ends
# umlrun while the reader holds the rest of the output.
mkdir -p "$work/flood/fl"
printf '#!/bin/sh\necho "KTAP version 1"\necho "1..1"\nyes "# a flood of diagnostics"\n' >"$work/flood/fl/t0001-flood.sh"
chmod +x "$work/flood/fl/t0001-flood.sh"
rm -f "$work/flood.rc"
( "$umlrun" run -v --results="$work/floodres" --suite-dir="$work/flood" --wall-timeout=4 fl 2>/dev/null
	echo $? >"$work/flood.rc" ) | sleep 60 &
reader=$!
i=0
while [ ! -f "$work/floodres/latest/results.json" ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
pkill -TERM -f -- "--results=$work/floodres"
i=0
while [ ! -f "$work/flood.rc" ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
kill "$reader" 2>/dev/null # the pipeline's last process: the reader
[ "$(cat "$work/flood.rc" 2>/dev/null)" = 143 ] &&
	grep -q '"result": "timeout"' "$work/floodres/latest/results.json" && nothing_left
check "a reader that stops reading stdout: the wall-clock limit holds, reports are written, SIGTERM ends umlrun (143)"
nohup "$umlrun" exec --time-travel=off -- sleep 3 >"$work/nohup.out" 2>&1 &
p=$!
sleep 1.5
kill -HUP $p
wait $p
rc=$?
[ $rc -eq 0 ] && nothing_left
check "nohup: the SIGHUP its parent set to be ignored stays ignored (the command runs to its end)"
# ^Z: the guest stops with umlrun, and the wall-clock limit waits (it fired
# while stopped). Under bash's job control, as from a terminal: umlrun's
# group is not orphaned, so a SIGTSTP stops it (elsewhere it is dropped).
tstp_state=$(bash -c 'set -m
	"$1" exec --time-travel=off --wall-timeout=4 -- sleep 2 >"$2/out" 2>"$2/err" &
	p=$!
	sleep 1
	kill -TSTP $p
	sleep 5
	echo "$(ps -o stat= -p $p) $(for l in $(pgrep -f "$3/umlrun\..*/linux"); do ps -o stat= -p "$l"; done)"
	kill -CONT $p
	rc=147
	# bash reports the stop first (128+SIGSTOP), then the end.
	while [ $rc -eq 147 ]; do wait $p; rc=$?; done
	echo "rc=$rc"' tstp "$umlrun" "$work" "$TMPDIR" 2>/dev/null)
rc=$(echo "$tstp_state" | sed -n 's/^rc=//p')
[ "$rc" = 0 ] && case $tstp_state in T*" T"*) true ;; *) false ;; esac && nothing_left
check "^Z (SIGTSTP) stops the guest with umlrun and pauses its wall-clock limit: fg, and it ends as it would have ($(echo $tstp_state))"
# umlrun shell on a terminal (script(1) gives it one): a guest that panics
# leaves the terminal as it found it, echo and line editing on.
(sleep 3; echo 'echo c >/proc/sysrq-trigger'; sleep 4) |
	timeout 60 script -qc "sh -c '\"$umlrun\" shell >\"$work/shell.out\" 2>&1; stty -a'" /dev/null >"$work/tty" 2>&1
grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$work/shell.out" &&
	grep -q ' icanon' "$work/tty" && grep -q ' echo ' "$work/tty" && nothing_left
check "umlrun shell: a guest that panics leaves the terminal's settings as they were"

# ---- SIGKILL to umlrun: nothing can clean up at once, so the kernel and
# the next umlrun do ----
"$umlrun" run $R --time-travel=off itest/t0006-clock.sh >"$work/out" 2>"$work/err" &
pid=$!
wait_for_header && sleep 1
kill -KILL $pid
wait $pid
i=0
while pgrep -f "$TMPDIR/umlrun" >/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ "$(id -u)" -eq 0 ]; then
	! pgrep -f "$TMPDIR/umlrun" >/dev/null
	check "SIGKILL to umlrun leaves no guest process (PID namespace, parent-death signal)"
fi
run "$umlrun" exec -- true
nothing_left
check "the next umlrun removes the staging folder a SIGKILLed one left"
leftover="$(readlink -f "$results/latest")/results.json.tmp-999999999.ns$(stat -L -c %i /proc/self/ns/pid)"
: >"$leftover"
run "$umlrun" run $R itest/t0001-pass.sh
[ $rc -eq 0 ] && [ ! -e "$leftover" ]
check "the next run removes a report a killed run left half written in its folder"
# Without a PID namespace (not root) UML's helpers outlived a SIGKILLed
# umlrun: the next one kills what still runs a stage's linux whose umlrun
# is gone (here a stand-in, a copy of sleep, and an owner that is gone).
mkdir -p "$TMPDIR/umlrun.Orphan"
cp "$(command -v sleep)" "$TMPDIR/umlrun.Orphan/linux"
echo 999999999 >"$TMPDIR/umlrun.Orphan/owner"
"$TMPDIR/umlrun.Orphan/linux" 300 &
orphan=$!
sleep 0.3
run "$umlrun" exec -- true
i=0
while [ -d "/proc/$orphan" ] && [ "$(cut -d' ' -f3 "/proc/$orphan/stat" 2>/dev/null)" != Z ] &&
	[ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill $orphan 2>/dev/null # if the sweep missed it: the check fails, nothing is left
wait $orphan
[ $? -eq 137 ] && [ ! -e "$TMPDIR/umlrun.Orphan" ]
check "the next umlrun kills a process still running a stage's linux whose umlrun is gone"

# ---- kselftest: the kernel's own selftests (docs/kselftest.md) ----
# The timers build is shared with the developer's cache when it has one
# (about 12 s to build otherwise); each cache entry is complete or absent.
[ -d "$real_cache/kselftest" ] && [ ! -e "$XDG_CACHE_HOME/umlrun/kselftest" ] &&
	cp -a "$real_cache/kselftest" "$XDG_CACHE_HOME/umlrun/"
kcache=$XDG_CACHE_HOME/umlrun/kselftest
run "$umlrun" kselftest timers --results="$results" --filter='*-leap-a-day.sh' \
	--filter='*-posix_timers.sh'
[ $rc -eq 0 ] && grep -q '^ok [12] kselftest-timers/t[0-9]*-leap-a-day.sh$' "$work/out" &&
	grep -q '^ok [12] kselftest-timers/t[0-9]*-posix_timers.sh # SKIP UML limitation: .*ITIMER_VIRTUAL' "$work/out" &&
	grep -q '^        # Leap complete' "$work/out" &&
	grep -q '"result": "skip"' "$results/latest/results.json" &&
	! ls "$kcache" | grep -q 'tmp' && nothing_left
check "umlrun kselftest runs timers' leap-a-day across a leap second and skips posix_timers, saying why"
# The programs that poll the clock run as written with a cost per system
# call: threadtest's 30 s of 8 polling threads, leapcrash's 20 leaps.
run "$umlrun" kselftest timers --results="$results" --filter='*-threadtest.sh' \
	--filter='*-leapcrash.sh'
[ $rc -eq 0 ] && grep -q '^ok [12] kselftest-timers/t[0-9]*-threadtest.sh$' "$work/out" &&
	grep -q '^ok [12] kselftest-timers/t[0-9]*-leapcrash.sh$' "$work/out" &&
	grep -q '^        # it polls the clock: each system call takes 50000000 ns' "$work/out" &&
	grep -q '^        # Testing consistency with 8 threads for 30 seconds: \[OK\]' "$work/out" &&
	[ "$(grep -o '"sim_seconds": [0-9]*' "$results/latest/results.json" |
		awk '$2 >= 30 { n++ } END { print n + 0 }')" -eq 2 ] && nothing_left
check "umlrun kselftest runs the timers programs that poll the clock as written (threadtest, leapcrash), a cost on each system call"
run "$umlrun" kselftest no-such-target --results="$results"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "unknown target 'no-such-target'" "$work/err" &&
	nothing_left
check "umlrun kselftest of an unknown target exits 2 with one line"
# capabilities needs libcap-ng's headers: without them it does not build.
if [ ! -e /usr/include/cap-ng.h ]; then
	run "$umlrun" kselftest capabilities --results="$results"
	[ $rc -eq 3 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
		grep -q "kselftest capabilities does not build: .*cap-ng.h: No such file" "$work/err" &&
		! grep -qs 'target: capabilities' "$kcache"/*/inputs.txt &&
		! ls "$kcache" | grep -q 'tmp' && nothing_left
	check "umlrun kselftest of a target that does not build exits 3 naming the compiler's error, nothing half-built kept"
fi

# ---- kunit: the kernel's KUnit tests at boot (docs/kunit.md) ----
# One KUnit kernel (the developer's cached one when there is one: the
# same kunitconfigs as bench/kunit.sh): kernel/time's suite and lib/kunit's.
# The whole set under inf-cpu, the default: lib/kunit's cross_kthread case
# spins a kernel thread on schedule() until stopped, which hung there until
# our patch 7.2/0005-um-sched-repick-clock (docs/kunit.md).
K="--kunitconfig=$top/uml-config/kunit/kernel-time.kunitconfig --kunitconfig=lib/kunit"
run "$umlrun" kunit $K --results="$results"
[ $rc -eq 0 ] && grep -q '^ok [0-9]* kunit/time_test_cases$' "$work/out" &&
	grep -q '^    ok [0-9]* backtrace_suppression_test_cross_kthread$' "$work/out" &&
	grep -q '^ok [0-9]* kunit/backtrace-suppression-test$' "$work/out" &&
	grep -q '^    ok 1 time64_to_tm_test_date_range$' "$work/out" &&
	grep -q '^ok [0-9]* kunit/kunit-try-catch-test$' "$work/out" &&
	grep -q '^ok [0-9]* kunit/example$' "$work/out" &&
	grep -q '^    ok [0-9]* example_skip_test # SKIP this test should be skipped$' "$work/out" &&
	grep -q '"id": "kunit/time_test_cases", "attempt": 1, "result": "pass"' "$results/latest/results.json" &&
	grep -q '<testsuite name="kunit/example"' "$results/latest/junit.xml" &&
	[ -s "$results/latest/report.html" ] && [ -s "$results/latest/ktap.txt" ] &&
	grep -q '^ok 1 time64_to_tm_test_date_range$' "$results/latest/kunit/time_test_cases/ktap.log" &&
	grep -q 'reboot: \(Power down\|System halted\)' "$results/latest/console.log" && nothing_left
check "umlrun kunit boots the KUnit kernel once and reports each suite, its cases nested, in the results folder; a kernel thread spinning on schedule() ends under inf-cpu"
run "$umlrun" kunit $K --results="$results" 'time_test*'
[ $rc -eq 0 ] && grep -q '^1\.\.1$' "$work/out" && grep -q '^ok 1 kunit/time_test_cases$' "$work/out"
check "umlrun kunit GLOB runs only the suites it selects (kunit.filter_glob)"
run "$umlrun" kunit $K --list 'example.example_skip*'
[ $rc -eq 0 ] && [ "$(cat "$work/out")" = "example.example_skip_test" ]
check "umlrun kunit --list prints the selected SUITE.CASE names"
run "$umlrun" kunit $K --results="$results" 'no_such_suite*'
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "no KUnit suite matches GLOB 'no_such_suite\*'" "$work/err" &&
	nothing_left
check "umlrun kunit with a GLOB that selects nothing exits 2 with one line"
run "$umlrun" kunit --kunitconfig="$work/no-such.kunitconfig" --results="$results"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "no-such.kunitconfig: no such file" "$work/err"
check "umlrun kunit with a missing kunitconfig exits 2 with one line"
printf 'CONFIG_KUNIT=y\nCONFIG_UMLRUN_NO_SUCH_TEST=y\n' >"$work/lost.kunitconfig"
run "$umlrun" kunit --kunitconfig="$work/lost.kunitconfig" --results="$results"
[ $rc -eq 2 ] && [ "$(grep -c 'did not survive' "$work/err")" -eq 1 ] &&
	tail -n 1 "$work/err" | grep -q "CONFIG_UMLRUN_NO_SUCH_TEST=y ($work/lost.kunitconfig:2)" &&
	! grep -qs 'lost.kunitconfig' "$XDG_CACHE_HOME"/umlrun/kernels/*/inputs.txt
check "a kunitconfig option the kernel does not keep exits 2 naming it, no cache entry left"
# kunit.py's options, on the same kernel (tests/integration/kunit.sh).
kunit_in_run_sh=1
. "$top/tests/integration/kunit.sh"

tap_done
