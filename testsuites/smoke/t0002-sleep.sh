#!/bin/sh
test_description='sleep 3600 takes no time under time travel, and the clocks follow'
. ../lib/harness.sh

# /proc/uptime ("3600.25 ...") in hundredths of a second.
uptime_cs () {
	read -r up _ </proc/uptime &&
	frac=${up#*.} &&
	echo $((${up%.*} * 100 + ${frac#0}))
}

# UML too: on the host this would really sleep for an hour.
#
# date +%s reads time(2). The kernel answers it from its coarse clock, which
# catches up only at the next tick after a wakeup: under time travel the
# sleep ends just past a second boundary, before that tick, so date read one
# second short (3599) on every run, until umlrun's kernel patch
# 0006-time-precise-seconds (docs/kernel.md) made time() read the precise
# clock. Both clocks must show the whole hour (under basic, where CPU work
# takes time too, date may cross one more second).
test_expect_success UML,TIME_TRAVEL 'sleep 3600 completes and the clocks move on by an hour' '
	up0=$(uptime_cs) &&
	date0=$(date +%s) &&
	sleep 3600 &&
	up1=$(uptime_cs) &&
	date1=$(date +%s) &&
	say "uptime moved by $((up1 - up0)) cs, date +%s by $((date1 - date0)) s" &&
	test $((up1 - up0)) -ge 360000 &&
	test $((date1 - date0)) -ge 3600 &&
	test $((date1 - date0)) -le 3601
'

test_done
