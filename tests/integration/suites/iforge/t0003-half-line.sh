#!/bin/sh
# An "end" line of its own, then half a line, so that the init's own end
# line (the simulated-time limit) would start with it and not be read.
# The init starts each of its lines on a line of its own.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 reported early"
printf 'end exit=0 sim=0.5\nX' >/dev/ttyS1
sleep 100000
