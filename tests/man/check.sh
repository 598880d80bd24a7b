#!/bin/sh
# The man pages (man/*.scd) and `umlrun CMD --help` agree: every command
# `umlrun --help` lists has a page, every option its --help prints is set
# in bold (*--opt*) in that page, and every page turns into roff with scdoc.
#
#   sh tests/man/check.sh [UMLRUN]    (default build/umlrun)
#
# Prints TAP; exits 1 if a check failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
umlrun=${1:-$top/build/umlrun}
man=$top/man
. "$top/tests/tap.sh"

# The options in the first column of a --help text: "  -j, --jobs=N   ..."
# gives -j and --jobs (the words that start with "-", up to the first that
# does not: the column may overflow into the description).
help_options() {
	"$umlrun" "$1" --help |
		awk '/^  -/ { for (i = 1; i <= NF && $i ~ /^-/; i++) print $i }' |
		grep -o -- '^--\?[a-zA-Z][a-zA-Z_-]*' | sort -u
}

echo "TAP version 13"

commands=$("$umlrun" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | grep -v '^help$')
[ -n "$commands" ]
check "umlrun --help lists the commands"

for c in $commands; do
	page=$man/umlrun-$c.1.scd
	grep -q "^\*$c\*" "$man/umlrun.1.scd"
	check "umlrun(1) lists $c"
	if [ ! -f "$page" ]; then
		fail "man/umlrun-$c.1.scd exists"
		continue
	fi
	missing=
	for opt in $(help_options "$c"); do
		grep -qF -- "*$opt*" "$page" || missing="$missing $opt"
	done
	[ -z "$missing" ]
	check "umlrun-$c(1) documents every option of 'umlrun $c --help'" "missing:$missing"
done

for src in "$man"/*.scd; do
	scdoc <"$src" >/dev/null 2>"${TMPDIR:-/tmp}/umlrun-scdoc.$$"
	check "$(basename "$src") turns into roff" "$(cat "${TMPDIR:-/tmp}/umlrun-scdoc.$$")"
done
rm -f "${TMPDIR:-/tmp}/umlrun-scdoc.$$"

tap_done
