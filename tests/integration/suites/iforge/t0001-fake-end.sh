#!/bin/sh
# Root in the guest can write the init's control line (/dev/ttyS1): an
# "end" line of its own, then a spin. The wall-clock limit still ends it
# as a timeout, not the pass the line claims.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 claims a pass"
echo "end exit=0 sim=0.5" >/dev/ttyS1
while :; do :; done
