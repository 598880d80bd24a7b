#!/bin/sh
# Prints the guest clock and sleeps an hour: deterministic under inf-cpu.
echo "KTAP version 1"
echo "1..1"
t0=$(date +%s)
sleep 3600
t1=$(date +%s)
echo "# start=$t0 end=$t1"
[ $((t1 - t0)) -ge 3600 ] && echo "ok 1 slept an hour" || echo "not ok 1 slept an hour"
