# lib.sh - the preamble of every integration test file (sourced), as git's
# t/test-lib.sh is of git's tests.
#
# An integration test file boots the real kernel and checks what umlrun
# reports. It is one topic, runs alone and prints its own TAP:
#
#   #!/bin/sh
#   # t-NAME.sh - what the file checks.
#   . "$(dirname "$0")/lib.sh"
#   itest_own_cache
#
#   run "$umlrun" run $R itest/t0001-pass.sh
#   [ $rc -eq 0 ] && grep -q "^ok 1 itest/t0001-pass.sh" "$work/out"
#   check "a passing test exits 0"
#
#   tap_done
#
#   sh tests/integration/t-NAME.sh          # one file
#   make integration-check                  # every t-*.sh, one after another
#
# What it reads from the environment:
#   B        the build folder, as make's B= (make passes it; default build/)
#   UMLRUN   the umlrun to test (default $B/umlrun)
#
# What it gives the file:
#   top      the checkout; suites: tests/integration/suites (raw-KTAP suites
#            that test the runner apart from the shell harness)
#   umlrun   the program under test
#   work     a scratch folder, removed at exit, that the guest's user
#            (nobody, when run as root) may enter
#   TMPDIR   $work/tmp: umlrun's staging folders, where nothing_left looks
#   results  $work/results; R: --results and --suite-dir for the suites
#   real_cache  the developer's cache, as it was before itest_own_cache
#   check, pass, fail, tap_done (tests/tap.sh), skip, run (leaves rc, and
#   the output in $work/out and $work/err), tap_on_fail, nothing_left,
#   usage_line, itest_build, itest_own_cache, itest_mproj (below)
# and prints "TAP version 13".
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
suites=$top/tests/integration/suites
B=${B:-$top/build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
work=$(mktemp -d "/tmp/umlrun-$(basename "$0" .sh).XXXXXX") || exit 1
# As root umlrun runs the guest as nobody, who must be able to get in here.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# umlrun puts its staging folders in TMPDIR: here, where we can watch them.
export TMPDIR="$work/tmp"
mkdir "$TMPDIR"
results=$work/results
R="--results=$results --suite-dir=$suites"
real_cache=${XDG_CACHE_HOME:-$HOME/.cache}/umlrun

# umlrun finds the project (uml-config/, rootfs/, testsuites/) as the folder
# above its own, and the guest programs in the project's build/guest. A
# build folder elsewhere (make B=/tmp/b) has neither: the project is then
# seen through a folder of links whose build/ is $B.
if [ -n "${UMLRUN:-}" ]; then
	umlrun=$UMLRUN
else
	umlrun=$B/umlrun
	if [ -z "${UMLRUN_HOME:-}" ] &&
		[ "$(cd "$B" 2>/dev/null && pwd -P)" != "$(cd "$top/build" 2>/dev/null && pwd -P)" ]; then
		mkdir "$work/project"
		for f in "$top"/*; do
			[ "${f##*/}" = build ] || ln -s "$f" "$work/project/"
		done
		ln -s "$B" "$work/project/build"
		export UMLRUN_HOME="$work/project"
	fi
fi

. "$top/tests/tap.sh"

# skip WHAT WHY: a check that cannot be made here, as TAP's SKIP.
skip() {
	pass "$1 # SKIP $2"
}

# run CMD...: output in $work/out and $work/err, status in $rc.
run() {
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
}

# After a failed check: the end of the last command's output (tap_tail
# lines of each, 8 unless the file says otherwise).
tap_tail=8
tap_on_fail() {
	echo "# exit status $rc"
	for f in "$work/out" "$work/err"; do
		[ -s "$f" ] && tail -n "$tap_tail" "$f" | sed 's/^/#   /'
	done
}

# nothing_left: no guest process, no staging or umid folder survives.
nothing_left() {
	left=$(pgrep -af "$TMPDIR/umlrun"; ls -A "$TMPDIR")
	[ -z "$left" ] && return 0
	echo "$left" | sed 's/^/# left: /'
	return 1
}

# usage_line PATTERN: exit 2, one line on stderr matching PATTERN, and no
# results folder made (at $work/nores, where the refused runs point).
usage_line() {
	[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err" &&
		[ ! -e "$work/nores" ]
}

echo "TAP version 13"

# itest_build: the kernel and root folder built or found in the cache, or
# the file bails out.
itest_build() {
	"$umlrun" build >"$work/build.log" 2>&1 && return 0
	echo "Bail out! umlrun build failed:"
	sed 's/^/# /' "$work/build.log"
	exit 1
}

# itest_mproj: a project never written for umlrun, $work/mproj, whose only
# executable (tests/run.sh: "sees" and the data file beside it, read at
# /src) is in a subfolder; and $work/rwdir, a folder every user may write.
itest_mproj() {
	mkdir -p "$work/mproj/tests" "$work/rwdir"
	chmod 777 "$work/rwdir"
	echo hello >"$work/mproj/tests/data.txt"
	printf '#!/bin/sh\necho "sees $(cat /src/tests/data.txt)"\n' >"$work/mproj/tests/run.sh"
	chmod 755 "$work/mproj/tests/run.sh"
}

# itest_own_cache: a cache of the file's own, so that prune and the builds
# of its checks never touch the developer's: the kernel and root folder
# built (or found) there first, then shared by hard links (copies across
# file systems), and the extracted kernel source by a link (configuring a
# fragment reads it).
itest_own_cache() {
	itest_build
	export XDG_CACHE_HOME="$work/cache"
	mkdir -p "$XDG_CACHE_HOME/umlrun"
	for d in kernels rootfs; do
		cp -al "$real_cache/$d" "$XDG_CACHE_HOME/umlrun/" 2>/dev/null ||
			cp -a "$real_cache/$d" "$XDG_CACHE_HOME/umlrun/"
	done
	# Used now, whatever their age in the developer's cache: prune must not
	# take a kernel that a later check needs.
	touch "$XDG_CACHE_HOME"/umlrun/kernels/* "$XDG_CACHE_HOME"/umlrun/rootfs/* 2>/dev/null
	ln -s "$real_cache/src" "$XDG_CACHE_HOME/umlrun/src"
	# The kernel sources umlrun fetched: the key names them by their real path.
	[ -d "$real_cache/sources" ] && ln -s "$real_cache/sources" "$XDG_CACHE_HOME/umlrun/sources"
	return 0
}
