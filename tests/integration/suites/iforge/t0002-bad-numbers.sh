#!/bin/sh
# Numbers no init writes, and an error line with terminal escapes, on the
# init's control line; then the guest powers off. umlrun must end (an
# infinite simulated time once hung it), write valid JSON, and show the
# reason with the escapes as \xHH.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 forging"
for l in "end exit=0 sim=1e999" "end exit=0 sim=nan" "end exit=0 sim=-1e300 forks=-7 pgfault=-7" \
	"end timeout=-99999 sim=1" "end signal=-2147483648 sim=1" "end exit=300 sim=1"; do
	echo "$l" >/dev/ttyS1
done
printf 'error \033]0;pwned\007\033[2J\302\233Hforged\n' >/dev/ttyS1
sleep 1
poweroff -f
