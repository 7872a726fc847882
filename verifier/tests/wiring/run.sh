#!/bin/sh
# run.sh - the CI wiring examples, offline: see wiring.py.
#   sh verifier/tests/wiring/run.sh PATH/TO/coursecheck
set -u
exec /usr/bin/python3 "$(dirname "$0")/wiring.py" "$1"
