#!/bin/sh
# A kernel panic before any KTAP line: the test's crash, not the host's
# (the guest booted), so no hint to run 'umlrun doctor'.
echo c >/proc/sysrq-trigger
