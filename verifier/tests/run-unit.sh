#!/bin/sh
# Runs each cmocka unit test binary given and counts the tests (not the
# binaries) from cmocka's own summary; fails if any test or binary fails.
set -u
pass=0 fail=0
out=$(mktemp "${TMPDIR:-/tmp}/unit.XXXXXX")
trap 'rm -f "$out"' EXIT INT TERM
for t in "$@"; do
	"$t" >"$out" 2>&1
	rc=$?
	cat "$out"
	ran=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' "$out" | tail -1)
	ok=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$out" | tail -1)
	if [ -z "$ran" ]; then # it died before its summary: one failure
		echo "FAIL $t (exit $rc, no cmocka summary)"
		fail=$((fail + 1))
		continue
	fi
	pass=$((pass + ${ok:-0}))
	fail=$((fail + ran - ${ok:-0}))
	if [ "$rc" -ne 0 ] && [ "$ran" = "${ok:-0}" ]; then
		echo "FAIL $t (exit $rc after its tests passed)"
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" = 0 ]
