# tap.sh - TAP output for the project's shell-level tests (sourced).
#
#   COND; check "what COND proves" ["diagnostic"]
# prints "ok N ..." or "not ok N ..." for the status of the command just
# before; tap_done prints the plan and returns non-zero if any check failed.
# A file may define tap_on_fail to print more context after a failure.

n=0
failed=0

pass() {
	n=$((n + 1))
	echo "ok $n $1"
}

fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n $1"
	[ $# -gt 1 ] && echo "# $2"
	command -v tap_on_fail >/dev/null && tap_on_fail
	return 0
}

check() {
	if [ $? -eq 0 ]; then pass "$1"; else fail "$@"; fi
}

tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
