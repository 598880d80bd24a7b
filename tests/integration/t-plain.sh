#!/bin/sh
# t-plain.sh - --plain: a folder of plain executables as a suite.
. "$(dirname "$0")/lib.sh"
itest_own_cache

itest_mproj

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

tap_done
