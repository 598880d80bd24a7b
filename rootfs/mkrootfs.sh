#!/bin/sh
# mkrootfs.sh OUT MANIFEST GUESTBIN [EXTRA...] - assemble the guest's root folder.
#
# Each EXTRA is a manifest read after MANIFEST, in order: a suite's own
# root (rootfs/manifest.hwsim adds python3 for hostap's suite, and
# rootfs/manifest.tshark tshark to it with umlrun hwsim --tshark).
#
# Called by umlrun (runner/cache/rootfs.c) into a temporary folder that it renames
# into the cache once this script succeeds, so a failure leaves nothing
# half-built behind. The host is usr-merged (Debian 12), so the guest is
# too: /bin, /sbin and /lib are links into /usr.
set -eu

out=$1
manifest=$2
guestbin=$3
shift 3

die() {
	echo "mkrootfs: $*" >&2
	exit 1
}

# copy SRC DEST: the file's content (links followed) at DEST under $out.
copy() {
	mkdir -p "$out$(dirname "$2")"
	cp -L "$1" "$out$2" || die "cannot copy $1"
}

# libs BIN: the shared objects the dynamic loader would map for BIN.
libs() {
	ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'
}

mkdir -p "$out/usr/bin" "$out/usr/sbin" "$out/usr/lib" "$out/usr/lib64" \
	"$out/usr/local/bin" "$out/etc" "$out/root"
ln -s usr/bin "$out/bin"
ln -s usr/sbin "$out/sbin"
ln -s usr/lib "$out/lib"
ln -s usr/lib64 "$out/lib64"
for d in proc sys dev tmp run var suite results; do
	mkdir -p "$out/$d"
done

# libs_of FILE: copy the shared objects FILE needs that the root lacks.
libs_of() {
	for lib in $(libs "$1"); do
		[ -e "$out$lib" ] || copy "$lib" "$lib"
	done
}

cat "$manifest" "$@" | while read -r kind src dest; do
	case $kind in
	'' | '#'*) continue ;;
	package) ;;
	bin)
		[ -x "$src" ] || die "$src is missing (is its package installed?)"
		copy "$src" "$src"
		libs_of "$src"
		;;
	file)
		[ -e "$src" ] || die "$src is missing (is its package installed?)"
		copy "$src" "${dest:-$src}"
		;;
	tree)
		[ -d "$src" ] || die "$src is missing (is its package installed?)"
		mkdir -p "$out$(dirname "$src")"
		cp -RL "$src" "$out$src"
		;;
	files)
		# Every file package src installed under dest (python3's modules),
		# and the libraries its shared objects need: only the package's
		# own files, never what else the host keeps in the same folder.
		dpkg-query -L "$src" >/dev/null 2>&1 || die "package $src is not installed"
		dpkg-query -L "$src" | while read -r f; do
			case $f in
			"$dest" | "$dest"/*) ;;
			*) continue ;;
			esac
			[ -f "$f" ] && [ ! -L "$f" ] || continue
			copy "$f" "$f"
			case $f in
			*.so | *.so.*) libs_of "$f" ;;
			esac
		done
		;;
	*) die "$manifest $*: unknown line kind '$kind'" ;;
	esac
done

# The project's static programs.
[ -x "$guestbin/init" ] || die "$guestbin/init is missing: run make"
cp "$guestbin/init" "$out/init"
for f in "$guestbin"/*; do
	[ "$(basename "$f")" = init ] || cp "$f" "$out/usr/local/bin/"
done

# busybox applets fill in every command the packages did not provide, under
# any bin folder: busybox's sbin/ip must not shadow iproute2's bin/ip.
have() {
	for d in usr/local/bin usr/bin usr/sbin; do
		[ -e "$out/$d/$1" ] && return 0
	done
	return 1
}
for applet in $("$out/usr/bin/busybox" --list-full); do
	name=${applet##*/}
	have "$name" || [ -L "$out/$applet" ] || ln -s /usr/bin/busybox "$out/$applet"
done

cat >"$out/etc/passwd" <<'EOT'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOT
cat >"$out/etc/group" <<'EOT'
root:x:0:
nogroup:x:65534:
EOT
printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' >"$out/etc/hosts"
echo umlrun >"$out/etc/hostname"
ln -s /proc/mounts "$out/etc/mtab"
# Everything is root-owned and not writable by the unprivileged user the
# guest runs as: hostfs does not enforce read-only, host permissions do.
chmod -R go-w "$out"
