#!/bin/sh
# stale-test: the staleness rule (srctok.h, readset.h) on a copy of the
# course.  Its evidence is made to look as capture writes it now
# (tokens-evidence.sh: source-rule: tokens-1 and the files `cc -MM -MG`
# says each lesson's build reads), then:
#   1. a comment in programs/common/cuda_check.h, a renamed snippet marker
#      (program and page) and re-indented code leave every lesson fresh;
#   2. a changed line of code in cuda_check.h makes stale exactly the
#      lessons whose recorded files hold it (the course's three, not a
#      fourth made here whose program does not include it), and why-stale
#      names the
#      include and the first changed token;
#   3. a new data file in one lesson makes that lesson stale, no other.
#
#   sh verifier/tests/stale/course.sh BINARY
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
course=$(cd "$here/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/stale-test.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
# check NAME COMMAND...: passes when COMMAND succeeds
check() {
	n=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else bad "$n"; fi
}

C=$T/course
mkdir -p "$C"
cp -R "$course/pages" "$course/programs" "$course/evidence" "$C/"
cd "$C" || exit 2
# the runs are sealed again below with the tokens rule, so their node
# signatures no longer hold: this copy is about staleness, and its runs are
# unsigned (a warning while no key is listed), not forged
rm -f evidence/allowed_signers evidence/*/*.sig
# a fourth lesson whose build never reads the shared header: day 31's
# program without its #include (it need not compile: nothing builds it
# here), with copies of day 31's runs as its evidence
mkdir programs/day99-no-header evidence/day99-no-header
sed 's|^#include "../common/cuda_check.h"$||; s|evidence/day31-scan-1/|evidence/day99-no-header/|g' \
	programs/day31-scan-1/scan.cu >programs/day99-no-header/scan.cu
for e in evidence/day31-scan-1/run-*.txt; do
	sed 's|^lesson: .*|lesson: day99-no-header|; s|^program: .*|program: programs/day99-no-header/scan.cu|' \
		"$e" >"evidence/day99-no-header/$(basename "$e")"
done
git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm copy || exit 2
commit=$(git rev-parse HEAD)
for e in evidence/*/run-*.txt; do
	sed -i "s/^commit: .*/commit: $commit/" "$e"
	COURSECHECK=$bin sh "$here/tokens-evidence.sh" . "$e" || { bad "sealing $e"; exit 1; }
done
git add -A && git -c user.name=t -c user.email=t@example.com commit -qm tokens
reset() { git checkout -q -- . && git clean -qfd; }
verify() { "$bin" verify >"$T/out" 2>&1; }
# the lessons verify calls stale, from the program diagnostics
stale_lessons() { sed -n "s|^programs/\([^/]*\)/[^:]*:[0-9]*: [a-z]*: evidence .* is stale: .*|\1|p" "$T/out" | sort -u; }

verify
sed -n '$p' "$T/out" >"$T/baseline"
not_stale() { ! grep -q "evidence-stale" "$T/out"; }
not() { ! "$@"; }
check "the copy holds stale evidence before any change" not_stale
check "the copy does not verify before any change: $(sed -n '$p' "$T/out")" grep -q ": 0 errors" "$T/baseline"

# --affected on a file of programs/common/, no lesson of its own (issue 37):
# on the clean copy it passes as the full run does (it reported a false
# program-header error for a lesson named common, and the shipped hook
# blocked every commit touching the folder)
"$bin" verify --affected programs/common/cuda_check.h >"$T/aff" 2>&1
rc=$?
check "verify --affected programs/common/cuda_check.h on a clean copy exit $rc: $(head -3 "$T/aff")" test "$rc" -eq 0
check "verify --affected programs/common/... treats common as a lesson" not grep -q "programs/common: \|program-header" "$T/aff"

# 1. comments, a renamed marker, blank space: no change
printf '\n// A note added after the capture.\n' >>programs/common/cuda_check.h
sed -i 's|^// snippet: check$|// snippet: check-call|' programs/common/cuda_check.h
sed -i 's|// snippet: in-place$|// snippet: in-place-scan|; s|// end snippet: in-place$|// end snippet: in-place-scan|' \
	programs/day31-scan-1/scan.cu
sed -i 's|<!-- snippet: in-place -->|<!-- snippet: in-place-scan -->|' pages/day31-scan-1.md
sed -i 's|^struct CudaFailure {};$|struct   CudaFailure   {  } ;|' programs/common/cuda_check.h
verify
check "a comment, a renamed marker or blank space made a lesson stale" not_stale
sed -n '$p' "$T/out" >"$T/out.last"
check "the summary is not the baseline's: $(cat "$T/out.last")" cmp -s "$T/baseline" "$T/out.last"
reset

# 2. a changed line of code in the shared header
sed -i 's|throw CudaFailure{};|throw CudaFailure();|' programs/common/cuda_check.h
verify
stale_lessons >"$T/stale"
for l in $(ls programs); do
	[ "$l" = common ] && continue
	# every run of a lesson was sealed from the same files: any one will do
	run=$(ls evidence/"$l"/run-*.txt | head -1)
	grep -q "^source-file-[0-9]*: programs/common/cuda_check.h " "$run" && echo "$l"
done | sort >"$T/readers"
check "the lessons that read the header are not exactly the stale ones ($(tr '\n' ' ' <"$T/stale")vs $(tr '\n' ' ' <"$T/readers"))" \
	cmp -s "$T/stale" "$T/readers"
check "no lesson read the header (the test would prove nothing)" test -s "$T/readers"
check "day99-no-header is among them" not grep -q day99 "$T/readers"
# --affected on the changed header reports what the full run does
cp "$T/out" "$T/out.full"
"$bin" verify --affected programs/common/cuda_check.h >"$T/out" 2>&1
rc=$?
stale_lessons >"$T/stale.affected"
check "verify --affected on the changed header exit $rc, not 1" test "$rc" -eq 1
check "verify --affected on the changed header found other stale lessons ($(tr '\n' ' ' <"$T/stale.affected")) than the full run" \
	cmp -s "$T/stale" "$T/stale.affected"
# the same errors (a note's place may differ: a run's verdict is told
# once, at the first item that meets it, and the full run takes a
# lesson's items in another order)
grep ': error: ' "$T/out.full" >"$T/errors.full"
grep ': error: ' "$T/out" >"$T/errors.affected"
check "verify --affected on the changed header does not report the errors the full run does" \
	cmp -s "$T/errors.full" "$T/errors.affected"
cp "$T/out.full" "$T/out"
check "the reason does not name the header" grep -q "is stale: 'programs/common/cuda_check.h' changed since it was captured" "$T/out"
"$bin" why-stale day31-scan-1 >"$T/why" 2>&1
rc=$?
check "why-stale exit $rc, not 1" test "$rc" -eq 1
check "why-stale does not name the include" grep -qx '    programs/day31-scan-1/scan.cu:[0-9]* includes "../common/cuda_check.h"' "$T/why"
check "why-stale does not name the token" grep -qx "  first different token: '{' is now '('" "$T/why"
cp "$T/why" "$T/why.example"
reset

# 3. a new data file the program may open
printf '1 2 3\n' >programs/day31-scan-1/input.txt
verify
stale_lessons >"$T/stale"
check "a new data file did not make exactly its lesson stale ($(tr '\n' ' ' <"$T/stale"))" test "$(cat "$T/stale")" = day31-scan-1
check "the reason does not name the data file" grep -q "is stale: 'programs/day31-scan-1/input.txt' is new" "$T/out"
reset

[ -n "${STALE_EXAMPLE:-}" ] && cp "$T/why.example" "$STALE_EXAMPLE"
echo "stale: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
