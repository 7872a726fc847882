#!/bin/sh
# jobs-test.sh - verify -j N prints what one process prints: every golden
# case at -j 4 against its expected.txt, which the golden suite holds -j 1's
# output to byte for byte (so -j 4 = -j 1 without running -j 1 again), and
# the mutation test with the whole course checked at -j 4 and at -j 1 for
# every mutation, the two compared byte for byte.  JOBS_TEST_MUTATE=0 leaves
# the mutation test out: `make test` runs it once, -j 4 against -j 1, in
# course-test.
#
#   sh verifier/tests/jobs-test.sh COURSECHECK
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
log=$(mktemp "${TMPDIR:-/tmp}/jobs.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM
suite() {
	what=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	grep -v '^ok ' "$log" | sed "s/^/$what: /"
	if [ $rc = 0 ]; then pass=$((pass + 1)); else echo "FAIL $what"; fail=$((fail + 1)); fi
}
suite "golden -j 4" env JOBS=4 sh "$here/run-golden.sh" "$bin" "$here/cases"
[ "${JOBS_TEST_MUTATE:-1}" = 0 ] || suite "mutate -j 4 = -j 1" env MUTATE_JOBS=4 sh "$here/mutate.sh" "$bin"
echo "jobs: $pass passed, $fail failed"
[ "$fail" = 0 ]
