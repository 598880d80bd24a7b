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
#
# An overlay may be a build nobody here has read (a pull request's): it
# must not reach outside the staged root. Its links must be relative and
# stay below the link (no '..'), and every place written to must resolve,
# through any links of the root or of earlier overlays, inside the root: a
# link to a host folder would have had cp, rm and chmod act on the host.
# Its programs are never run: their libraries are listed by the host's
# dynamic loader (ld.so --list reads the ELF file; ldd may run a program
# that names another loader).
set -eu

root=$(realpath "$1")
dir=$2
rtld=/lib64/ld-linux-x86-64.so.2

die() {
	echo "overlay: $*" >&2
	exit 1
}

# refuse WHY: the overlay itself is at fault (exit 2: umlrun's usage error).
refuse() {
	echo "overlay: $*" >&2
	exit 2
}

# inside PATH: the folder PATH names its last part in resolves, through
# every link, to the root or below it (the last part itself is replaced,
# never written through; a folder is checked again as PATH/.).
inside() {
	r=$(realpath -m "$(dirname "$1")") || return 1
	case $r in
	"$root" | "$root"/*) return 0 ;;
	esac
	return 1
}

# libs BIN: the shared objects the dynamic loader would map for BIN. A
# static program needs none, and the loader's --list crashes on it (the
# shell printed "Segmentation fault" for it). Its --verify, which ldd uses
# too, prints nothing and exits 1 for an object it would not load (a
# static program), 0 or 2 for one it would (a dynamic or static-pie one).
libs() {
	verify=0
	"$rtld" --verify "$1" >/dev/null 2>&1 || verify=$?
	[ "$verify" -ne 1 ] || return 0
	"$rtld" --list "$1" 2>/dev/null |
		sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'
}

is_elf() {
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]
}

cd "$dir" || die "cannot enter $dir"
# Before anything is written: names a line can hold, files that are files,
# folders or links (a fifo would block cp, a device would fill the disk),
# and links that stay inside.
nl='
'
if [ -n "$(find . -name "*$nl*" -print | head -c 1)" ]; then
	refuse "$dir holds a name with a newline; rename it"
fi
special=$(find . ! -type f ! -type d ! -type l -print | head -n 1)
[ -z "$special" ] || refuse "$dir/${special#./} is not a file, folder or link (a fifo, a device or a socket)"
find . -type l -print | while IFS= read -r f; do
	case $(readlink "$f") in
	/* | .. | ../* | */.. | */../*)
		refuse "$dir/${f#./} is a link to $(readlink "$f"): an overlay's links must be relative and may not climb with '..'" ;;
	esac
done
# One name a line (names with a newline were refused above).
find . ! -name . -print | while IFS= read -r f; do
	f=${f#./}
	inside "$root/$f" || refuse "/$f leads out of the guest's root (through a link); not laid"
	if [ -d "$f" ] && [ ! -L "$f" ]; then
		# Through the root's own links (bin -> usr/bin): a folder there
		# is the folder the guest sees.
		if [ -L "$root/$f" ] && [ ! -d "$root/$f" ] || [ -e "$root/$f" ] && [ ! -d "$root/$f" ]; then
			refuse "$dir/$f is a folder, and /$f in the guest's root is not"
		fi
		mkdir -p -- "$root/$f" || die "cannot create /$f in the guest's root"
		inside "$root/$f/x" || refuse "/$f leads out of the guest's root (through a link); not laid"
		chmod go-w "$root/$f"
		continue
	fi
	rm -f -- "$root/$f" || die "cannot replace /$f in the guest's root"
	cp -P -- "$f" "$root/$f" || die "cannot copy $dir/$f"
	# As in the cached root: not writable by the user the guest runs as.
	[ -L "$f" ] || chmod go-w "$root/$f"
	[ -L "$f" ] || ! [ -x "$f" ] || ! is_elf "./$f" && continue
	for lib in $(libs "./$f"); do
		[ -e "$root$lib" ] && continue
		inside "$root$lib" || refuse "$lib, which /$f needs, leads out of the guest's root (through a link)"
		mkdir -p "$root$(dirname "$lib")"
		inside "$root$lib" || refuse "$lib, which /$f needs, leads out of the guest's root (through a link)"
		cp -L "$lib" "$root$lib" || die "cannot copy $lib, which $f needs"
		chmod go-w "$root$lib"
		echo "overlay: added $lib, which /$f needs" >&2
	done
done
