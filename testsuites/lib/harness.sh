# SPDX-License-Identifier: MIT
# harness.sh - the shell test harness that umlrun's test files source.
#
# A test file is a POSIX sh script in testsuites/SUITE/tNNNN-name.sh. Inside
# the guest it runs as `/bin/sh tNNNN-name.sh` (busybox ash) from
# /suite/SUITE; on the host it runs the same way from testsuites/SUITE.
# The harness is modelled on git's t/test-lib.sh and sharness: if you have
# written a git test, you have written one of these.
#
# Tutorial
# --------
#	#!/bin/sh
#	test_description='a daemon answers on its socket'
#	. ../lib/harness.sh
#
#	test_lazy_prereq HWSIM 'test -d /sys/module/mac80211_hwsim'
#
#	test_expect_success HWSIM 'the daemon starts and answers' '
#		{ my_daemon --socket=sock & } &&
#		pid=$! &&
#		test_when_finished "kill $pid" &&
#		my_client --socket=sock ping >out &&
#		test_line_count = 1 out
#	'
#
#	test_expect_success 'the config file parses' '
#		printf "a\nb\n" >expect &&
#		my_parser config >actual &&
#		test_cmp expect actual
#	'
#
#	test_expect_failure 'roaming keeps the lease (known bug)' '
#		...
#	'
#
#	test_done
#
# Each test_expect_* prints one KTAP result line on stdout; test_done prints
# the plan and exits 0 when no test failed, 1 otherwise.
#
# Rules a test body follows (see docs/harness.md for the whole contract):
#  - chain every command with &&; the harness runs the body once with a
#    leading failure first and reports a broken chain as a bug;
#  - in a loop, end the chain with `|| return 1`;
#  - `cd` only inside a subshell: bodies share the harness's shell;
#  - never `exit`: it ends the whole test file (reported as not ok);
#  - start a background process as `{ cmd & } &&`: a bare `&` ends the chain;
#  - register cleanup with test_when_finished, not at the end of the body;
#  - write scratch files in the current directory ($HARNESS_TRASH_DIR) and
#    anything worth keeping in $UMLRUN_ARTIFACTS.
#
# Channels
# --------
# stdout is the result channel and carries KTAP only: the version line,
# result lines, "# " diagnostics and the plan. A body's stdout and stderr go
# to the console (the harness's stderr) and, when $UMLRUN_ARTIFACTS is a
# writable directory, are also appended to $UMLRUN_ARTIFACTS/harness.log.
# File descriptors 6 and 7 belong to the harness; bodies must leave them be.
#
# Internal names start with _harness_; everything else is API.

# ---- State -------------------------------------------------------------------

_harness_nl='
'
_harness_count=0	# tests started: the N of "ok N"
_harness_pass=0
_harness_fail=0		# the only count that makes test_done exit 1
_harness_xfail=0	# known breakages still broken
_harness_xpass=0	# known breakages that vanished
_harness_skip=0
_harness_in_test=	# non-empty while a body or its cleanups run
_harness_phase=		# body or cleanup, for the exit trap
_harness_cleanups=	# eval-able list, newest first
_harness_done=		# set once the harness exits on purpose
_harness_prereq_ok=' '		# space-padded lists of prerequisite names
_harness_prereq_missing=' '	# (lazy ones that failed only)
_harness_lazy_names=' '
_harness_trace=
_harness_immediate=
_harness_run_list=	# --run=LIST: the tests to run (numbers, ranges); empty for all
_harness_keep=
_harness_copying=		# set while a copier feeds harness.log
_harness_log=
_harness_signal=		# set by a signal trap for the exit trap
_harness_title=
_harness_body=

# ---- Results and diagnostics ------------------------------------------------

# Replaces every newline in $1 with a space and every "#" with "%23": a KTAP
# description is one line and may not contain "#", which starts a directive
# (a title such as "x # SKIP" must not turn a test into a skip). Sets
# _harness_line.
_harness_one_line () {
	_harness_line=$1
	while :; do
		case $_harness_line in
		*"$_harness_nl"*)
			_harness_line="${_harness_line%%"$_harness_nl"*} ${_harness_line#*"$_harness_nl"}" ;;
		*'#'*)
			_harness_line="${_harness_line%%#*}%23${_harness_line#*#}" ;;
		*) return 0 ;;
		esac
	done
}

# Prints every line of $1 on stdout as a KTAP diagnostic. Prefixing each line
# (rather than trusting the text) is what keeps a message from ever reading
# as a result line.
_harness_print_diag () {
	printf '%s\n' "$1" | while IFS= read -r _harness_l || [ -n "$_harness_l" ]; do
		printf '# %s\n' "$_harness_l"
	done
}

# A diagnostic about the current test. While a test runs, stdout belongs to
# the body, so the text is collected in a file and printed just before the
# test's result line (KTAP puts a test's diagnostics there); outside a test
# it goes straight to stdout.
_harness_diag () {
	if [ -n "$_harness_in_test" ]; then
		printf '%s\n' "$1" >>"$_harness_diag_file"
	else
		_harness_print_diag "$1"
	fi
}

_harness_flush_diags () {
	[ -s "$_harness_diag_file" ] || return 0
	while IFS= read -r _harness_l || [ -n "$_harness_l" ]; do
		printf '# %s\n' "$_harness_l"
	done <"$_harness_diag_file"
	: >"$_harness_diag_file"
}

# Writes a line on the console: the header before each body and notes from
# the harness. fd 7 leads to the console and to harness.log.
_harness_console () {
	printf '%s\n' "$1" >&7
}

# $1 "ok" or "not ok", $2 the directive part (" # ..."), may be empty.
_harness_result () {
	_harness_flush_diags
	printf '%s %d %s%s\n' "$1" "$_harness_count" "$_harness_title" "$2"
}

# Appends the body, without its leading and trailing blank lines, to the
# diagnostics: as in git, a failing test shows the code that failed.
_harness_diag_body () {
	_harness_b=$_harness_body
	while :; do
		case $_harness_b in
		"$_harness_nl"*) _harness_b=${_harness_b#"$_harness_nl"} ;;
		*[[:space:]]) _harness_b=${_harness_b%?} ;;
		*) break ;;
		esac
	done
	[ -z "$_harness_b" ] || printf '%s\n' "$_harness_b" >>"$_harness_diag_file"
}

# A mistake in the test file itself. Inside a test it fails that test; at
# the top level the file cannot go on, so the harness stops without a plan,
# which the host reads as an incomplete run.
_harness_bug () {
	if [ -n "$_harness_in_test" ]; then
		_harness_diag "bug in the test script: $1"
		return 1
	fi
	_harness_print_diag "bug in the test script: $1"
	_harness_exit 1
}

# ---- Console copier ----------------------------------------------------------

# Connects fd 7 to the console, through a copier that also appends to
# harness.log when $UMLRUN_ARTIFACTS is a writable directory, so that the
# console and the log both get the output as it happens.
#
# The harness must be able to stop the copier and know that it has written
# everything: the guest's init kills all processes as soon as the test file
# exits. End of file cannot be the signal, because a background process that
# a body leaves running keeps the fifo open; so the harness writes a
# sentinel line last and the copier stops there. The copier is a loop of
# this shell, not tee or awk: tee cannot stop at a sentinel, and mawk (the
# host's awk) reads a fifo in whole blocks, which would keep both the
# console and the sentinel waiting.
_harness_open_console () {
	exec 7>&2
	[ -n "${UMLRUN_ARTIFACTS-}" ] || return 0
	if ! [ -d "$UMLRUN_ARTIFACTS" ] || ! [ -w "$UMLRUN_ARTIFACTS" ]; then
		_harness_console "# harness: $UMLRUN_ARTIFACTS is not a writable directory; no harness.log"
		return 0
	fi
	mkfifo "$_harness_dir/console" "$_harness_dir/done" || {
		_harness_console "# harness: cannot make fifos in $_harness_dir; no harness.log"
		return 0
	}
	_harness_log=$UMLRUN_ARTIFACTS/harness.log
	_harness_sentinel="harness-console-end-$$-${_harness_dir##*/}"
	# The copier holds the only write end of the done fifo, so the harness's
	# read there returns once the copier has finished, whichever way it
	# ends; a pid to poll could be a zombie or reused. The extra subshell
	# keeps the copier out of this shell's jobs, or a body's bare `wait`
	# would wait for it forever. It ignores the signals that end a run
	# (timeout(1) and Ctrl-C hit the whole process group) so that the
	# harness, stopping on them, still finds it there to flush the log.
	(
		trap '' HUP INT TERM
		_harness_copy <"$_harness_dir/console" >&2 3>>"$_harness_log" \
			6>"$_harness_dir/done" &
	)
	# The copier opens the fifos in this order too; each open blocks until
	# the other side arrives.
	exec 7>"$_harness_dir/console"
	exec 6<"$_harness_dir/done"
	_harness_copying=t
}

# The copier: the fifo on stdin, the console on stdout, the log on fd 3.
_harness_copy () {
	while IFS= read -r _harness_l || [ -n "$_harness_l" ]; do
		case $_harness_l in
		*"$_harness_sentinel"*)
			# Also at the end of a body's unfinished last line.
			_harness_l=${_harness_l%%"$_harness_sentinel"*}
			if [ -n "$_harness_l" ]; then
				printf '%s\n' "$_harness_l"
				printf '%s\n' "$_harness_l" >&3
			fi
			break
			;;
		esac
		printf '%s\n' "$_harness_l"
		printf '%s\n' "$_harness_l" >&3
	done
}

_harness_close_console () {
	if [ -n "$_harness_copying" ]; then
		printf '%s\n' "$_harness_sentinel" >&7
		exec 7>&-
		# End of file: the copier is done.
		read -r _harness_l <&6
		exec 6<&-
		_harness_copying=
	else
		exec 7>&-
	fi
}

# ---- Prerequisites -----------------------------------------------------------

_harness_check_prereq_name () {
	case $1 in
	'' | *[!A-Za-z0-9_]*) _harness_bug "bad prerequisite name '$1'" ;;
	esac
}

test_set_prereq () {
	_harness_check_prereq_name "$1" || return 1
	case $_harness_prereq_missing in
	*" $1 "*)
		_harness_prereq_missing="${_harness_prereq_missing%% "$1" *} ${_harness_prereq_missing#* "$1" }" ;;
	esac
	case $_harness_prereq_ok in
	*" $1 "*) ;;
	*) _harness_prereq_ok="$_harness_prereq_ok$1 " ;;
	esac
}

# The script runs once, the first time a test asks for NAME, in a subshell
# and in a scratch directory of its own; NAME holds if it exits 0.
test_lazy_prereq () {
	[ $# = 2 ] || _harness_bug "test_lazy_prereq takes NAME SCRIPT" || return 1
	_harness_check_prereq_name "$1" || return 1
	eval "_harness_lazy_$1=\$2"
	_harness_lazy_names="$_harness_lazy_names$1 "
}

# Returns 0 when NAME holds, evaluating a lazy prerequisite on first use.
_harness_prereq_holds () {
	case $_harness_prereq_ok in *" $1 "*) return 0 ;; esac
	case $_harness_prereq_missing in *" $1 "*) return 1 ;; esac
	case $_harness_lazy_names in *" $1 "*) ;; *) return 1 ;; esac
	eval "_harness_code=\$_harness_lazy_$1"
	_harness_console "# checking prerequisite $1"
	mkdir -p "$_harness_dir/prereq-$1"
	# The script's output is of interest on the console only; its exit and
	# its variables stay in the subshell.
	(
		cd "$_harness_dir/prereq-$1" &&
		_harness_eval_code
	) </dev/null >&7 2>&7 6>&-
	_harness_rc=$?
	rm -rf "$_harness_dir/prereq-$1"
	if [ "$_harness_rc" = 0 ]; then
		_harness_prereq_ok="$_harness_prereq_ok$1 "
		return 0
	fi
	_harness_prereq_missing="$_harness_prereq_missing$1 "
	return 1
}

# test_have_prereq LIST: LIST is NAME[,NAME...], "!NAME" for "NAME must not
# hold". Sets _harness_missing to the entries that are not met.
test_have_prereq () {
	_harness_missing=
	case $1 in
	*[!A-Za-z0-9_,!]*) _harness_bug "bad prerequisite list '$1'"; return 1 ;;
	esac
	_harness_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split on commas; no glob characters got here
	set -- $1
	IFS=$_harness_ifs
	for _harness_p; do
		_harness_name=${_harness_p#!}
		_harness_check_prereq_name "$_harness_name" || return 1
		if _harness_prereq_holds "$_harness_name"; then
			_harness_held=t
		else
			_harness_held=
		fi
		case $_harness_p,$_harness_held in
		!*,t | [!!]*,) _harness_missing="${_harness_missing:+$_harness_missing,}$_harness_p" ;;
		esac
	done
	[ -z "$_harness_missing" ]
}

# ---- Running a test ----------------------------------------------------------

# Evaluates $_harness_code inside a function, so that `return` works as in
# git's tests. Under -x the `set -x` goes inside the eval so the trace shows
# the commands, not the eval of the whole text.
_harness_eval_code () {
	eval "${_harness_trace:+set -x$_harness_nl}$_harness_code"
}

# Runs the body once behind a command that fails. With every command
# &&-chained, nothing runs and the status stays 117; any other status means
# a command ran after the failure, i.e. a link of the chain is missing. The
# appended line turns 117 into 118, so that a here-doc that swallows the
# rest of the body (its end marker mistyped) is caught as well. This is
# git's check; like git's, it may run the part of a broken body after the
# break, in a subshell whose output is dropped.
_harness_chain_ok () {
	case $_harness_body in
	*[![:space:]]*) ;;
	*) return 0 ;;
	esac
	(
		_harness_diag_file=/dev/null
		eval "(exit 117) && $_harness_body
[ \$? = 117 ] && exit 118"
	) </dev/null >/dev/null 2>&1 6>&- 7>&-
	[ $? = 118 ]
}

# Parses the body without running it: as the body of a function that is
# defined and never called, in a subshell (a syntax error in eval ends a
# non-interactive shell). The shell's own message is left in
# $_harness_syntax_err for the console; it differs from shell to shell.
_harness_syntax_ok () {
	_harness_syntax_err=$(eval "_harness_parse_only () {
$_harness_body
}" 2>&1 </dev/null 6>&- 7>&-)
}

# Registered by test_when_finished, run newest first by _harness_run_cleanups.
_harness_cleanup () {
	_harness_code=$1
	_harness_eval_code </dev/null >&7 2>&7 6>&-
	_harness_rc=$?
	{ set +x; } 2>/dev/null
	if [ "$_harness_rc" != 0 ]; then
		_harness_diag "test_when_finished command failed (exit $_harness_rc):"
		_harness_diag "$1"
		_harness_status=1
	fi
}

_harness_run_cleanups () {
	_harness_phase=cleanup
	_harness_c=$_harness_cleanups
	_harness_cleanups=
	eval "$_harness_c"
}

# $1 success|failure, then [PREREQS] TITLE BODY.
_harness_run () {
	_harness_kind=$1
	shift
	[ -z "$_harness_in_test" ] ||
		_harness_bug "test_expect_$_harness_kind inside a test body" || return 1
	case $# in
	2) _harness_prereq= ;;
	3) _harness_prereq=$1; shift ;;
	*) _harness_bug "test_expect_$_harness_kind takes [PREREQ] TITLE BODY, not $# argument(s)" ;;
	esac
	_harness_check_skip_all
	_harness_count=$((_harness_count + 1))
	_harness_one_line "$1"
	_harness_title=$_harness_line
	_harness_body=$2

	if ! _harness_selected "$_harness_count"; then
		_harness_skip=$((_harness_skip + 1))
		_harness_result ok " # SKIP not selected by --run=$_harness_run_list"
		return 0
	fi
	if [ -n "$_harness_prereq" ] && ! test_have_prereq "$_harness_prereq"; then
		_harness_skip=$((_harness_skip + 1))
		_harness_result ok " # SKIP missing $_harness_missing"
		return 0
	fi

	_harness_console "# TEST $_harness_count: $_harness_title"
	_harness_in_test=t
	if ! _harness_syntax_ok; then
		_harness_diag "bug in the test script: syntax error (an unclosed quote, bracket, if, loop or here-doc):"
		_harness_diag_body
		_harness_console "# $_harness_syntax_err"
		_harness_in_test=
		_harness_failed
		return 0
	fi
	if ! _harness_chain_ok; then
		_harness_diag "bug in the test script: broken &&-chain: a command is not joined with '&&', or a here-doc runs away:"
		_harness_diag_body
		_harness_in_test=
		_harness_failed
		return 0
	fi

	_harness_phase=body
	_harness_cleanups=
	_harness_code=$_harness_body
	_harness_eval_code </dev/null >&7 2>&7 6>&-
	{ _harness_status=$?; set +x; } 2>/dev/null
	_harness_run_cleanups
	_harness_in_test=
	_harness_phase=

	case $_harness_kind,$_harness_status in
	success,0)
		_harness_pass=$((_harness_pass + 1))
		_harness_result ok ''
		;;
	success,*)
		_harness_diag_body
		_harness_failed
		;;
	failure,0)
		_harness_xpass=$((_harness_xpass + 1))
		_harness_result ok ' # TODO known breakage vanished'
		;;
	failure,*)
		_harness_xfail=$((_harness_xfail + 1))
		_harness_result 'not ok' ' # TODO known breakage'
		;;
	esac
}

# _harness_selected N: test N is in the --run list, or there is no list.
# Items are N, N-M, -M (from 1) and N- (to the end).
_harness_selected () {
	[ -n "$_harness_run_list" ] || return 0
	_harness_rest=$_harness_run_list,
	while [ -n "$_harness_rest" ]; do
		_harness_item=${_harness_rest%%,*}
		_harness_rest=${_harness_rest#*,}
		case $_harness_item in
		*-*)
			_harness_lo=${_harness_item%-*}
			_harness_hi=${_harness_item#*-}
			[ "$1" -ge "${_harness_lo:-1}" ] && { [ -z "$_harness_hi" ] || [ "$1" -le "$_harness_hi" ]; } &&
				return 0
			;;
		*) [ "$1" -eq "$_harness_item" ] && return 0 ;;
		esac
	done
	return 1
}

_harness_failed () {
	_harness_fail=$((_harness_fail + 1))
	_harness_result 'not ok' ''
	if [ -n "$_harness_immediate" ]; then
		_harness_print_diag "stopping after the first failure (--immediate)"
		_harness_exit 1
	fi
}

# skip_all set before the first test skips the whole file.
_harness_check_skip_all () {
	[ -n "${skip_all-}" ] || return 0
	if [ "$_harness_count" != 0 ]; then
		_harness_bug "skip_all is set after $_harness_count test(s) ran"
	fi
	_harness_one_line "$skip_all"
	printf '1..0 # SKIP %s\n' "$_harness_line"
	_harness_exit 0
}

# ---- The API -----------------------------------------------------------------

# test_expect_success [PREREQS] TITLE BODY
test_expect_success () {
	_harness_run success "$@"
}

# test_expect_failure [PREREQS] TITLE BODY: a known breakage. Its failure is
# reported as "# TODO known breakage" and does not fail the file.
test_expect_failure () {
	_harness_run failure "$@"
}

# test_when_finished CMD...: inside a body, run CMD after the body, whatever
# its outcome. Newest first; all of them run; a failing one fails the test.
# CMD runs in the harness's shell, so it sees the body's variables.
test_when_finished () {
	[ -n "$_harness_in_test" ] ||
		_harness_bug "test_when_finished outside a test body" || return 1
	# A registration made in a subshell would vanish with it.
	if [ -r /proc/self/stat ]; then
		read -r _harness_pid _harness_l </proc/self/stat
		[ "$_harness_pid" = "$$" ] ||
			_harness_bug "test_when_finished does nothing in a subshell" || return 1
	fi
	_harness_quote "$*"
	_harness_cleanups="_harness_cleanup $_harness_quoted$_harness_nl$_harness_cleanups"
}

# Sets _harness_quoted to $1 in single quotes, for eval.
_harness_quote () {
	_harness_q=$1
	_harness_quoted=
	while :; do
		case $_harness_q in
		*\'*)
			_harness_quoted="$_harness_quoted${_harness_q%%\'*}'\\''"
			_harness_q=${_harness_q#*\'}
			;;
		*) break ;;
		esac
	done
	_harness_quoted="'$_harness_quoted$_harness_q'"
}

# say MSG: a diagnostic. Inside a body it is also shown on the console.
say () {
	if [ -n "$_harness_in_test" ]; then
		_harness_print_diag "$*"
	fi
	_harness_diag "$*"
}

# test_cmp EXPECTED ACTUAL: fails, showing a unified diff, if they differ.
test_cmp () {
	[ $# = 2 ] || _harness_bug "test_cmp takes EXPECTED ACTUAL" || return 1
	diff -u -L "$1" -L "$2" "$1" "$2" >"$_harness_dir/diff" 2>&1 && return 0
	cat "$_harness_dir/diff"
	_harness_diag "test_cmp: $1 and $2 differ:"
	_harness_diag "$(cat "$_harness_dir/diff")"
	return 1
}

# test_must_fail CMD...: CMD must fail, and not by dying from a signal (a
# crash is not the failure a test expects) nor by not being found.
test_must_fail () {
	"$@"
	_harness_rc=$?
	if [ "$_harness_rc" = 0 ]; then
		_harness_diag "test_must_fail: command succeeded: $*"
	elif [ "$_harness_rc" -gt 128 ] && [ "$_harness_rc" -le 192 ]; then
		_harness_diag "test_must_fail: command died by signal $((_harness_rc - 128)): $*"
	elif [ "$_harness_rc" = 127 ] || [ "$_harness_rc" = 126 ]; then
		_harness_diag "test_must_fail: command not found or not executable: $*"
	else
		return 0
	fi
	return 1
}

test_path_is_file () {
	[ -f "$1" ] && return 0
	_harness_diag "test_path_is_file: no file '$1'"
	return 1
}

test_path_is_dir () {
	[ -d "$1" ] && return 0
	_harness_diag "test_path_is_dir: no directory '$1'"
	return 1
}

# test_line_count OP N FILE, e.g. test_line_count = 3 out
test_line_count () {
	[ $# = 3 ] || _harness_bug "test_line_count takes OP N FILE" || return 1
	[ -f "$3" ] || { _harness_diag "test_line_count: no file '$3'"; return 1; }
	_harness_n=$(($(wc -l <"$3")))
	test "$_harness_n" "$1" "$2" && return 0
	_harness_diag "test_line_count: '$3' has $_harness_n line(s), expected $1 $2"
	return 1
}

# test_seq [FIRST] LAST: the integers from FIRST (default 1) to LAST.
test_seq () {
	case $# in
	1) set -- 1 "$1" ;;
	2) ;;
	*) _harness_bug "test_seq takes [FIRST] LAST" || return 1 ;;
	esac
	_harness_i=$1
	while [ "$_harness_i" -le "$2" ]; do
		echo "$_harness_i"
		_harness_i=$((_harness_i + 1))
	done
}

# test_done: the plan, then exit 0 if no test failed, 1 otherwise.
test_done () {
	[ -z "$_harness_in_test" ] ||
		_harness_bug "test_done inside a test body" || return 1
	_harness_check_skip_all
	if [ "$_harness_xpass" != 0 ]; then
		_harness_print_diag "$_harness_xpass known breakage(s) vanished; turn them into test_expect_success"
	fi
	printf '# Totals: pass:%d fail:%d xfail:%d xpass:%d skip:%d\n' \
		"$_harness_pass" "$_harness_fail" "$_harness_xfail" \
		"$_harness_xpass" "$_harness_skip"
	printf '1..%d\n' "$_harness_count"
	[ "$_harness_fail" = 0 ] && _harness_exit 0
	_harness_exit 1
}

# ---- Leaving -----------------------------------------------------------------

_harness_exit () {
	_harness_done=t
	_harness_close_console
	if [ -n "$_harness_keep" ]; then
		printf '# harness: kept %s\n' "$_harness_dir" >&2
	else
		rm -rf "$_harness_dir"
	fi
	exit "$1"
}

# An exit the harness did not ask for: `exit` in a body or a cleanup, or a
# test file that ends (or dies of a syntax error) without test_done. busybox
# ash and dash have undone a body's redirections by now, so stdout is the
# result channel again.
_harness_on_exit () {
	_harness_rc=$?
	[ -z "$_harness_done" ] || return 0
	{ set +x; } 2>/dev/null
	if [ -n "$_harness_signal" ]; then
		if [ -n "$_harness_in_test" ]; then
			_harness_flush_diags
			_harness_print_diag "interrupted by SIG$_harness_signal during test $_harness_count: $_harness_title"
		else
			_harness_print_diag "interrupted by SIG$_harness_signal"
		fi
		_harness_exit "$_harness_rc"
	fi
	if [ -n "$_harness_in_test" ]; then
		_harness_diag "bug in the test script: 'exit $_harness_rc' in the test $_harness_phase ends the test file"
		if [ "$_harness_phase" = body ]; then
			_harness_run_cleanups
		fi
		_harness_diag_body
		_harness_result 'not ok' ''
	else
		_harness_print_diag "bug in the test script: the test file ended (exit $_harness_rc) without test_done"
	fi
	_harness_exit 1
}

# The guest's init kills with SIGKILL and reports the timeout itself; these
# traps are for interactive runs. The trap may run inside a body, where
# stdout is the console, so it only leaves: the exit trap reports, once the
# shell has undone the body's redirections. The test in progress gets no
# result line: the host decides what an interrupted test is.
_harness_on_signal () {
	_harness_signal=$1
	exit $((128 + $2))
}

# ---- Start -------------------------------------------------------------------

echo 'KTAP version 1'

for _harness_opt in ${HARNESS_OPTIONS-} "$@"; do
	case $_harness_opt in
	-x | --trace) _harness_trace=t ;;
	-i | --immediate) _harness_immediate=t ;;
	--run=*)
		_harness_run_list=${_harness_opt#--run=}
		case $_harness_run_list in
		'' | - | -,* | *,- | *,-,* | *[!0-9,-]* | *--* | *-*-* | *,,* | ,* | *,)
			_harness_print_diag "bug in the test script: --run=$_harness_run_list: want test numbers and ranges, e.g. --run=1,3-4"
			exit 1
			;;
		esac
		# Tests are numbered from 1 and a range runs upwards.
		_harness_rest=$_harness_run_list,
		while [ -n "$_harness_rest" ]; do
			_harness_item=${_harness_rest%%,*}
			_harness_rest=${_harness_rest#*,}
			_harness_lo=${_harness_item%-*}
			_harness_hi=${_harness_item#*-}
			if [ "${_harness_lo:-1}" -eq 0 ] || [ "${_harness_hi:-1}" -eq 0 ] ||
				[ "${_harness_lo:-1}" -gt "${_harness_hi:-$_harness_lo}" ]; then
				_harness_print_diag "bug in the test script: --run=$_harness_run_list: tests are numbered from 1 and a range runs upwards, e.g. --run=1,3-4"
				exit 1
			fi
		done
		;;
	-d | --debug) _harness_keep=t ;;
	*)
		_harness_print_diag "bug in the test script: unknown harness option '$_harness_opt' (known: -x -i -d --run=LIST)"
		exit 1
		;;
	esac
done

# Until the traps below take over, a signal still removes the temporary
# directory (timeout(1) signals the whole process group, at any moment).
_harness_dir=
trap '[ -z "$_harness_dir" ] || rm -rf "$_harness_dir"; exit 129' HUP
trap '[ -z "$_harness_dir" ] || rm -rf "$_harness_dir"; exit 130' INT
trap '[ -z "$_harness_dir" ] || rm -rf "$_harness_dir"; exit 143' TERM
_harness_dir=$(mktemp -d "${TMPDIR:-/tmp}/harness.XXXXXX") || {
	_harness_print_diag "harness: cannot create a temporary directory"
	exit 1
}
_harness_diag_file=$_harness_dir/diag
: >"$_harness_diag_file"
trap '_harness_on_exit' EXIT
trap '_harness_on_signal HUP 1' HUP
trap '_harness_on_signal INT 2' INT
trap '_harness_on_signal TERM 15' TERM

HARNESS_SUITE_DIR=$(pwd)
HARNESS_TRASH_DIR=$_harness_dir/trash
export HARNESS_SUITE_DIR HARNESS_TRASH_DIR
if ! mkdir "$HARNESS_TRASH_DIR" || ! cd "$HARNESS_TRASH_DIR"; then
	_harness_print_diag "harness: cannot enter $HARNESS_TRASH_DIR"
	_harness_exit 1
fi

_harness_open_console
_harness_console "# ${UMLRUN_TEST:-$0}${test_description:+: $test_description}"

# The scripts expand when they run, not here.
# shellcheck disable=SC2016
_harness_builtin_prereqs () {
	test_lazy_prereq TIME_TRAVEL 'case ${UMLRUN_MODE-} in basic | inf-cpu) ;; *) false ;; esac'
	test_lazy_prereq INF_CPU 'test "${UMLRUN_MODE-}" = inf-cpu'
	test_lazy_prereq ROOT 'test "$(id -u)" = 0'
	test_lazy_prereq UML 'grep -q "User Mode Linux" /proc/cpuinfo'
}
_harness_builtin_prereqs

_harness_check_skip_all
