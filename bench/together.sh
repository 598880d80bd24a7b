#!/bin/sh
# together.sh - two umlrun runs at once on one machine, as two CI jobs
# sharing it would be: each -j1 on the same test files. Each guest takes a
# CPU that no other guest holds (runner/guest/supervise.c, claim_cpu), so
# the two should end in about the time of one run alone. Paired in the
# same run with the two forced onto one CPU (taskset -c FIRST), which is
# where both went before guests claimed their CPUs.
#
#   sh bench/together.sh [TEST...]    (default: six wireless test files)
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || set -- wireless/t0001-open.sh wireless/t0002-wpa2-psk.sh wireless/t0003-sae.sh \
	wireless/t0005-rekey.sh wireless/t0011-ft.sh wireless/t0012-pmf.sh
[ "$(nproc)" -ge 2 ] || { echo "# together.sh needs 2 CPUs or more; this host has $(nproc)"; exit 0; }
first=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
"$umlrun" build >/dev/null
echo "# two runs at once, each -j1, $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), $(date -u +%Y-%m-%dT%H:%M:%SZ)"

tests=$*
set -f # the test ids are split on blanks below, never globbed

# pair NAME [COMMAND...]: both runs at once under COMMAND (env, taskset);
# prints the wall of the pair.
pair() {
	name=$1
	shift
	t0=$(now)
	# shellcheck disable=SC2086 # the tests are meant to split
	"$@" "$umlrun" run -q -j1 --results="$work/$name-a" $tests >"$work/$name-a.out" 2>&1 &
	a=$!
	# shellcheck disable=SC2086
	"$@" "$umlrun" run -q -j1 --results="$work/$name-b" $tests >"$work/$name-b.out" 2>&1 &
	b=$!
	wait $a || true
	wait $b || true
	calc "$(now) - $t0"
}

t0=$(now)
# shellcheck disable=SC2086
"$umlrun" run -q -j1 --results="$work/alone" $tests >"$work/alone.out" 2>&1 || true
alone=$(calc "$(now) - $t0")
for round in 1 2; do
	claimed=$(pair "claimed$round" env)
	onecpu=$(pair "onecpu$round" taskset -c "$first")
	printf 'round %d: one run alone %.1f s; two at once %.1f s (%.2f of alone); both on CPU %s %.1f s (%.2f of alone): claiming CPUs %.2fx faster\n' \
		"$round" "$alone" "$claimed" "$(calc "$claimed / $alone")" "$first" "$onecpu" \
		"$(calc "$onecpu / $alone")" "$(calc "$onecpu / $claimed")"
done
set +f
for f in "$work"/*.out; do
	tail -1 "$f" | grep -q ' passed in ' || { echo "# $(basename "$f" .out) did not pass: $(tail -1 "$f")"; }
done
