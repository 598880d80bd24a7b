#!/bin/sh
# kunit.sh - umlrun kunit's kunit.py options on a real KUnit kernel, each
# compared with what the kernel tree's own tools/testing/kunit/kunit.py
# makes of the same console where kunit.py has an answer (docs/kunit.md,
# "kunit.py option -> umlrun").
#
# Prints TAP; exits 1 if a check failed. run.sh sources it in its KUnit
# section, on its KUnit kernel (kernel/time's and lib/kunit's
# kunitconfigs); alone, it finds that kernel in the cache or builds it. The kunit.py checks need python3 and skip
# cleanly without it: umlrun itself has no Python.
set -u

# Sourced by run.sh (kunit_in_run_sh=1), on its cache, kernel and helpers;
# else on the developer's cache.
if [ -z "${kunit_in_run_sh:-}" ]; then
	top=$(cd "$(dirname "$0")/../.." && pwd)
	umlrun=$top/build/umlrun
	work=$(mktemp -d /tmp/umlrun-kunit-itest.XXXXXX)
	chmod 755 "$work"
	export TMPDIR="$work/tmp"
	mkdir "$TMPDIR"
	trap 'rm -rf "$work"' EXIT INT TERM
	results=$work/results
	. "$top/tests/tap.sh"
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
	K="--kunitconfig=$top/uml-config/kunit/kernel-time.kunitconfig --kunitconfig=lib/kunit"
fi
skip() {
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

run "$umlrun" kunit $K -q --results="$results"
[ $rc -eq 0 ]
check "umlrun kunit runs the KUnit kernel kunit.py's options are checked on"
kernel=$(sed -n 's/^  "kernel": "\(.*\)",$/\1/p' "$results/latest/results.json")
# The tree the kernel was built from, whose kunit.py is the peer.
tree=$(sed -n 's/^\$ make -C \([^ ]*\) ARCH=um .*/\1/p' "$(dirname "$kernel")/build.log" | head -n 1)
tree=${tree%/}
# A kernel another cache built (run.sh's, by hard links): its tree is here too.
[ -d "$tree" ] || tree=${XDG_CACHE_HOME:-$HOME/.cache}/umlrun/src/${tree#*/umlrun/src/}
kunitpy=
if command -v python3 >/dev/null && [ -f "$tree/tools/testing/kunit/kunit.py" ]; then
	kunitpy="python3 $tree/tools/testing/kunit/kunit.py"
fi
# peer CHECK CMD...: run CMD (kunit.py) or skip CHECK without Python.
peer() {
	[ -n "$kunitpy" ] && return 0
	skip "$1" "no python3 or no kunit.py in $tree"
	return 1
}

# --json: kunit.py's JSON of the same console, byte for byte, but for the
# metadata kunit.py parse cannot know (arch, defconfig, build folder).
run "$umlrun" kunit $K --results="$results" --json="$work/u.json"
if peer "--json=FILE is kunit.py's JSON of the run"; then
	$kunitpy parse --json="$work/p.json" "$results/latest/console.log" >/dev/null 2>&1
	sed 's/^\(\( *\)"arch": \)"um",$/\1"",/; s/^\(\( *\)"defconfig": \)"kunit_defconfig",$/\1"",/
		s/^\(\( *\)"build_environment": \)".*",$/\1"",/' "$work/u.json" >"$work/u0.json"
	[ $rc -eq 0 ] && grep -q '^# KUnit JSON (kunit.py.s format) in ' "$work/out" &&
		grep -q '"arch": "um",' "$work/u.json" && cmp -s "$work/u0.json" "$work/p.json"
	check "--json=FILE is kunit.py's JSON of the run (kunit.py parse --json on its console.log)"
fi
run "$umlrun" kunit $K --results="$results" --json 'time_test*'
[ $rc -eq 0 ] && [ "$(head -c 1 "$work/out")" = "{" ] && grep -q '"name": "time_test_cases",' "$work/out" &&
	grep -q '^# 1/1 KUnit suites passed' "$work/err"
check "--json alone: only the JSON on stdout (for jq), umlrun's lines on stderr"

# --summary: kunit.py's count line, the same words.
run "$umlrun" kunit $K --results="$results" --summary
if peer "--summary prints kunit.py's summary line"; then
	want=$($kunitpy parse --summary "$results/latest/console.log" 2>&1 |
		sed -n 's/^\[[0-9:]*\] \(Testing complete\. .*\)$/# \1/p')
	[ $rc -eq 0 ] && [ -n "$want" ] && grep -qxF "$want" "$work/out" &&
		! grep -q '^ok ' "$work/out"
	check "--summary prints kunit.py's summary line ('$want'), no KTAP"
fi

# --raw_output: the console's KUnit lines as kunit.py extracts them.
run "$umlrun" kunit $K --results="$results" --raw_output
if peer "--raw_output prints kunit.py's raw output"; then
	$kunitpy parse --raw_output=kunit "$results/latest/console.log" >"$work/p.raw" 2>&1
	[ $rc -eq 0 ] && head -n 1 "$work/out" | grep -qx 'KTAP version 1' && cmp -s "$work/out" "$work/p.raw"
	check "--raw_output prints the KUnit lines kunit.py parse --raw_output=kunit prints"
fi
run "$umlrun" kunit $K --results="$results" --raw_output=all 'example_init'
[ $rc -eq 0 ] && cmp -s "$work/out" "$results/latest/console.log"
check "--raw_output=all prints the whole console"

# --failed: no suite fails here, so no suite's lines, every result line.
run "$umlrun" kunit $K --results="$results" --failed
[ $rc -eq 0 ] && ! grep -q '^    ' "$work/out" && grep -q '^ok [0-9]* kunit/example$' "$work/out" &&
	grep -q '^# Testing complete\. Ran [0-9]* tests: passed' "$work/out"
check "--failed prints no passed suite's lines, the result lines and the summary"

# The lists, against kunit.py's own _list_tests and _suites_from_test_list
# on the same console (-v copies it to stderr).
# kunitpy_list tests|suites CONSOLE: what kunit.py would print for it.
kunitpy_list() {
	python3 - "$tree/tools/testing/kunit" "$1" "$2" <<-'EOF'
		import re, sys
		sys.path.insert(0, sys.argv[1])
		import kunit, kunit_parser
		lines = kunit_parser.extract_tap_lines(open(sys.argv[3], errors='backslashreplace'))
		lines.pop()
		tests = [l for l in lines if re.match(r'^[^\s.]+\.[^\s.]+$', l)]
		for l in (tests if sys.argv[2] == 'tests' else kunit._suites_from_test_list(tests)):
		    print(l.rstrip())
	EOF
}
run "$umlrun" kunit $K --list -v
if peer "--list (--list_tests) prints what kunit.py's _list_tests keeps"; then
	kunitpy_list tests "$work/err" >"$work/p.list" 2>&1
	[ $rc -eq 0 ] && [ -s "$work/out" ] && cmp -s "$work/out" "$work/p.list"
	check "--list (--list_tests) prints what kunit.py's _list_tests keeps of the console"
fi
cut -d. -f1 "$work/out" | uniq >"$work/suites"
run "$umlrun" kunit $K --list_suites -v
[ $rc -eq 0 ] && [ -s "$work/out" ] && cmp -s "$work/out" "$work/suites" && grep -qx example "$work/out"
check "--list_suites prints the suites of --list's SUITE.CASE names, each once"
if peer "--list_suites prints kunit.py's _suites_from_test_list"; then
	kunitpy_list suites "$work/err" >"$work/p.suites" 2>&1
	cmp -s "$work/out" "$work/p.suites"
	check "--list_suites prints what kunit.py's _suites_from_test_list makes of the console"
fi
run "$umlrun" kunit $K --list_tests_attr 'example*'
[ $rc -eq 0 ] && grep -qx 'example' "$work/out" && grep -qx '# module: kunit_example_test' "$work/out" &&
	grep -qx 'example.example_slow_test' "$work/out" &&
	grep -qx '# example_slow_test.speed: slow' "$work/out"
check "--list_tests_attr prints the tests with their attributes (kunit.action=list_attr)"

# Attributes: --filter, --filter_action.
run "$umlrun" kunit $K --list 'example*'
grep -qx 'example.example_slow_test' "$work/out"
run "$umlrun" kunit $K --list --filter='speed>slow' 'example*'
[ $rc -eq 0 ] && grep -qx 'example.example_simple_test' "$work/out" &&
	! grep -q 'example_slow_test' "$work/out"
check "--filter='speed>slow' leaves the slow test out (kunit.filter=)"
run "$umlrun" kunit $K --results="$results" --filter='speed>slow, module=kunit_example_test' \
	--filter_action=skip 'example'
[ $rc -eq 0 ] && grep -q '^    ok [0-9]* example_slow_test # SKIP' "$work/out" &&
	grep -qF 'kunit.filter="speed>slow,module=kunit_example_test"' "$results/latest/kunit/example/cmdline.txt" &&
	grep -q ' kunit.filter_action=skip' "$results/latest/kunit/example/cmdline.txt"
check "--filter_action=skip reports the filtered test skipped"

# --kernel_args: words of the kernel command line, after umlrun's.
run "$umlrun" kunit $K --results="$results" --kernel_args=kunit.filter_glob=example_init
[ $rc -eq 0 ] && grep -q '^1\.\.1$' "$work/out" && grep -q '^ok 1 kunit/example_init$' "$work/out"
check "--kernel_args reaches the kernel (kunit.filter_glob= selects one suite)"

# --run_isolated: one boot per suite, or per test.
run "$umlrun" kunit $K --results="$results" --run_isolated=suite 'example*'
[ $rc -eq 0 ] && grep -q '^# boot 2/2: example$' "$work/out" && grep -q '^ok 2 kunit/example$' "$work/out" &&
	grep -q 'kunit.filter_glob=example_init$' "$results/latest/kunit/example_init/cmdline.txt" &&
	grep -q 'kunit.filter_glob=example$' "$results/latest/kunit/example/cmdline.txt"
check "--run_isolated=suite boots once per suite, each suite's cmdline.txt its own"
run "$umlrun" kunit $K --results="$results" --run_isolated=test 'example.example_s*'
[ $rc -eq 0 ] && grep -q '^ok [0-9]* kunit/example\.example_simple_test$' "$work/out" &&
	grep -q '^ok [0-9]* kunit/example\.example_skip_test # SKIP' "$work/out" &&
	[ "$(grep -c '^# boot ' "$work/out")" -eq "$(grep -c '^ok [0-9]* kunit/' "$work/out")" ]
check "--run_isolated=test boots once per test, each a record kunit/SUITE.CASE"

# kunit.py's build and exec steps.
run "$umlrun" kunit $K --build-only
[ $rc -eq 0 ] && grep -q "^# kernel: $kernel (.*, cached)$" "$work/out"
check "--build-only finds the built kernel and boots nothing"
run "$umlrun" kunit $K --results="$results" --no-build 'time_test*'
[ $rc -eq 0 ] && grep -q '^ok 1 kunit/time_test_cases$' "$work/out"
check "--no-build runs the kernel built before"
# --kconfig_add is one more fragment, in the kernel's key: not built yet.
run "$umlrun" kunit $K --results="$results" --no-build --kconfig_add=CONFIG_UMLRUN_ITEST_UNBUILT=y
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'is not built' "$work/err"
check "--kconfig_add makes another kernel (--no-build: not built, exit 2, one line)"

[ -n "${kunit_in_run_sh:-}" ] || tap_done
