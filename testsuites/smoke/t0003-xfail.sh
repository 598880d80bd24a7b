#!/bin/sh
test_description='a known breakage is reported as TODO and does not fail the suite'
. ../lib/harness.sh

test_expect_success 'a passing test' '
	test_seq 3 >actual &&
	test_line_count = 3 actual
'

# Deliberately broken, so that every run exercises "# TODO known breakage"
# from the guest through the host's KTAP reader to the report.
test_expect_failure 'a known breakage (deliberate, for the smoke suite)' '
	echo expected >expect &&
	echo actual >actual &&
	test_cmp expect actual
'

test_done
