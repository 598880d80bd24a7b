#!/bin/sh
# t-outcomes.sh - what a test's end makes of the run: pass, fail, timeouts,
# crashes, the results folder and its artifacts.
. "$(dirname "$0")/lib.sh"
itest_own_cache

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

run prlimit --as=200000000 "$umlrun" run $R itest/t0001-pass.sh
[ $rc -eq 3 ] && grep -q "# ERROR the host refused the guest.s memory (setup_physmem - mapping .*): a lower --mem, or a higher ulimit -v" "$work/out"
check "a guest whose memory the host refuses (ulimit -v) is a crash that says why"

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

tap_done
