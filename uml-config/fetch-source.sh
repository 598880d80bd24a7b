#!/bin/sh
# fetch-source.sh - fetch a Debian linux-source-VERSION package and keep
# its tarball, without touching the system's apt configuration.
#
#   sh fetch-source.sh VERSION SUITE DEST
#
# Downloads linux-source-VERSION from Debian's SUITE (e.g. trixie, sid)
# with a private sources list, package lists and cache under a temporary
# folder (apt still checks the archive's signatures with the system's
# keyrings), and writes the tarball the package holds
# (/usr/src/linux-source-VERSION.tar.xz) to DEST, through DEST.tmp-PID and
# a rename: DEST is whole or absent. The archive's address is the one the
# system's own apt sources use for Debian. Runs as any user.
set -eu

[ $# -eq 3 ] || { echo "usage: fetch-source.sh VERSION SUITE DEST" >&2; exit 2; }
version=$1 suite=$2 dest=$3
pkg=linux-source-$version

# The Debian archive the system uses: the first URI of a deb822 .sources
# file or a one-line .list entry that is not the security archive.
mirror=$(
	{
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
			sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n'
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\2/p'
	} | grep -v -e security -e '^$' | head -n 1
)
[ -n "$mirror" ] || {
	echo "fetch-source.sh: no Debian archive in the system's apt sources to fetch $pkg from" >&2
	exit 3
}

work=$(mktemp -d "${TMPDIR:-/tmp}/umlrun-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A trapped signal would otherwise go on to the next command: end, and the EXIT trap cleans.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
# An empty dpkg status: what this system has installed must not choose the version.
: >"$work/status"
echo "deb $mirror $suite main" >"$work/sources.list"
apt_private() {
	apt-get -q -o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" \
		-o Dir::State::status="$work/status" \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" "$@"
}
apt_private update >"$work/log" 2>&1 || {
	echo "fetch-source.sh: cannot read Debian's $suite package lists from $mirror:" >&2
	tail -n 3 "$work/log" >&2
	exit 3
}
(cd "$work" && apt_private download "$pkg") >>"$work/log" 2>&1 || {
	echo "fetch-source.sh: Debian's $suite has no package $pkg (or it cannot be downloaded):" >&2
	tail -n 3 "$work/log" >&2
	exit 3
}
deb=$(ls "$work"/"$pkg"_*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "./usr/src/$pkg.tar.xz"
mkdir -p "$(dirname "$dest")"
mv "$work/usr/src/$pkg.tar.xz" "$dest.tmp-$$"
mv "$dest.tmp-$$" "$dest"
echo "fetch-source.sh: $(basename "$deb") from $suite"
