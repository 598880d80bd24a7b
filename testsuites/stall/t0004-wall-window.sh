#!/bin/sh
test_description='a fast flow of waiting system calls is progress for the wall-clock breaker'
. ../lib/harness.sh
. "$HARNESS_SUITE_DIR/lib-stall.sh"

# The deterministic breaker moves the clock after 200,000 waiting system
# calls. Under ptrace, or on a slow or loaded host, they can take longer
# than the wall-clock breaker's window (20 s by default), which then
# moved the clock first, not deterministically (6.1's select loop under a
# CI run's load). A flow of them, 1,250 a second of the window or more,
# now counts as progress. The window is 200 ms here (set from the guest:
# the host timer is armed again at once), so the 200,000 clock reads
# (about 5 s of wall time on an idle 2-CPU AMD EPYC VM, 25 us a read)
# last many windows, and only the deterministic breaker may move the
# clock: spin fails if the wall-clock one did. A window is a flow from
# 250 reads, so only a host that stops the guest for nearly a whole
# 200 ms could make one look empty.
test_expect_success STALL_BREAKER 'clock reads that last many wall-clock windows end by the deterministic breaker alone' '
	stall_param uml_stall_wall_ms 200 &&
	spin clock
'

test_done
