#!/bin/sh
# t-kunit.sh - umlrun kunit: the kernel's KUnit tests at boot (docs/kunit.md),
# and kunit.py's options, each compared with what the kernel tree's own
# tools/testing/kunit/kunit.py makes of the same console where kunit.py has
# an answer (docs/kunit.md, "kunit.py option -> umlrun"). The kunit.py
# checks need python3 and skip cleanly without it: umlrun itself has no
# Python.
. "$(dirname "$0")/lib.sh"
itest_own_cache

# One KUnit kernel (the developer's cached one when there is one: the
# same kunitconfigs as bench/kunit.sh): kernel/time's suite and lib/kunit's.
# The whole set under inf-cpu, the default: lib/kunit's cross_kthread case
# spins a kernel thread on schedule() until stopped, which hung there until
# our patch 7.2/0005-um-sched-repick-clock (docs/kunit.md). And two suites
# whose kernel threads wait for a timer looping on cond_resched()
# (uml-config/kunit/stall.kunitconfig): before 7.2/0007-um-stall-breaker
# counted cond_resched(), they ended only through the wall-clock breaker,
# 20 s of wall time each and a different outcome each run.
K="--kunitconfig=$top/uml-config/kunit/kernel-time.kunitconfig --kunitconfig=lib/kunit"
K="$K --kunitconfig=$top/uml-config/kunit/stall.kunitconfig"
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
# No init credits a seed to a KUnit guest's pool: the kernel does, at boot.
grep -q ' uml-random-seed=0\( \|$\)' "$results/latest/kunit/time_test_cases/cmdline.txt" &&
	sed -n '1,/KTAP version/p' "$results/latest/console.log" | grep -q 'random: crng init done'
check "a KUnit guest's random generator is ready before its first test: the guest's seed credited at boot (uml-random-seed=)"
# The simulated seconds of each suite, as results.json has them.
sims() {
	grep -o '"id": "kunit/[^"]*", "attempt": [0-9]*, [^}]*"sim_seconds": [0-9.]*' "$1" |
		sed 's/"id": "\([^"]*\)".*"sim_seconds": \([0-9.]*\)/\1 \2/'
}
all=$(sims "$results/latest/results.json")
wall_breaks=$(grep -c 'stall breaker' "$results/latest/console.log")
run "$umlrun" kunit $K --results="$results" 'lib_ratelimit*'
first=$(sims "$results/latest/results.json") rc1=$rc
run "$umlrun" kunit $K --results="$results" 'lib_ratelimit*'
again=$(sims "$results/latest/results.json")
[ $rc1 -eq 0 ] && [ $rc -eq 0 ] && grep -q '^    ok [0-9]* test_ratelimit_stress$' "$work/out" &&
	printf '%s\n' "$all" | grep -q '^kunit/dma-buf-fence-chain [1-9]' &&
	printf '%s\n' "$all" | grep -q '^kunit/lib_ratelimit [1-9]' &&
	printf '%s\n' "$first" | grep -q '^kunit/lib_ratelimit [1-9]' && [ "$first" = "$again" ] &&
	[ "$wall_breaks" -eq 0 ] && ! grep -q '"stall_breaker"' "$results/latest/results.json" &&
	! grep -q 'stall breaker' "$results/latest/console.log"
check "kernel threads waiting for a timer on cond_resched() (lib_ratelimit, dma-buf fence-chain) pass under inf-cpu through the deterministic stall breaker: simulated time moves, the same each run, no wall-clock breaker"
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

# ---- kunit.py's options, on the same kernel ----

run "$umlrun" kunit $K -q --results="$results"
[ $rc -eq 0 ]
check "umlrun kunit runs the KUnit kernel kunit.py's options are checked on"
kernel=$(sed -n 's/^  "kernel": "\(.*\)",$/\1/p' "$results/latest/results.json")
# The tree the kernel was built from, whose kunit.py is the peer.
tree=$(sed -n 's/^\$ make -C \([^ ]*\) ARCH=um .*/\1/p' "$(dirname "$kernel")/build.log" | head -n 1)
tree=${tree%/}
# A kernel another cache built (the developer's, linked by itest_own_cache):
# its tree is here too.
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

tap_done
