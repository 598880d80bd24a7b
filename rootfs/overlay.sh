#!/bin/sh
# overlay.sh ROOT DIR - put DIR's files over a staged guest root.
#
# Called by umlrun (runner/guest/boot.c) for each --overlay=DIR, on the root
# folder it staged for this run, before any guest boots. DIR is laid out
# like the guest's root: DIR/usr/sbin/hostapd replaces the packaged
# hostapd, DIR/usr/local/bin/tool adds a command. Shared libraries the
# overlay's programs need and the root lacks are copied from the host, as
# mkrootfs.sh does for the packaged ones.
#
# The staged root is made of hard links into the cached root folder: a
# file is always removed before its replacement is written, never written
# through, or the cache (and every later run) would change with it.
set -eu

root=$1
dir=$2

die() {
	echo "overlay: $*" >&2
	exit 1
}

# libs BIN: the shared objects the dynamic loader would map for BIN.
libs() {
	ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'
}

is_elf() {
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]
}

cd "$dir" || die "cannot enter $dir"
# Names with a newline would be split below; nobody installs such files.
find . ! -name . -print | while IFS= read -r f; do
	f=${f#./}
	if [ -d "$f" ] && [ ! -L "$f" ]; then
		# Through the root's own links (bin -> usr/bin): a folder there
		# is the folder the guest sees.
		mkdir -p "$root/$f" || die "cannot create /$f in the guest's root"
		chmod go-w "$root/$f"
		continue
	fi
	rm -f "$root/$f" || die "cannot replace /$f in the guest's root"
	cp -P "$f" "$root/$f" || die "cannot copy $dir/$f"
	# As in the cached root: not writable by the user the guest runs as.
	[ -L "$f" ] || chmod go-w "$root/$f"
	[ -L "$f" ] || ! [ -x "$f" ] || ! is_elf "$f" && continue
	for lib in $(libs "$f"); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib" || die "cannot copy $lib, which $f needs"
		chmod go-w "$root$lib"
		echo "overlay: added $lib, which /$f needs" >&2
	done
done
