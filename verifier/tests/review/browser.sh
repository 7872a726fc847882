#!/bin/sh
# The review page in a real browser (make review-browser-test, part of
# make test): renders the small course with a drifted snippet and a number
# not in the evidence, then browser.py drives headless chromium over it
# (permalinks, next and previous finding, approve, search, no request out
# of the folder).  Screenshots go to SHOTS (default build/review-test).
#
#   browser.sh BINARY [SHOTS]
#
# Without chromium it prints one SKIP line saying what is missing, and
# passes.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
shots=${2:-$root/build/review-test}
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "SKIP review-browser-test: chromium is not installed (apt-get install chromium; deps.sh test installs it as root)"
	[ -z "${SKIPPED_FILE:-}" ] || echo "review page not tested in a browser: chromium not found" >>"$SKIPPED_FILE"
	exit 0
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/review-browser.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
mkdir -p "$shots"
course=$scratch/course
cp -R "$here/../fixtures/demo" "$course"
# a snippet that drifted ('+' became '-'), a number not in the evidence
sed -i 's/c\[i\] = a\[i\] + b\[i\];/c[i] = a[i] - b[i];/; s/gets 70,320 elements/gets 70,329 elements/' "$course/pages/day01-demo.md"
(cd "$course" && NO_COLOR=1 "$bin" review --output out pages/day01-demo.md >"$scratch/review.log" 2>&1)
rc=$?
if [ "$rc" != 1 ] || ! grep -q 'snippet-drift' "$course/out/day01-demo.html"; then
	echo "FAIL review-browser-test: the review of the broken course (exit $rc, want 1 with a snippet-drift)"
	sed 's/^/    /' "$scratch/review.log" | head -20
	exit 1
fi
# a review whose approvals hook says 1.8 ms was approved at 1.7 ms and
# moved (the unit test's mock of the sign-off), when make unit built it
reopened=
unit=${REVIEW_PAGE_UNIT:-$root/build/asan/unit/test_review_page}
if [ -x "$unit" ] && (cd "$root" && REVIEW_PAGE_HTML=$course/out/reopened.html "$unit" >"$scratch/unit.log" 2>&1); then
	reopened=reopened.html
else
	echo "note: no reopened claim to show ($unit not built or failed): make $unit"
fi
python3 "$here/browser.py" "$chromium" "$course/out" day01-demo.html "$shots" $reopened
