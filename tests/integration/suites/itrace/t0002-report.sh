#!/bin/sh
# Passes, but a (fake) KASAN report reaches the console: the host must fail
# the file with the report's first line as the reason.
echo "KTAP version 1"
echo "1..1"
echo "BUG: KASAN: slab-out-of-bounds in fake_function+0x12/0x40" >/dev/kmsg
echo "ok 1 wrote a report"
