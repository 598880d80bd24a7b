#!/bin/sh
# One hour of sleep, for tests/integration/debug.sh to trace (--trace-event).
echo "KTAP version 1"
echo "1..1"
sleep 3600 && echo "ok 1 slept an hour" || echo "not ok 1 slept an hour"
