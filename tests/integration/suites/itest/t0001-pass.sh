#!/bin/sh
# Passes: raw KTAP, so the runner is tested apart from the shell harness.
echo "KTAP version 1"
echo "1..2"
test -d /proc/self && echo "ok 1 proc is mounted" || echo "not ok 1 proc is mounted"
echo artifact >"$UMLRUN_ARTIFACTS/note.txt" && echo "ok 2 results are writable" ||
	echo "not ok 2 results are writable"
# Who the host says wrote it (hostfs shows the host's uid): the run keeps
# the file as its own afterwards.
stat -c %u "$UMLRUN_ARTIFACTS/note.txt" >"$UMLRUN_ARTIFACTS/writer.txt"
