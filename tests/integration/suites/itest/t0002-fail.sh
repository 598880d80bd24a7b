#!/bin/sh
# One case fails: the file's verdict is "fail" and umlrun exits 1.
echo "KTAP version 1"
echo "1..2"
echo "ok 1 first"
echo "not ok 2 second"
exit 1
