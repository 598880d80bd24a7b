#!/bin/sh
# t-refused.sh - --mem, --run and --mount: refused with one line before any
# guest boots.
. "$(dirname "$0")/lib.sh"
itest_own_cache

itest_mproj

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

tap_done
