#!/bin/sh
# The Debian package: `dpkg-buildpackage -us -uc -b` on a copy of the
# checkout, lintian on the .deb (no errors), then the package unpacked
# with `dpkg -x` into a fresh folder and its umlrun run from / with no
# checkout: `umlrun list` and `umlrun run smoke`.
#
#   sh tests/deb/check.sh        (make deb-check)
#
# Everything happens in build/deb/ (dpkg-buildpackage writes the .deb to
# the parent of the tree it builds, so the tree is build/deb/src); the
# .deb, the build log and lintian's report stay there. The unpacked umlrun
# was built for /usr: UMLRUN_HOME (man umlrun, ENVIRONMENT) points it at
# its data under the unpacked folder. The kernel and the root folder come
# from the user's cache, as for an installed umlrun: this check must not
# build a kernel (their keys depend on content, not on where files are).
#
# Prints TAP; exits 1 if a check failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
work=$top/build/deb
src=$work/src
root=$work/root
cache=${XDG_CACHE_HOME:-$HOME/.cache}

tap_on_fail() {
	[ -s "$work/err" ] && tail -n 12 "$work/err" | sed 's/^/#   /'
	return 0
}
trap 'rm -rf "$src" "$root" "$work/tmp"' EXIT INT TERM

# The files of the checkout as they are now (tracked and new, less what
# .gitignore leaves out); everything but build/ and results/ when the tree
# is not a git checkout (a release tarball).
sources() {
	if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
		git -C "$top" ls-files -z --cached --others --exclude-standard |
			xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh
	else
		find . -path ./build -prune -o -path ./results -prune -o ! -type d -print0
	fi
}

echo "TAP version 13"

rm -rf "$work"
mkdir -p "$src"
(cd "$top" && sources | tar -c --null -T - -f -) | tar -x -C "$src" -f - 2>"$work/err"
[ -x "$src/debian/rules" ]
check "a copy of the checkout in build/deb/src"

# nocheck: make check runs the unit tests already.
(cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1
rc=$?
cp "$work/build.log" "$work/err"
version=$(cd "$src" && dpkg-parsechangelog -S Version)
deb=$work/umlrun_${version}_amd64.deb
[ $rc -eq 0 ] && [ -s "$deb" ]
check "dpkg-buildpackage -us -uc -b builds umlrun_${version}_amd64.deb"

# Depends: every "kernel" and "guest" package of debian-packages.
depends=$(dpkg-deb -f "$deb" Depends 2>"$work/err" | tr -d ' ' | tr ',' '\n' | sed 's/(.*//')
missing=
for p in $(sed 's/#.*//' "$top/debian-packages" | awk '$2 == "kernel" || $2 == "guest" { print $1 }'); do
	printf '%s\n' "$depends" | grep -qx -- "$p" || missing="$missing $p"
done
[ -n "$depends" ] && [ -z "$missing" ] && printf '%s\n' "$depends" | grep -qx 'libc6'
check "the package depends on its libraries and debian-packages' kernel and guest lines" \
	"missing:$missing"

# lintian's errors fail the check; its warnings are printed (the ones that
# stay are explained in docs/debian.md).
# In a folder of its own: lintian leaves an mldbm-elf-XXXXXXXX file in its
# TMPDIR on every run.
mkdir -p "$work/lintian-tmp"
TMPDIR="$work/lintian-tmp" lintian --fail-on error "$deb" >"$work/lintian.txt" 2>"$work/err"
rm -rf "$work/lintian-tmp"
rc=$?
grep -v '^running with root privileges' "$work/lintian.txt" | sed 's/^/# /'
[ $rc -eq 0 ]
check "lintian finds no errors in the .deb" "$(grep '^E:' "$work/lintian.txt" | head -n 5)"

mkdir -p "$root"
# As root the guest runs as nobody, who must reach the unpacked suites.
chmod 755 "$root"
dpkg -x "$deb" "$root" 2>"$work/err"
for f in usr/bin/umlrun usr/lib/umlrun/build/guest/init usr/lib/umlrun/uml-config/time-travel.config \
	usr/lib/umlrun/rootfs/mkrootfs.sh usr/lib/umlrun/testsuites/lib/harness.sh \
	usr/lib/umlrun/debian-packages usr/share/doc/umlrun/copyright usr/share/man/man1/umlrun-run.1.gz \
	usr/share/man/man7/umlrun-harness.7.gz usr/share/bash-completion/completions/umlrun; do
	[ -e "$root/$f" ] || { echo "# missing: $f"; false; } || break
done
check "dpkg -x: the launcher, data, docs, man pages and completion are in the package"

# installed CMD...: the unpacked umlrun, run from / with a bare environment.
mkdir -m 1777 "$work/tmp"
installed() {
	(cd / && env -i PATH="$root/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME="$HOME" \
		XDG_CACHE_HOME="$cache" TMPDIR="$work/tmp" UMLRUN_HOME="$root/usr/lib/umlrun" \
		umlrun "$@") >"$work/out" 2>"$work/err"
	rc=$?
}

installed list
[ $rc -eq 0 ] && grep -qx smoke/t0001-pass.sh "$work/out"
check "the unpacked umlrun lists the packaged suites, run from /"

installed doctor
[ $rc -eq 0 ] && grep -q "^ok   Debian packages .*$root/usr/lib/umlrun/debian-packages" "$work/out"
check "the unpacked umlrun doctor finds its package list and passes"

installed run -q --results="$work/results" smoke
[ $rc -eq 0 ] && grep -q '^ok .* smoke/t0001-pass.sh' "$work/out" &&
	[ -s "$work/results/latest/results.json" ]
check "the unpacked umlrun runs the smoke suite from /"
! grep -q 'building the kernel' "$work/err"
check "it used the cached kernel (built none)"

tap_done
