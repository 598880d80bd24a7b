#!/bin/sh
# An "end" line of its own, then a kernel panic: the kernel died, and the
# forged line does not make that a pass.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 reported early"
printf 'end exit=0 sim=0.5\n' >/dev/ttyS1
echo c >/proc/sysrq-trigger
