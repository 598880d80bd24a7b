#!/bin/sh
# The man pages (man/*.scd) and umlrun's table of options agree: every
# command `umlrun --help` lists has a page, and the page's OPTIONS document
# exactly the options the command takes, as the table's rows say them
# (`umlrun help --options CMD`, the list the bash completion follows too):
# each one (by its long name or its letter), none it does not take, and a
# value (*--opt*=...) on those that need one and on no other. Every page
# turns into roff with scdoc.
#
#   sh tests/man/check.sh [UMLRUN]    (default build/umlrun)
#
# Prints TAP; exits 1 if a check failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
umlrun=${1:-$top/build/umlrun}
man=$top/man
. "$top/tests/tap.sh"

# What a page documents: the options named in the terms of its OPTIONS
# section (a line that starts with *- after a blank one; a paragraph's
# lines do not follow a blank one), a line each: *--name*=_VALUE_ gives
# "--name=", *--name* or *--name*[=_VALUE_] "--name", *-x* "-x".
page_options() {
	awk '/^# / { s = $0 == "# OPTIONS"; prev = ""; next }
	s && prev == "" && /^\*-/ {
		line = $0
		while (match(line, /\*--?[a-zA-Z][a-zA-Z0-9_-]*\*=?/)) {
			w = substr(line, RSTART + 1, RLENGTH - 1)
			sub(/\*/, "", w)
			print w
			line = substr(line, RSTART + RLENGTH)
		}
	}
	{ prev = $0 }' "$1"
}

# A page that documents its options by another command's (kselftest's):
# "Every option of *umlrun-CMD*(1) but *--a*, ... which it refuses" in its
# OPTIONS. like_of prints CMD, refused_of the options named between "but"
# and "which it refuses", a line each.
like_of() {
	sed -n '/^# OPTIONS$/,/^# /s/^Every option of \*umlrun-\([a-z]*\)\*(1) but.*/\1/p' "$1"
}
refused_of() {
	awk '/^# / { s = $0 == "# OPTIONS"; next }
	s && /^Every option of / { p = 1 }
	p && $0 == "" { p = 0 }
	p { text = text " " $0 }
	END {
		sub(/.* but /, "", text)
		sub(/which it refuses.*/, "", text)
		while (match(text, /\*--[a-zA-Z][a-zA-Z0-9_-]*\*/)) {
			print substr(text, RSTART + 1, RLENGTH - 2)
			text = substr(text, RSTART + RLENGTH)
		}
	}' "$1"
}

# has LINES WORD: WORD is one of the lines.
has() {
	printf '%s\n' "$1" | grep -qxF -- "$2"
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
	# The table's: "--jobs= -j" lines; every name (less '='); the long ones as given.
	list=$("$umlrun" help --options "$c")
	[ -n "$list" ]
	check "umlrun help --options $c lists its options" "$list"
	names=$(printf '%s\n' "$list" | tr ' ' '\n' | sed 's/=$//')
	longs=$(printf '%s\n' "$list" | cut -d' ' -f1)
	# The page's, and those of the page it refers to for the rest.
	doc=$(page_options "$page")
	docnames=$(printf '%s\n' "$doc" | sed 's/=$//')
	like=$(like_of "$page")
	likelongs=
	[ -z "$like" ] || likelongs=$("$umlrun" help --options "$like" | cut -d' ' -f1)

	missing=
	while read -r long short; do
		has "$docnames" "${long%=}" || { [ -n "$short" ] && has "$docnames" "$short"; } ||
			has "$likelongs" "$long" || missing="$missing ${long%=}"
	done <<-EOF
		$list
	EOF
	[ -z "$missing" ]
	check "umlrun-$c(1) documents every option $c takes${like:+ (or umlrun-$like(1) does)}" \
		"missing:$missing"

	extra=
	value=
	for w in $doc; do
		if ! has "$names" "${w%=}"; then
			extra="$extra ${w%=}"
		elif [ "${w#--}" != "$w" ] && ! has "$longs" "$w"; then
			value="$value $w (the table's: $(printf '%s\n' "$longs" | grep -x -- "${w%=}=\{0,1\}"))"
		fi
	done
	[ -z "$extra" ]
	check "umlrun-$c(1) documents no option $c does not take" "not taken:$extra"
	[ -z "$value" ]
	check "umlrun-$c(1) gives a value to the options that need one, and to no other" \
		"the page's:$value"

	if [ -n "$like" ]; then
		refused=$(refused_of "$page" | sort)
		want=$(for l in $likelongs; do has "$longs" "$l" || echo "${l%=}"; done | sort)
		[ "$refused" = "$want" ]
		check "umlrun-$c(1) names the options of umlrun-$like(1) it refuses, and no other" \
			"named:$(printf ' %s' $refused); refused:$(printf ' %s' $want)"
	fi
done

for src in "$man"/*.scd; do
	scdoc <"$src" >/dev/null 2>"${TMPDIR:-/tmp}/umlrun-scdoc.$$"
	check "$(basename "$src") turns into roff" "$(cat "${TMPDIR:-/tmp}/umlrun-scdoc.$$")"
done
rm -f "${TMPDIR:-/tmp}/umlrun-scdoc.$$"

tap_done
