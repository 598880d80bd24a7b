#!/bin/sh
# deps.sh - make sure the Debian packages umlrun needs are installed.
#
# Run by ./run-tests.sh and `make check`. As root it installs what is
# missing with apt-get; otherwise it names the packages and the command,
# and exits 3 (the infrastructure exit code). The packages are listed in
# debian-packages (or $UMLRUN_PACKAGES), which `umlrun doctor` checks too.
set -eu

list=${UMLRUN_PACKAGES:-$(dirname "$0")/../debian-packages}
# Not the "tshark" ones: umlrun hwsim --tshark is opt-in, and they are large.
packages=$(sed 's/#.*//' "$list" | awk 'NF && $2 != "tshark" { print $1 }')

missing=
for p in $packages; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) || status=
	case $status in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "umlrun: missing Debian packages:$missing; install them with 'sudo apt-get install$missing'" >&2
	exit 3
fi
echo "umlrun: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086 # the list is meant to split
apt-get install -y -q --no-install-recommends $missing >/dev/null
