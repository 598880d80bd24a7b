#!/bin/sh
# t-shards.sh - --shard, merge and --rerun-failed.
. "$(dirname "$0")/lib.sh"
itest_own_cache

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
runs=$(ls "$results" | wc -l)
run "$umlrun" compare $R --rerun-failed
[ $rc -eq 0 ] && [ "$(cat "$work/err")" = "umlrun: --rerun-failed: the last run failed nothing; nothing to rerun" ] &&
	[ ! -s "$work/out" ] && [ "$(ls "$results" | wc -l)" -eq "$runs" ] &&
	[ "$(readlink "$results/latest")" = "$before" ]
check "compare --rerun-failed after a run that failed nothing says so as run does, exits 0 and writes no run"
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

tap_done
