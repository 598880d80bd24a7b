#!/bin/sh
# Sleeps an hour and prints the clocks: deterministic under inf-cpu.
# /proc/uptime reads the precise clock; time(2) (busybox date) reads the
# coarse one, which under time travel can lag up to a tick behind.
echo "KTAP version 1"
echo "1..1"
read -r u0 _ </proc/uptime
sleep 3600
read -r u1 _ </proc/uptime
echo "# uptime before=$u0 after=$u1 date=$(date +%s)"
[ "${u1%.*}" -ge $((${u0%.*} + 3600)) ] && echo "ok 1 slept an hour" || echo "not ok 1 slept an hour"
