#!/bin/sh
test_description='the guest is laid out as docs/guest.md says'
. ../lib/harness.sh

test_expect_success 'the kernel filesystems are mounted' '
	test_path_is_file /proc/self/status &&
	test_path_is_dir /sys/class &&
	test_path_is_dir /dev
'

test_expect_success UML 'test files run under busybox ash, the guest /bin/sh' '
	test "$(readlink /proc/$$/exe)" = /usr/bin/busybox
'

test_expect_success 'tests run in a writable scratch directory' '
	echo hello >expect &&
	echo hello >actual &&
	test_cmp expect actual
'

test_expect_success UML 'the environment names this test' '
	test "$UMLRUN_TEST" = smoke/t0001-pass.sh &&
	case $UMLRUN_MODE in
	off | basic | inf-cpu) ;;
	*) false ;;
	esac &&
	test "$HARNESS_SUITE_DIR" = /suite/smoke
'

test_expect_success UML '/suite is read-only' '
	test_path_is_file /suite/smoke/t0001-pass.sh &&
	test_must_fail touch /suite/smoke/write-probe 2>err &&
	cat err &&
	test_path_is_dir /suite/smoke &&
	! test -e /suite/smoke/write-probe
'

test_expect_success UML '/results is writable and is UMLRUN_ARTIFACTS' '
	test "$UMLRUN_ARTIFACTS" = /results &&
	echo "written by t0001" >/results/probe.txt &&
	test_path_is_file /results/probe.txt
'

test_done
