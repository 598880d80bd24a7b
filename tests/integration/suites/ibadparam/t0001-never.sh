#!/bin/sh
# Never runs: the suite's settings are refused first.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 ran"
