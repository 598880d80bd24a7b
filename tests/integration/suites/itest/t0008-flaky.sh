#!/bin/sh
# Fails on its first try and passes on a retry (UMLRUN_TRY counts them):
# with --retry it must be reported flaky, never a plain pass.
echo "KTAP version 1"
echo "1..1"
if [ "$UMLRUN_TRY" -ge 2 ]; then
	echo "ok 1 try $UMLRUN_TRY"
else
	echo "not ok 1 try $UMLRUN_TRY"
fi
