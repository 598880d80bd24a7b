#!/bin/sh
# t-parallel.sh - several guests at once (-j2): whole KTAP blocks, one CPU each.
. "$(dirname "$0")/lib.sh"
itest_own_cache

run "$umlrun" run $R -j2 itest/t0001-pass.sh itest/t0002-fail.sh itest/t0006-clock.sh
# Every test's block (its "# id" header to its result line) is contiguous.
awk '/^# itest\/t[0-9]+-[a-z-]+\.sh$/ { if (open) bad = 1; open = $2 }
	/^(not )?ok [0-9]+ itest\// { if ($0 !~ open) bad = 1; open = "" }
	END { exit bad || open != "" }' "$work/out" && [ $rc -eq 1 ]
check "-j2 keeps each test's KTAP block whole"
# The CPUs each running guest's host processes may use, one line each.
guest_cpus() {
	for p in $(pgrep -f "$TMPDIR/umlrun.*/linux"); do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$p/status 2>/dev/null
	done
}

if [ "$(nproc)" -ge 2 ]; then
	# Real time: the guest sleeps 6 s while we look at its processes.
	"$umlrun" exec --time-travel=off -- sleep 6 >"$work/out" 2>"$work/err" &
	bg=$!
	pinned=0 unpinned=0 tries=0
	while [ $pinned -eq 0 ] && [ $tries -lt 50 ]; do
		sleep 0.1
		tries=$((tries + 1))
		for cpus in $(guest_cpus); do
			case $cpus in
			*[,-]*) unpinned=$((unpinned + 1)) ;;
			*) pinned=$((pinned + 1)) ;;
			esac
		done
	done
	wait $bg
	rc=$?
	[ $rc -eq 0 ] && [ $pinned -gt 0 ] && [ $unpinned -eq 0 ]
	check "a guest's processes are pinned to one CPU"
	# Two runs at once: their first guests each take a CPU no other holds.
	"$umlrun" exec --time-travel=off -- sleep 6 >"$work/out1" 2>&1 &
	bg1=$!
	"$umlrun" exec --time-travel=off -- sleep 6 >"$work/out2" 2>&1 &
	bg2=$!
	seen= tries=0
	while [ "$(echo "$seen" | wc -w)" -lt 2 ] && [ $tries -lt 50 ]; do
		sleep 0.1
		tries=$((tries + 1))
		for cpus in $(guest_cpus); do
			case " $seen " in
			*" $cpus "*) ;;
			*) seen="$seen $cpus" ;;
			esac
		done
	done
	wait $bg1
	rc1=$?
	wait $bg2
	rc2=$?
	[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(echo "$seen" | wc -w)" -eq 2 ]
	check "two umlrun runs at once put their guests on two CPUs (seen:$seen)"
else
	pass "a guest's processes are pinned to one CPU # SKIP one CPU only"
	pass "two umlrun runs at once put their guests on two CPUs # SKIP one CPU only"
fi

tap_done
