#!/bin/sh
# The bash completion (completion/umlrun.bash), driven as bash drives it:
# COMP_WORDS and COMP_CWORD set, _umlrun called, COMPREPLY read.
#
#   sh tests/completion/check.sh [UMLRUN]    (default build/umlrun)
#
# Prints TAP; exits 1 if a check failed.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
umlrun=${1:-$top/build/umlrun}
# The suites and test files complete from this checkout's, whichever
# umlrun (one in a build folder elsewhere, make B=DIR, finds no project).
export UMLRUN_HOME="${UMLRUN_HOME:-$top}"
. "$top/tests/tap.sh"

# complete WORD...: what _umlrun offers for the last word, one a line.
complete_words() {
	bash -c '. "$1" && shift && COMP_WORDS=("$@") &&
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _umlrun;
		printf "%s\n" "${COMPREPLY[@]}"' sh "$top/completion/umlrun.bash" "$@"
}
# offers WORD: the last completion offered it.
offers() {
	printf '%s\n' "$got" | grep -qx -- "$1"
}

echo "TAP version 13"

bash -c '. "$1" && complete -p umlrun' sh "$top/completion/umlrun.bash" >/dev/null
check "sourcing the file registers a completion for umlrun"
got=$(complete_words "$umlrun" "")
offers run && offers doctor && offers compare
check "the commands complete" "$got"
got=$(complete_words "$umlrun" run smoke/t0)
offers smoke/t0001-pass.sh && ! offers timers/t0001-sleep.sh
check "umlrun run smoke/t0 offers smoke/t0001-pass.sh and no other suite's" "$got"
got=$(complete_words "$umlrun" list ti)
offers timers
check "a suite name completes" "$got"
got=$(complete_words "$umlrun" run --ti)
offers --time-travel= && offers --timeout= && ! offers --tiny
check "run's options complete" "$got"
got=$(complete_words "$umlrun" merge --)
offers --output= && ! offers --jobs=
check "each command offers only its own options" "$got"
got=$(complete_words "$umlrun" kselftest --re)
offers --retry= && ! offers --rerun-failed
check "kselftest offers run's options but those it refuses" "$got"
got=$(complete_words "$umlrun" kselftest --)
offers --jobs= && offers --filter= && offers --seeds= && offers --trace-event= && ! offers --gdb &&
	! offers --suite-dir= && ! offers --plain= && ! offers --trace && ! offers --run=
check "kselftest offers none of the options its --help lists as refused, --gdb among them" "$got"
got=$(complete_words "$umlrun" kunit --)
offers --filter_action= && offers --run_isolated= && offers --list_suites && offers --jobs= &&
	offers --raw_output && offers --json && offers --no-build && ! offers --build_dir=
check "kunit offers kunit.py's options it takes, not those it refuses" "$got"

# Every command's options complete as its rows in umlrun's table say
# (umlrun help --options CMD): all of them, and only them. And each option
# its --help names completes: an option added to the table (so to its
# help) that the completion does not offer fails here.
commands=$("$umlrun" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$commands" ]
check "umlrun --help lists the commands"
for c in $commands; do
	want=$("$umlrun" help --options "$c" | tr ' ' '\n' | sort)
	got=$(complete_words "$umlrun" "$c" - | sort)
	[ "$got" = "$want" ] && { [ -n "$got" ] || [ "$c" = help ]; }
	check "$c: the options complete, each as its row says (help --options $c)" \
		"offered: $(echo $got); the table's: $(echo $want)"
	missing=
	for opt in $("$umlrun" "$c" --help |
		awk '/^  -/ { for (i = 1; i <= NF && $i ~ /^-/; i++) print $i }' |
		grep -o -- '^--\?[a-zA-Z][a-zA-Z_-]*'); do
		printf '%s\n' "$got" | sed 's/=$//' | grep -qx -- "$opt" || missing="$missing $opt"
	done
	[ -z "$missing" ]
	check "$c: every option of '$c --help' completes" "not offered:$missing"
done

# The table is asked once a shell session for each command: an umlrun that
# logs its calls, completed three times in one bash.
fake=$(mktemp -d "${TMPDIR:-/tmp}/umlrun-completion.XXXXXX")
printf '#!/bin/sh\necho "$*" >>"%s/calls"\nexec "%s" "$@"\n' "$fake" "$umlrun" >"$fake/umlrun"
chmod +x "$fake/umlrun"
got=$(bash -c '. "$1" && for w in --ti --re --ti; do COMP_WORDS=("$2" run "$w") COMP_CWORD=2 &&
	_umlrun && printf "%s\n" "${COMPREPLY[@]}"; done' sh "$top/completion/umlrun.bash" "$fake/umlrun")
calls=$(grep -c -- '--options' "$fake/calls")
offers --time-travel= && offers --retry= && [ "$calls" = 1 ]
check "a command's options are asked once a shell session" "$calls calls: $(cat "$fake/calls")"
rm -rf "$fake"

got=$(complete_words "$umlrun" kunit --run_isolated=)
offers --run_isolated=suite && offers --run_isolated=test
check "kunit --run_isolated= completes suite and test" "$got"
got=$(complete_words "$umlrun" run --time-travel = ba)
[ "$got" = basic ]
check "an option's value completes after '='" "$got"
got=$(complete_words "$umlrun" run --seccomp=o)
offers --seccomp=on && offers --seccomp=off
check "an option's value completes in --opt=value, unsplit" "$got"

# --mount=HOST[:GUEST][:rw]: bash splits the word at '=' and ':' (default
# COMP_WORDBREAKS), or at neither.
d=$top/testsuites
got=$(complete_words "$umlrun" exec --mount = "$top/testsui")
offers "$d" && ! offers "$top/tests"
check "--mount's HOST completes as a folder" "$got"
got=$(complete_words "$umlrun" exec --mount "$top/testsui")
offers "$d"
check "--mount HOST (two words) completes as a folder" "$got"
got=$(complete_words "$umlrun" exec "--mount=$top/testsui")
offers "--mount=$d"
check "--mount=HOST completes as a folder, unsplit" "$got"
got=$(complete_words "$umlrun" run --mount = "$d" : smo)
[ -z "$got" ]
check "--mount's GUEST (after HOST:) offers no host folder and no test" "$got"
got=$(complete_words "$umlrun" run --mount = "$d" : /src : r)
[ "$got" = rw ]
check "--mount=HOST:GUEST: then offers rw" "$got"
got=$(complete_words "$umlrun" exec "--mount=$d:/src:")
[ "$got" = "--mount=$d:/src:rw" ]
check "--mount=HOST:GUEST: offers rw, unsplit" "$got"
got=$(complete_words "$umlrun" run "--mount=$d:/src" smoke/t0001)
offers smoke/t0001-pass.sh
check "a test after a --mount value completes as a test" "$got"

tap_done
