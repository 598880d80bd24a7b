#!/bin/sh
# run.sh - every benchmark under bench/, one after the other.
set -eu
cd "$(dirname "$0")"
for b in core.sh timers.sh wireless.sh scale.sh explore.sh percall.sh overlay.sh; do
	[ -f "$b" ] || continue
	echo "## $b"
	sh "$b"
done
