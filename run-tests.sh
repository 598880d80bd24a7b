#!/bin/sh
# run-tests.sh - the main job: install what is missing, build, run the suites.
#
#   ./run-tests.sh [umlrun run options] [SUITE | SUITE/TEST ...]
#
# As root on a fresh Debian 12 machine it installs the Debian packages
# umlrun needs, builds umlrun, the time-travel kernel and the guest's root
# folder (cached under ${XDG_CACHE_HOME:-~/.cache}/umlrun), then runs
# `umlrun run` with the given arguments (default: every suite) and exits
# with its status (0 passed, 1 failed, 2 usage, 3 infrastructure, 124 timeout).
set -eu
cd "$(dirname "$0")"
sh tests/deps.sh
make -s all
exec ./build/umlrun run "$@"
