#!/bin/sh
test_description='the guest clock starts at --start'
# Read first, before the harness spends any (simulated) time.
now=$(date +%s)
. ../lib/harness.sh

if test -z "${UMLRUN_START-}"; then
	skip_all='no --start time given (UMLRUN_START is empty)'
	test_done
fi

test_expect_success 'the clock read at the start is within 5 s after UMLRUN_START' '
	say "UMLRUN_START=$UMLRUN_START, date +%s at start: $now" &&
	test "$now" -ge "$UMLRUN_START" &&
	test "$now" -le $((UMLRUN_START + 5))
'

test_done
