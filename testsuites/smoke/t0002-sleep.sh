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
# date +%s reads time(2), the kernel's coarse clock, which catches up only at
# the next tick after a wakeup. Under time travel the sleep ends exactly on a
# second boundary, just before that tick, so date reads one second short
# (3599) every time; /proc/uptime reads the precise clock and must show the
# whole hour.
test_expect_success UML,TIME_TRAVEL 'sleep 3600 completes and the clocks move on by an hour' '
	up0=$(uptime_cs) &&
	date0=$(date +%s) &&
	sleep 3600 &&
	up1=$(uptime_cs) &&
	date1=$(date +%s) &&
	say "uptime moved by $((up1 - up0)) cs, date +%s by $((date1 - date0)) s" &&
	test $((up1 - up0)) -ge 360000 &&
	test $((date1 - date0)) -ge 3599
'

test_done
