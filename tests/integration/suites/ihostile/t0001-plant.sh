#!/bin/sh
# A hostile test's leftovers and output (docs/results.md): a set-user-ID
# program, a folder and a file anyone may write, folders 200 deep, past the
# host's PATH_MAX, with a symbolic link at the bottom (made only where
# Landlock is missing), a
# line of 100,000 bytes, and terminal escape sequences meant to redraw the
# user's screen. The host side (tests/integration/t-confine.sh) checks what
# reached the results folder and the terminal. Raw KTAP, no harness.
echo "KTAP version 1"
echo "1..2"
cp /bin/busybox /results/suid && chmod 4755 /results/suid &&
	mkdir /results/open && chmod 1777 /results/open &&
	echo x >/results/open/f && chmod 2666 /results/open/f &&
	(
		# 200 levels of 40-character names, nested by renames: the host
		# path is past PATH_MAX, though no guest path is long.
		n=dddddddddddddddddddddddddddddddddddddddd &&
			cd /results && mkdir cur && echo bottom >cur/f &&
			{ ln -s /etc/passwd cur/link 2>/dev/null || :; } && i=0 &&
			while [ $i -lt 200 ]; do mkdir t && mv cur t/$n && mv t cur && i=$((i + 1)); done
	) && echo "ok 1 planted" || echo "not ok 1 planted"
# One line of 100,000 bytes, then the escapes.
printf '%0100000d\n' 0
printf '\033[2Jcleared\n' >&2
# A console line cut at 64 KiB just inside a C1 control (0xc2 0x9b, CSI).
printf '%065535d\302\302\2332J\n' 0 | tr 0 a >&2
printf 'not ok 2 this failed\r\033[1A\033[2Kok 2 this passed\033]0;title\007\302\2332J\n'
# Half a line, a kernel line (another pipe to the host), then its end.
printf 'half ' >&2
echo "umlrun kernel line" >/dev/kmsg
echo 'a line' >&2
# A right-to-left override (U+202E) that would show this name reversed.
printf '# saved to invoice\342\200\256fdp.exe\n'
