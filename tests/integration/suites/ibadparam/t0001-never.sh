#!/bin/sh
# Never runs: the init refuses its parameters first.
echo "KTAP version 1"
echo "1..1"
echo "ok 1 ran"
