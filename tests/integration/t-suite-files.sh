#!/bin/sh
# t-suite-files.sh - a suite folder's settings and file names: shell=,
# names a kernel command line cannot hold, CRLF, cmdline=, links, a lib/ of
# its own.
. "$(dirname "$0")/lib.sh"
itest_own_cache

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

# Links: the guest gets a copy of the folder of suites with its links as
# they are. One inside it by a relative path runs; an absolute one, or one
# out of the folder (a test file or a whole suite), is refused before
# anything is written: it pointed at nothing in the guest ("can't open").
mkdir -p "$work/links/ilinks" "$work/outside"
printf '#!/bin/sh
. ../lib/harness.sh
test_expect_success linked true
test_done
' \
	>"$work/links/ilinks/real.sh"
cp "$work/links/ilinks/real.sh" "$work/outside/abs.sh"
chmod +x "$work/links/ilinks/real.sh" "$work/outside/abs.sh"
ln -s real.sh "$work/links/ilinks/t0001-rel.sh"
run "$umlrun" run -j1 --results="$results" --suite-dir="$work/links" ilinks
[ $rc -eq 0 ] && grep -q "^ok 1 ilinks/t0001-rel.sh" "$work/out"
check "a test file that is a relative link inside the folder of suites runs"
ln -s "$work/outside/abs.sh" "$work/links/ilinks/t0002-abs.sh"
run "$umlrun" run -j1 --results="$work/links-results" --suite-dir="$work/links" ilinks
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] && [ ! -e "$work/links-results" ] &&
	grep -q "ilinks/t0002-abs.sh': a link to '$work/outside/abs.sh', which the guest cannot follow" "$work/err"
check "a test file linked by an absolute path is refused, exit 2, nothing written"
rm "$work/links/ilinks/t0002-abs.sh"
ln -s ../outside "$work/links/isuite"
printf '#!/bin/sh\necho 1..0\n' >"$work/outside/t0001-out.sh"
chmod +x "$work/outside/t0001-out.sh"
run "$umlrun" list --suite-dir="$work/links"
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
	grep -q "links/isuite': a link to '../outside', which the guest cannot follow" "$work/err"
check "a suite folder that links out of the folder of suites is refused, exit 2"
rm "$work/links/isuite"

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

tap_done
