#!/bin/sh
# Runs each cmocka unit test binary given; fails if any fails.
set -u
pass=0 fail=0
for t in "$@"; do
	if "$t"; then pass=$((pass + 1)); else echo "FAIL $t"; fail=$((fail + 1)); fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" = 0 ]
