#!/bin/sh
# An installed umlrun works with no checkout: `make install` into a
# temporary PREFIX (its own build folder, since DATADIR is compiled in),
# then, from / with a minimal environment, `umlrun list`, `umlrun doctor`
# and `umlrun run smoke`. The kernel and root folder come from the user's
# cache (their keys depend on content, not on where the files are).
#
#   sh tests/install/check.sh        (make install-check)
#
# Prints TAP; exits 1 if a check failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
dest=$(mktemp -d /tmp/umlrun-install.XXXXXX)
# As root the guest runs as nobody, who must reach the installed suites.
chmod 755 "$dest"
trap 'rm -rf "$dest"' EXIT INT TERM
prefix=$dest/usr
cache=${XDG_CACHE_HOME:-$HOME/.cache}

tap_on_fail() {
	[ -s "$dest/err" ] && tail -n 8 "$dest/err" | sed 's/^/#   /'
	return 0
}
# installed CMD...: the installed umlrun, run from / with a bare environment.
installed() {
	(cd / && env -i PATH="$prefix/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME="$HOME" \
		XDG_CACHE_HOME="$cache" TMPDIR="$dest/tmp" umlrun "$@") >"$dest/out" 2>"$dest/err"
	rc=$?
}

echo "TAP version 13"

make -C "$top" -s --no-print-directory B="$dest/build" PREFIX="$prefix" install \
	>"$dest/err" 2>&1
check "make install PREFIX=... succeeds"
mkdir -m 1777 "$dest/tmp"
rm -rf "$dest/build"

for f in bin/umlrun share/umlrun/build/guest/init share/umlrun/uml-config/time-travel.config \
	share/umlrun/rootfs/mkrootfs.sh share/umlrun/testsuites/lib/harness.sh \
	share/umlrun/debian-packages share/doc/umlrun/README.md share/man/man1/umlrun-run.1 \
	share/man/man7/umlrun-harness.7 share/bash-completion/completions/umlrun; do
	[ -e "$prefix/$f" ] || { echo "# missing: $f"; false; } || break
done
check "the launcher, guest programs, data, docs, man pages and completion are installed"

# A test file only the installed copy has: proof that it reads its own files.
cp "$prefix/share/umlrun/testsuites/smoke/t0001-pass.sh" \
	"$prefix/share/umlrun/testsuites/smoke/t0999-installed.sh"
installed list
[ $rc -eq 0 ] && grep -qx smoke/t0001-pass.sh "$dest/out" &&
	grep -qx smoke/t0999-installed.sh "$dest/out"
check "the installed umlrun lists its own suites, run from /"
rm "$prefix/share/umlrun/testsuites/smoke/t0999-installed.sh"

installed doctor
[ $rc -eq 0 ] && grep -q "^ok   Debian packages .*$prefix/share/umlrun/debian-packages" "$dest/out"
check "the installed umlrun doctor finds its package list and passes"

installed run -q --results="$dest/results" smoke
[ $rc -eq 0 ] && grep -q '^ok .* smoke/t0001-pass.sh' "$dest/out" && [ -s "$dest/results/latest/results.json" ]
check "the installed umlrun runs the smoke suite from /"

MANPATH="$prefix/share/man" man -w umlrun-doctor >/dev/null 2>&1
check "man finds the installed pages"

tap_done
