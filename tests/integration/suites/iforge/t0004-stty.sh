#!/bin/sh
# An "end" line of its own, then the line set to map lower case to upper
# (END TIMEOUT=...): the init sets its line raw again before its end line.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 reported early"
printf 'end exit=0 sim=0.5\n' >/dev/ttyS1
stty -F /dev/ttyS1 opost olcuc
sleep 100000
