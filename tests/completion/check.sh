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
check "run's options complete, from its --help" "$got"
got=$(complete_words "$umlrun" merge --)
offers --output= && ! offers --jobs=
check "each command offers only its own options" "$got"
got=$(complete_words "$umlrun" kselftest --re)
offers --retry= && ! offers --rerun-failed
check "kselftest offers run's options but those it refuses" "$got"
got=$(complete_words "$umlrun" run --time-travel = ba)
[ "$got" = basic ]
check "an option's value completes after '='" "$got"
got=$(complete_words "$umlrun" run --seccomp=o)
offers --seccomp=on && offers --seccomp=off
check "an option's value completes in --opt=value, unsplit" "$got"

tap_done
