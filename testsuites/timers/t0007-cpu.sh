#!/bin/sh
test_description='CPU work: no simulated time under inf-cpu, real time in basic mode'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-timers.sh"

test_expect_success 'high-resolution timers are on after the first tick' '
	hres_on
'

# 300 million iterations without a system call (about half a second of
# host CPU). The probe reads the clock once before and once after.
test_expect_success TIME_TRAVEL 'a CPU-bound loop takes zero simulated time in inf-cpu, some in basic' '
	probe out spin 300000000 &&
	case $UMLRUN_MODE in
	inf-cpu)
		check out elapsed_ns = $TIMERS_READ_NS &&
		check out cpu_ns = 0
		;;
	basic)
		check out elapsed_ns -gt 10000000
		;;
	*)
		say "unexpected mode $UMLRUN_MODE" &&
		false
		;;
	esac
'

test_expect_success INF_CPU 'a 10,000-iteration shell loop takes no simulated time' '
	probe before now &&
	i=0 &&
	while test $i -lt 10000; do
		i=$((i + 1))
	done &&
	probe after now &&
	check_num "elapsed (ns)" $(( $(val after monotonic_ns) - $(val before monotonic_ns) )) -lt 65536
'

# Under inf-cpu time advances only when the guest idles or reads a clock:
# a timer due during a busy loop fires when the loop ends.
test_expect_success INF_CPU 'a timer due during a busy loop waits for it to end' '
	{ timerprobe timerfd monotonic rel 1ms >timer & } &&
	timerprobe nanosleep 100us >/dev/null &&
	probe out spin 300000000 &&
	wait &&
	check timer expirations = 1 &&
	check_late timer 65536
'

test_done
