#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - checks testsuites/lib/harness.sh, the harness the guest's test
# files source.
#
# Each case writes a small test file, runs it under every shell the harness
# must support (busybox sh, the guest's /bin/sh, and dash when present), and
# compares the exact stdout (the KTAP result channel) and exit status with
# what the harness promises; some cases also look at the console (stderr),
# at harness.log and at files the test bodies leave behind. Prints TAP; exits
# 1 if any check failed. `make check` runs it as `sh tests/harness/run.sh`.

here=$(cd "$(dirname "$0")" && pwd) || exit 1
harness=$here/../../testsuites/lib/harness.sh
[ -f "$harness" ] || { echo "run.sh: no $harness" >&2; exit 1; }

# The harness reads these; a developer's own settings must not leak in.
unset UMLRUN_MODE UMLRUN_START UMLRUN_TEST UMLRUN_ARTIFACTS HARNESS_OPTIONS

work=$(mktemp -d "${TMPDIR:-/tmp}/harness-check.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir "$work/lib" "$work/suite" || exit 1
cp "$harness" "$work/lib/harness.sh" || exit 1
suite=$work/suite

# A harness that hangs must fail the check, not stall `make check`.
limit=
if command -v timeout >/dev/null; then
	limit='timeout 60'
fi

# ---- Reporting -----------------------------------------------------------------

# The project's one TAP dialect (tests/tap.sh): pass, fail, tap_done.
. "$here/../tap.sh"
problems=

# case_begin NAME: starts a case; every `bad` until `report` fails it.
# Files the last run left in the suite directory go; test files stay for a
# rerun.
case_begin () {
	case_name=$1
	problems=
	for f in "$suite"/*; do
		case $f in
		*.sh) ;;
		*) rm -rf "$f" ;;
		esac
	done
}

bad () {
	problems="$problems$1
"
}

skip_report () {
	pass "$shell: $case_name # SKIP $1"
}

report () {
	if [ -z "$problems" ]; then
		pass "$shell: $case_name"
		return
	fi
	fail "$shell: $case_name" "$(printf '%s' "$problems" | sed '2,$s/^/# /')"
}

# ---- Running a test file -----------------------------------------------------

# write NAME: the test file NAME.sh, from stdin.
write () {
	cat >"$suite/$1.sh"
}

# run NAME [VAR=VALUE...]: runs NAME.sh from the suite directory with the
# current shell; leaves stdout in $out, stderr in $err, status in $rc and
# wall seconds in $elapsed. $args, if set, go to the test file.
run () {
	run_name=$1
	shift
	started=$(date +%s)
	# $shell and $limit are word lists on purpose.
	# shellcheck disable=SC2086
	(cd "$suite" && env "$@" $limit $shell "$run_name.sh" ${args-}) \
		>"$work/out" 2>"$work/err"
	rc=$?
	elapsed=$(($(date +%s) - started))
	out=$work/out
	err=$work/err
}

# expect_out: stdout must be exactly stdin.
expect_out () {
	cat >"$work/expected"
	if ! cmp -s "$work/expected" "$out"; then
		bad "stdout differs from what was expected:"
		bad "$(diff -u "$work/expected" "$out" | sed 1,2d)"
	fi
}

expect_rc () {
	[ "$rc" = "$1" ] || bad "exit status $rc, expected $1"
}

# expect_line FILE LINE: FILE has LINE as a whole line.
expect_line () {
	grep -qxF -- "$2" "$1" || bad "$(basename "$1") lacks the line '$2'"
}

expect_no_line () {
	! grep -qF -- "$2" "$1" || bad "$(basename "$1") has '$2'"
}

expect_file () {
	[ -f "$1" ] || bad "no file $(basename "$1")"
}

expect_no_file () {
	[ ! -e "$1" ] || bad "$(basename "$1") exists"
}

# ---- The cases -----------------------------------------------------------------

case_pass () {
	case_begin 'passing tests, variables kept from test to test'
	write pass <<\EOF
test_description='passing tests'
. ../lib/harness.sh
test_expect_success 'one line' 'true'
test_expect_success 'several lines' '
	x=1 &&
	test "$x" = 1
'
test_expect_success 'a variable set by an earlier test' 'test "$x" = 1'
test_done
EOF
	run pass
	expect_out <<\EOF
KTAP version 1
ok 1 one line
ok 2 several lines
ok 3 a variable set by an earlier test
# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0
1..3
EOF
	expect_rc 0
	report
}

case_fail () {
	case_begin 'a failing test shows its body and fails the file'
	write fail <<\EOF
. ../lib/harness.sh
test_expect_success 'passes' 'true'
test_expect_success 'fails' '
	echo one &&
	false
'
test_expect_success 'return 1 from a loop fails' '
	for i in 1 2; do
		test $i = 1 || return 1
	done
'
test_expect_success 'tests go on after a failure' 'true'
test_done
EOF
	run fail
	expect_out <<\EOF
KTAP version 1
ok 1 passes
# 	echo one &&
# 	false
not ok 2 fails
# 	for i in 1 2; do
# 		test $i = 1 || return 1
# 	done
not ok 3 return 1 from a loop fails
ok 4 tests go on after a failure
# Totals: pass:2 fail:2 xfail:0 xpass:0 skip:0
1..4
EOF
	expect_rc 1
	report
}

case_xfail () {
	case_begin 'a known breakage is TODO and does not fail the file'
	write xfail <<\EOF
. ../lib/harness.sh
test_expect_success 'passes' 'true'
test_expect_failure 'still broken' '
	echo this is the breakage >&2 &&
	false
'
test_done
EOF
	run xfail
	expect_out <<\EOF
KTAP version 1
ok 1 passes
not ok 2 still broken # TODO known breakage
# Totals: pass:1 fail:0 xfail:1 xpass:0 skip:0
1..2
EOF
	expect_rc 0
	report
}

case_xpass () {
	case_begin 'a vanished known breakage is reported, and does not fail the file'
	write xpass <<\EOF
. ../lib/harness.sh
test_expect_failure 'fixed meanwhile' 'true'
test_done
EOF
	run xpass
	expect_out <<\EOF
KTAP version 1
ok 1 fixed meanwhile # TODO known breakage vanished
# 1 known breakage(s) vanished; turn them into test_expect_success
# Totals: pass:0 fail:0 xfail:0 xpass:1 skip:0
1..1
EOF
	expect_rc 0
	report
}

case_prereq () {
	case_begin 'prerequisites: set, missing, negated, lists'
	write prereq <<\EOF
. ../lib/harness.sh
test_set_prereq HAVE
test_expect_success HAVE 'have' 'touch "$HARNESS_SUITE_DIR/ran-1"'
test_expect_success MISSING 'missing' 'touch "$HARNESS_SUITE_DIR/ran-2"'
test_expect_success !HAVE 'not have' 'touch "$HARNESS_SUITE_DIR/ran-3"'
test_expect_success HAVE,!MISSING 'list met' 'touch "$HARNESS_SUITE_DIR/ran-4"'
test_expect_success MISSING,HAVE,!HAVE 'list unmet' 'touch "$HARNESS_SUITE_DIR/ran-5"'
test_expect_success 'test_have_prereq in a body' '
	test_have_prereq HAVE &&
	! test_have_prereq MISSING &&
	test_have_prereq !MISSING
'
test_done
EOF
	run prereq
	expect_out <<\EOF
KTAP version 1
ok 1 have
ok 2 missing # SKIP missing MISSING
ok 3 not have # SKIP missing !HAVE
ok 4 list met
ok 5 list unmet # SKIP missing MISSING,!HAVE
ok 6 test_have_prereq in a body
# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:3
1..6
EOF
	expect_rc 0
	expect_file "$suite/ran-1"
	expect_no_file "$suite/ran-2"
	expect_no_file "$suite/ran-3"
	expect_file "$suite/ran-4"
	expect_no_file "$suite/ran-5"
	report
}

case_lazy () {
	case_begin 'lazy prerequisites run once, in a subshell of their own'
	write lazy <<\EOF
. ../lib/harness.sh
test_lazy_prereq YES '
	echo yes >>"$HARNESS_SUITE_DIR/yes-runs" &&
	pwd >"$HARNESS_SUITE_DIR/yes-cwd" &&
	lazy_var=leaked
'
test_lazy_prereq NO '
	echo no >>"$HARNESS_SUITE_DIR/no-runs" &&
	false
'
test_expect_success 'not evaluated before use' '! test -e "$HARNESS_SUITE_DIR/yes-runs"'
test_expect_success YES 'yes' 'test -z "${lazy_var-}"'
test_expect_success YES 'yes again' 'true'
test_expect_success NO 'no' 'true'
test_expect_success !NO 'not no' 'true'
test_expect_success 'the script ran outside the test directory' '
	test "$(cat "$HARNESS_SUITE_DIR/yes-cwd")" != "$(pwd)"
'
test_done
EOF
	run lazy
	expect_out <<\EOF
KTAP version 1
ok 1 not evaluated before use
ok 2 yes
ok 3 yes again
ok 4 no # SKIP missing NO
ok 5 not no
ok 6 the script ran outside the test directory
# Totals: pass:5 fail:0 xfail:0 xpass:0 skip:1
1..6
EOF
	expect_rc 0
	[ "$(cat "$suite/yes-runs" 2>/dev/null)" = yes ] || bad "YES ran other than once"
	[ "$(cat "$suite/no-runs" 2>/dev/null)" = no ] || bad "NO ran other than once"
	expect_line "$err" '# checking prerequisite YES'
	report
}

# builtin_line N TITLE PREREQ: the result line for a test that needs PREREQ.
builtin_line () {
	if [ "$4" = yes ]; then
		printf 'ok %d %s\n' "$1" "$2"
	else
		printf 'ok %d %s # SKIP missing %s\n' "$1" "$2" "$3"
	fi
}

case_builtin () {
	mode=$1
	case_begin "built-in prerequisites with UMLRUN_MODE=${mode:-(unset)}"
	write builtins <<\EOF
. ../lib/harness.sh
test_expect_success TIME_TRAVEL 'time travel' 'true'
test_expect_success INF_CPU 'infinite cpu' 'true'
test_expect_success !TIME_TRAVEL 'real time' 'true'
test_expect_success ROOT 'root' 'true'
test_expect_success !ROOT 'not root' 'true'
test_expect_success UML 'uml' 'true'
test_done
EOF
	if [ -n "$mode" ]; then
		run builtins UMLRUN_MODE="$mode"
	else
		run builtins
	fi
	tt=no inf=no root=no uml=no
	case $mode in
	basic) tt=yes ;;
	inf-cpu) tt=yes inf=yes ;;
	esac
	[ "$(id -u)" != 0 ] || root=yes
	! grep -q 'User Mode Linux' /proc/cpuinfo || uml=yes
	notroot=yes notreal=yes
	[ $root = no ] || notroot=no
	[ $tt = no ] || notreal=no
	skips=0
	for v in $tt $inf $notreal $root $notroot $uml; do
		[ "$v" = yes ] || skips=$((skips + 1))
	done
	{
		echo 'KTAP version 1'
		builtin_line 1 'time travel' TIME_TRAVEL $tt
		builtin_line 2 'infinite cpu' INF_CPU $inf
		builtin_line 3 'real time' '!TIME_TRAVEL' $notreal
		builtin_line 4 root ROOT $root
		builtin_line 5 'not root' '!ROOT' $notroot
		builtin_line 6 uml UML $uml
		printf '# Totals: pass:%d fail:0 xfail:0 xpass:0 skip:%d\n' $((6 - skips)) $skips
		echo '1..6'
	} | expect_out
	expect_rc 0
	report
}

case_skip_all () {
	case_begin 'skip_all before the first test skips the file'
	write skipall <<\EOF
. ../lib/harness.sh
skip_all='no radios here'
test_expect_success 'never runs' 'touch "$HARNESS_SUITE_DIR/ran"'
test_done
EOF
	run skipall
	expect_out <<\EOF
KTAP version 1
1..0 # SKIP no radios here
EOF
	expect_rc 0
	expect_no_file "$suite/ran"
	report

	case_begin 'skip_all set before the harness is sourced'
	write skipearly <<\EOF
skip_all='set early'
. ../lib/harness.sh
touch "$HARNESS_SUITE_DIR/ran"
test_done
EOF
	run skipearly
	expect_out <<\EOF
KTAP version 1
1..0 # SKIP set early
EOF
	expect_rc 0
	expect_no_file "$suite/ran"
	report
}

case_chain () {
	case_begin 'a broken &&-chain or a syntax error is a failed test and the body does not run'
	write chain <<\EOF
. ../lib/harness.sh
test_expect_success 'broken chain' '
	touch "$HARNESS_SUITE_DIR/first" &&
	true
	true
'
test_expect_failure 'broken chain in a known breakage still fails' '
	false
	true
'
test_expect_success 'run-away here-doc' '
	cat >expect <<-\END &&
	a
	END.
	false
'
test_expect_success 'an if left open' '
	touch "$HARNESS_SUITE_DIR/syntax" &&
	if true; then
		true
'
test_expect_success 'a sound chain with a here-doc, a loop and a subshell' '
	cat >expect <<-\END &&
	1
	2
	END
	for i in 1 2; do
		echo $i || return 1
	done >actual &&
	(
		cd . &&
		test_cmp expect actual
	) &&
	{ true & } &&
	wait $!
'
test_done
EOF
	run chain
	expect_out <<\EOF
KTAP version 1
# bug in the test script: broken &&-chain: a command is not joined with '&&', or a here-doc runs away:
# 	touch "$HARNESS_SUITE_DIR/first" &&
# 	true
# 	true
not ok 1 broken chain
# bug in the test script: broken &&-chain: a command is not joined with '&&', or a here-doc runs away:
# 	false
# 	true
not ok 2 broken chain in a known breakage still fails
# bug in the test script: syntax error (an unclosed quote, bracket, if, loop or here-doc):
# 	cat >expect <<-\END &&
# 	a
# 	END.
# 	false
not ok 3 run-away here-doc
# bug in the test script: syntax error (an unclosed quote, bracket, if, loop or here-doc):
# 	touch "$HARNESS_SUITE_DIR/syntax" &&
# 	if true; then
# 		true
not ok 4 an if left open
ok 5 a sound chain with a here-doc, a loop and a subshell
# Totals: pass:1 fail:4 xfail:0 xpass:0 skip:0
1..5
EOF
	expect_rc 1
	expect_no_file "$suite/first"
	expect_no_file "$suite/syntax"
	report
}

case_cleanup () {
	case_begin 'test_when_finished: newest first, always, sees the body, can fail'
	write cleanup <<\EOF
. ../lib/harness.sh
note () { echo "$*" >>"$HARNESS_SUITE_DIR/order"; }
test_expect_success 'body fails' '
	x=from-body &&
	test_when_finished note first &&
	test_when_finished note "second \$x" &&
	false
'
test_expect_success 'a cleanup fails, the others still run' '
	test_when_finished note third &&
	test_when_finished false &&
	test_when_finished note fourth
'
test_expect_success 'all pass' '
	test_when_finished note fifth
'
test_expect_success 'registered in a subshell' '
	(test_when_finished note never)
'
test_done
EOF
	run cleanup
	expect_out <<\EOF
KTAP version 1
# 	x=from-body &&
# 	test_when_finished note first &&
# 	test_when_finished note "second \$x" &&
# 	false
not ok 1 body fails
# test_when_finished command failed (exit 1):
# false
# 	test_when_finished note third &&
# 	test_when_finished false &&
# 	test_when_finished note fourth
not ok 2 a cleanup fails, the others still run
ok 3 all pass
# bug in the test script: test_when_finished does nothing in a subshell
# 	(test_when_finished note never)
not ok 4 registered in a subshell
# Totals: pass:1 fail:3 xfail:0 xpass:0 skip:0
1..4
EOF
	expect_rc 1
	printf 'second from-body\nfirst\nfourth\nthird\nfifth\n' >"$work/order"
	cmp -s "$work/order" "$suite/order" ||
		bad "cleanups ran in this order: $(tr '\n' ' ' <"$suite/order" 2>/dev/null)"
	report

	case_begin 'test_when_finished outside a test is a bug that stops the file'
	write cleanup_top <<\EOF
. ../lib/harness.sh
test_expect_success 'passes' 'true'
test_when_finished true
test_expect_success 'never runs' 'true'
test_done
EOF
	run cleanup_top
	expect_out <<\EOF
KTAP version 1
ok 1 passes
# bug in the test script: test_when_finished outside a test body
EOF
	expect_rc 1
	report
}

case_output () {
	case_begin 'body output goes to the console, never to the result channel'
	write output <<\EOF
test_description='noise'
. ../lib/harness.sh
test_expect_success 'noisy' '
	echo "ok 99 fake on stdout" &&
	echo "not ok 98 fake on stderr" >&2 &&
	echo "1..99" &&
	say "a word from the test"
'
test_expect_success 'noisy failure' '
	echo "ok 97 fake before failing" &&
	false
'
test_done
EOF
	run output
	cp "$out" "$work/out-plain"
	expect_out <<\EOF
KTAP version 1
# a word from the test
ok 1 noisy
# 	echo "ok 97 fake before failing" &&
# 	false
not ok 2 noisy failure
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0
1..2
EOF
	expect_rc 1
	expect_line "$err" '# output.sh: noise'
	expect_line "$err" '# TEST 1: noisy'
	expect_line "$err" 'ok 99 fake on stdout'
	expect_line "$err" 'not ok 98 fake on stderr'
	expect_line "$err" '# a word from the test'
	expect_line "$err" '# TEST 2: noisy failure'
	expect_line "$err" 'ok 97 fake before failing'
	report

	case_begin 'with UMLRUN_ARTIFACTS the console is also appended to harness.log'
	mkdir "$work/art"
	echo 'from an earlier run' >"$work/art/harness.log"
	run output UMLRUN_ARTIFACTS="$work/art"
	cmp -s "$work/out-plain" "$out" || bad "stdout changed with UMLRUN_ARTIFACTS"
	expect_line "$err" 'ok 99 fake on stdout'
	{ echo 'from an earlier run' && cat "$err"; } >"$work/log-expected"
	cmp -s "$work/log-expected" "$work/art/harness.log" || {
		bad "harness.log is not the earlier log plus the console:"
		bad "$(diff -u "$work/log-expected" "$work/art/harness.log" | sed 1,2d)"
	}
	rm -rf "$work/art"
	report
}

case_test_cmp () {
	case_begin 'test_cmp shows the diff'
	write cmp <<\EOF
. ../lib/harness.sh
test_expect_success 'differ' '
	printf "a\nb\n" >expect &&
	printf "a\nc\n" >actual &&
	test_cmp expect actual
'
test_expect_success 'same' '
	echo a >expect &&
	echo a >actual &&
	test_cmp expect actual
'
test_done
EOF
	run cmp
	expect_out <<\EOF
KTAP version 1
# test_cmp: expect and actual differ:
# --- expect
# +++ actual
# @@ -1,2 +1,2 @@
#  a
# -b
# +c
# 	printf "a\nb\n" >expect &&
# 	printf "a\nc\n" >actual &&
# 	test_cmp expect actual
not ok 1 differ
ok 2 same
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0
1..2
EOF
	expect_rc 1
	expect_line "$err" '+c'
	report
}

case_helpers () {
	case_begin 'test_must_fail, test_path_is_*, test_line_count, test_seq'
	write helpers <<\EOF
. ../lib/harness.sh
test_expect_success 'must fail: fails' 'test_must_fail false'
test_expect_success 'must fail: succeeds' 'test_must_fail true'
test_expect_success 'must fail: killed' 'test_must_fail sh -c "kill -TERM \$\$"'
test_expect_success 'must fail: not found' 'test_must_fail no-such-command-here 2>/dev/null'
test_expect_success 'paths' '
	mkdir d &&
	: >f &&
	test_path_is_dir d &&
	test_path_is_file f &&
	test_must_fail test_path_is_file d &&
	test_must_fail test_path_is_dir f
'
test_expect_success 'no such file' 'test_path_is_file nothing'
test_expect_success 'seq and line count' '
	test_seq 3 >three &&
	test_line_count = 3 three &&
	test_seq 2 4 >actual &&
	printf "2\n3\n4\n" >expect &&
	test_cmp expect actual &&
	test_line_count -gt 2 actual
'
test_expect_success 'wrong line count' '
	test_seq 2 >two &&
	test_line_count = 3 two
'
test_done
EOF
	run helpers
	expect_out <<\EOF
KTAP version 1
ok 1 must fail: fails
# test_must_fail: command succeeded: true
# test_must_fail true
not ok 2 must fail: succeeds
# test_must_fail: command died by signal 15: sh -c kill -TERM $$
# test_must_fail sh -c "kill -TERM \$\$"
not ok 3 must fail: killed
# test_must_fail: command not found or not executable: no-such-command-here
# test_must_fail no-such-command-here 2>/dev/null
not ok 4 must fail: not found
# test_path_is_file: no file 'd'
# test_path_is_dir: no directory 'f'
ok 5 paths
# test_path_is_file: no file 'nothing'
# test_path_is_file nothing
not ok 6 no such file
ok 7 seq and line count
# test_line_count: 'two' has 2 line(s), expected = 3
# 	test_seq 2 >two &&
# 	test_line_count = 3 two
not ok 8 wrong line count
# Totals: pass:3 fail:5 xfail:0 xpass:0 skip:0
1..8
EOF
	expect_rc 1
	report
}

case_titles () {
	case_begin 'a title cannot forge a directive or a line'
	write titles <<\EOF
. ../lib/harness.sh
test_expect_success 'looks # SKIP skipped' 'false'
test_expect_success 'two
lines' 'true'
test_done
EOF
	run titles
	expect_out <<\EOF
KTAP version 1
# false
not ok 1 looks %23 SKIP skipped
ok 2 two lines
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0
1..2
EOF
	expect_rc 1
	report
}

case_exit () {
	case_begin 'exit in a body ends the file: not ok, cleanups run, no plan'
	write exit <<\EOF
. ../lib/harness.sh
note () { echo "$*" >>"$HARNESS_SUITE_DIR/order"; }
test_expect_success 'passes' 'true'
test_expect_success 'exits' '
	test_when_finished note cleanup &&
	exit 0
'
test_expect_success 'never runs' 'note never'
test_done
EOF
	run exit
	expect_out <<\EOF
KTAP version 1
ok 1 passes
# bug in the test script: 'exit 0' in the test body ends the test file
# 	test_when_finished note cleanup &&
# 	exit 0
not ok 2 exits
EOF
	expect_rc 1
	[ "$(cat "$suite/order" 2>/dev/null)" = cleanup ] ||
		bad "cleanups: '$(cat "$suite/order" 2>/dev/null)', expected 'cleanup'"
	report

	case_begin 'a file that ends without test_done fails, with no plan'
	write nodone <<\EOF
. ../lib/harness.sh
test_expect_success 'passes' 'true'
EOF
	run nodone
	expect_out <<\EOF
KTAP version 1
ok 1 passes
# bug in the test script: the test file ended (exit 0) without test_done
EOF
	expect_rc 1
	report
}

case_dirs () {
	case_begin 'bodies run in a scratch directory that goes away'
	write scratch <<\EOF
. ../lib/harness.sh
test_expect_success 'where' '
	pwd >"$HARNESS_SUITE_DIR/cwd" &&
	test "$(pwd)" = "$HARNESS_TRASH_DIR" &&
	test -f "$HARNESS_SUITE_DIR/scratch.sh" &&
	: >scratch
'
test_done
EOF
	run scratch
	expect_out <<\EOF
KTAP version 1
ok 1 where
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0
1..1
EOF
	expect_rc 0
	trash=$(cat "$suite/cwd" 2>/dev/null)
	if [ -z "$trash" ] || [ -e "$trash" ]; then
		bad "the scratch directory '$trash' is still there"
	fi
	report
}

case_background () {
	case_begin 'a process left running does not hold up test_done'
	mkdir "$work/art"
	write leftover <<\EOF
. ../lib/harness.sh
test_expect_success 'leave a process behind' '
	{ sleep 30 & } &&
	echo $! >"$HARNESS_SUITE_DIR/pid" &&
	printf "an unfinished line"
'
test_done
EOF
	run leftover UMLRUN_ARTIFACTS="$work/art"
	[ -f "$suite/pid" ] && kill "$(cat "$suite/pid")" 2>/dev/null
	expect_rc 0
	[ "$elapsed" -lt 20 ] || bad "the file took $elapsed s"
	expect_line "$work/art/harness.log" 'an unfinished line'
	rm -rf "$work/art"
	report

	case_begin "a body's bare wait does not wait for the harness"
	mkdir "$work/art"
	write wait <<\EOF
. ../lib/harness.sh
test_expect_success 'wait for what the body started' '
	{ sleep 1 & } &&
	wait
'
test_done
EOF
	run wait UMLRUN_ARTIFACTS="$work/art"
	expect_rc 0
	[ "$elapsed" -lt 20 ] || bad "the file took $elapsed s"
	rm -rf "$work/art"
	report
}

case_options () {
	case_begin '-x traces bodies on the console only'
	write trace <<\EOF
. ../lib/harness.sh
test_expect_success 'traced' 'echo trace-marker >/dev/null'
test_done
EOF
	run trace HARNESS_OPTIONS=-x
	expect_out <<\EOF
KTAP version 1
ok 1 traced
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0
1..1
EOF
	expect_rc 0
	expect_line "$err" '+ echo trace-marker'
	report

	case_begin '-i stops after the first failure'
	write immediate <<\EOF
. ../lib/harness.sh
test_expect_success 'fails' 'false'
test_expect_success 'never runs' 'true'
test_done
EOF
	args=-i
	run immediate
	args=
	expect_out <<\EOF
KTAP version 1
# false
not ok 1 fails
# stopping after the first failure (--immediate)
EOF
	expect_rc 1
	report

	case_begin '--run=LIST runs only those tests; the others are skipped'
	write select <<\EOF
. ../lib/harness.sh
test_expect_success 'one' 'echo ran-1'
test_expect_success 'two' 'echo ran-2'
test_expect_success 'three' 'echo ran-3'
test_expect_success 'four' 'false'
test_expect_success 'five' 'echo ran-5'
test_done
EOF
	args='--run=1,3,5-'
	run select
	args=
	expect_out <<\EOF
KTAP version 1
ok 1 one
ok 2 two # SKIP not selected by --run=1,3,5-
ok 3 three
ok 4 four # SKIP not selected by --run=1,3,5-
ok 5 five
# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:2
1..5
EOF
	expect_rc 0
	expect_line "$err" 'ran-3'
	expect_no_line "$err" 'ran-2'
	report

	case_begin '--run with a range and HARNESS_OPTIONS; a bad list is a bug'
	run select 'HARNESS_OPTIONS=--run=-2'
	expect_rc 0
	expect_line "$out" 'ok 2 two'
	expect_line "$out" 'ok 3 three # SKIP not selected by --run=-2'
	args='--run=2-x'
	run select
	args=
	expect_rc 1
	expect_line "$out" '# bug in the test script: --run=2-x: want test numbers and ranges, e.g. --run=1,3-4'
	for l in 3-1 0 1,0-2; do
		args="--run=$l"
		run select
		args=
		expect_rc 1
		expect_line "$out" "# bug in the test script: --run=$l: tests are numbered from 1 and a range runs upwards, e.g. --run=1,3-4"
	done
	report
}

case_signal () {
	case_begin 'SIGTERM during a test is reported as a diagnostic'
	write signal <<\EOF
. ../lib/harness.sh
test_expect_success 'passes' 'true'
test_expect_success 'spins' '
	echo $$ >"$HARNESS_SUITE_DIR/pid" &&
	while :; do :; done
'
test_done
EOF
	# shellcheck disable=SC2086 # word lists
	(
		cd "$suite" &&
		$limit $shell signal.sh >"$work/out" 2>"$work/err" &
		i=0
		while [ ! -s "$suite/pid" ] && [ $i -lt 200 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -TERM "$(cat "$suite/pid")"
		wait $!
		echo $? >"$work/rc"
	)
	rc=$(cat "$work/rc")
	out=$work/out
	expect_out <<\EOF
KTAP version 1
ok 1 passes
# interrupted by SIGTERM during test 2: spins
EOF
	expect_rc 143
	report

	case_begin 'timeout(1) on the whole process group: the log is flushed, nothing is left'
	if [ -z "$limit" ]; then
		skip_report 'no timeout(1) here'
		return
	fi
	mkdir "$work/art" "$work/tmp"
	write group <<\EOF
. ../lib/harness.sh
test_expect_success 'spins' '
	echo spinning now &&
	while :; do :; done
'
test_done
EOF
	# 4 s: on a loaded machine the shell took more than 2 s to reach the
	# body, and the check lost its point (SIGTERM before test 1).
	# shellcheck disable=SC2086 # a word list
	(cd "$suite" && TMPDIR="$work/tmp" UMLRUN_ARTIFACTS="$work/art" \
		timeout 4 $shell group.sh >"$work/out" 2>"$work/err")
	rc=$?
	expect_out <<\EOF
KTAP version 1
# interrupted by SIGTERM during test 1: spins
EOF
	expect_rc 124
	expect_line "$work/art/harness.log" 'spinning now'
	[ -z "$(ls "$work/tmp")" ] || bad "left in TMPDIR: $(ls "$work/tmp")"
	rm -rf "$work/art" "$work/tmp"
	report
}

# ---- Main ----------------------------------------------------------------------

echo 'TAP version 13'
set -- 'busybox sh'
if command -v dash >/dev/null; then
	set -- "$@" dash
fi
if ! command -v busybox >/dev/null; then
	fail "busybox is not installed (the guest's shell; install busybox-static)"
fi

for shell in "$@"; do
	command -v "${shell%% *}" >/dev/null || continue
	case_pass
	case_fail
	case_xfail
	case_xpass
	case_prereq
	case_lazy
	for m in '' off basic inf-cpu; do
		case_builtin "$m"
	done
	case_skip_all
	case_chain
	case_cleanup
	case_output
	case_test_cmp
	case_helpers
	case_titles
	case_exit
	case_dirs
	case_background
	case_options
	case_signal
done

tap_done
