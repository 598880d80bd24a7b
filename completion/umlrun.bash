# bash completion for umlrun(1), installed as
# $(PREFIX)/share/bash-completion/completions/umlrun.
#
# Commands come from `umlrun --help`, each command's options from umlrun's
# own table of them (`umlrun help --options CMD`), so a new option
# completes without an edit here (only the values of a new kind do:
# _umlrun_values); suites and test files from `umlrun list`. An umlrun
# typed with a path (build/umlrun) is the one asked.

# What `UMLRUN help --options CMD` printed, by "UMLRUN CMD" (UMLRUN made
# absolute): asked once a shell session. Global: bash-completion sources
# this file inside a function.
declare -gA _umlrun_options_cache

# Sets the caller's opts to the options of command $2 of umlrun $1, as
# completions: its lines "--jobs= -j", "--shuffle" give "--jobs=" (a value
# follows), "-j" and "--shuffle" (none, or an optional one: --shuffle=SEED).
# Not in a subshell ($(...), a pipe): the answer would not stay cached.
_umlrun_options()
{
	local key=$1

	[[ $key == */* && $key != /* ]] && key=$PWD/$key
	key+=" $2"
	if [[ -z ${_umlrun_options_cache[$key]+set} ]]; then
		_umlrun_options_cache[$key]=$("$1" help --options "$2" 2>/dev/null)
	fi
	read -r -d '' -a opts <<<"${_umlrun_options_cache[$key]}"
}

# The values of option $2 of command $3 (cur is $4).
_umlrun_values()
{
	local umlrun=$1 opt=$2 cur=$4

	case $opt in
	--time-travel) compgen -W 'off basic inf-cpu' -- "$cur" ;;
	--seccomp) compgen -W 'auto on off' -- "$cur" ;;
	--kernel)
		compgen -W "$("$umlrun" build --help 2>/dev/null |
			sed -n 's/.*linux-source-VERSION: //p' | tr -c '0-9.\n' ' ')" -- "$cur"
		;;
	--results | --suite-dir | --overlay | --output | --kernel-src | --plain | --hostap | --gdb-guest-source)
		compgen -d -- "$cur"
		;;
	--durations | --config | --kunitconfig | --json) compgen -f -- "$cur" ;;
	# umlrun kunit's, from kunit.py
	--run_isolated) compgen -W 'suite test' -- "$cur" ;;
	--raw_output) compgen -W 'kunit all full' -- "$cur" ;;
	--filter_action) compgen -W 'skip' -- "$cur" ;;
	--arch) compgen -W 'um' -- "$cur" ;;
	esac
}

# --mount=HOST[:GUEST][:rw], which bash may split at '=' and ':' (its
# COMP_WORDBREAKS) or not. When the cursor is in such a value, sets
# COMPREPLY for readline's word (the text after the last break) and
# returns 0; returns 1 when it is not. HOST completes as a host folder;
# GUEST is a path in the guest, not completed; then "rw".
_umlrun_mount()
{
	local i w value='' word=${COMP_WORDS[COMP_CWORD]} prefix tail

	# Back from the cursor over pieces and ':' to --mount= or "--mount =";
	# a piece before the cursor must be followed by a ':' (two pieces in a
	# row are two words), and "--mount HOST" is the option's value too.
	for ((i = COMP_CWORD; i > 1; i--)); do
		w=${COMP_WORDS[i]}
		if [[ $w == = ]]; then
			[[ ${COMP_WORDS[i - 1]} == --mount ]] || return 1
			break
		fi
		((i == COMP_CWORD)) || [[ $w == : || ${COMP_WORDS[i + 1]} == : ]] || return 1
		if [[ $w == --mount=* ]]; then
			value=${w#--mount=}$value
			break
		fi
		value=$w$value
		[[ $w != : && ${COMP_WORDS[i - 1]} == --mount ]] && break
	done
	((i > 1)) || return 1
	[[ $word == [=:] ]] && word=
	if [[ $value != *:* ]]; then
		prefix=${word%"$value"}
		mapfile -t COMPREPLY < <(compgen -d -- "$value")
		COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
		# A folder gets its '/' (readline quotes what it takes for a
		# file name: only when the word is the folder alone).
		[[ -z $prefix ]] && compopt -o filenames 2>/dev/null
	else
		tail=${value##*:}
		COMPREPLY=()
		[[ rw == "$tail"* ]] && COMPREPLY=("${word%"$tail"}rw")
	fi
	return 0
}

# Suites and test ids, as `umlrun run` takes them (--suite-dir honoured).
_umlrun_tests()
{
	local umlrun=$1 cur=$2 i ids
	local -a extra=()

	for ((i = 2; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--suite-dir=*) extra=("${COMP_WORDS[i]}") ;;
		--suite-dir) extra=("--suite-dir=${COMP_WORDS[i + 1]}") ;;
		esac
	done
	ids=$("$umlrun" list "${extra[@]}" 2>/dev/null)
	compgen -W "$ids $(printf '%s\n' "$ids" | sed -n 's,/.*,,p' | sort -u)" -- "$cur"
}

_umlrun()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local umlrun=${COMP_WORDS[0]} cmd= opt= i
	local -a opts=()

	COMPREPLY=()
	[[ $umlrun == */* && -x $umlrun ]] || umlrun=umlrun
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$("$umlrun" --help 2>/dev/null |
			sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p') --help" -- "$cur"))
		return
	fi
	# exec's command, after --: commands, then files.
	for ((i = i + 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			if ((i + 1 == COMP_CWORD)); then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
	done

	# --mount's value has parts of its own.
	_umlrun_mount && return
	# --opt=value: bash splits at '=' (COMP_WORDBREAKS), or does not.
	if [[ $cur == = ]]; then
		opt=$prev cur=
	elif [[ $prev == = ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*} cur=${cur#*=}
		COMPREPLY=($(_umlrun_values "$umlrun" "$opt" "$cmd" "$cur" | sed "s/^/$opt=/"))
		return
	elif [[ $prev == --* && $cur != -* ]]; then
		_umlrun_options "$umlrun" "$cmd"
		[[ " ${opts[*]} " == *" $prev= "* ]] && opt=$prev # --opt value
	fi
	if [[ -n $opt ]]; then
		COMPREPLY=($(_umlrun_values "$umlrun" "$opt" "$cmd" "$cur"))
		return
	fi

	if [[ $cur == -* ]]; then
		_umlrun_options "$umlrun" "$cmd"
		COMPREPLY=($(compgen -W "${opts[*]}" -- "$cur"))
		# "--jobs=" wants its value right after the '='.
		if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
			compopt -o nospace 2>/dev/null
		fi
		return
	fi
	case $cmd in
	run | list | compare) COMPREPLY=($(_umlrun_tests "$umlrun" "$cur")) ;;
	merge) COMPREPLY=($(compgen -d -- "$cur")) ;;
	help)
		COMPREPLY=($(compgen -W "$("$umlrun" --help 2>/dev/null |
			sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')" -- "$cur"))
		;;
	esac
}

complete -F _umlrun umlrun
