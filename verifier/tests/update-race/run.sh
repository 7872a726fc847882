#!/bin/sh
# run.sh - update and an edit saved while it works (make update-race-test).
#
#   sh verifier/tests/update-race/run.sh PATH/TO/coursecheck
#
# update reads a page, rewrites it, and renames its text over the page.  An
# editor's save in between must not be lost: update must find that the
# page no longer holds what it read, leave it as it is and say so
# (update-write, exit 2).  shim.c (LD_PRELOAD; the plain binary, as
# ASan must come first) makes the save at two moments: while update
# flushes its text (before its last look), and at the rename itself.
# A run without a save shows the setup rewrites the page.
set -u
[ $# -eq 1 ] || { echo "usage: sh run.sh PATH/TO/coursecheck" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/update-race.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 failed=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -20; failed=$((failed + 1)); }

${CC:-cc} -shared -fPIC -o "$T/shim.so" "$HERE/shim.c" -ldl || { echo "update-race: cannot build shim.c"; exit 1; }

# a page whose evidence has a newer run: update has 4 rewrites to make
course() {
	rm -rf "$T/c"
	mkdir -p "$T/c"
	cp -R "$TOP/verifier/tests/fixtures/drift/." "$T/c/"
	cp -R "$TOP/verifier/tests/cases/update-changed-count/evidence/." "$T/c/evidence/"
	(cd "$T/c" && COURSECHECK=$BIN sh "$TOP/verifier/tests/seal-evidence.sh" . evidence/day01-demo/run-2026-12-01.txt)
	cp "$T/c/pages/day01-demo.md" "$T/page.before"
}
LINE="An author's paragraph, saved while update ran."

course
(cd "$T/c" && NO_COLOR=1 "$BIN" update pages/day01-demo.md) >"$T/out" 2>&1
rc=$?
if [ $rc = 0 ] && ! cmp -s "$T/page.before" "$T/c/pages/day01-demo.md"; then
	ok "no save: update rewrites the page"
else
	bad "no save: update exits $rc or leaves the page as it was" "$T/out"
fi

for at in fsync rename; do
	course
	(cd "$T/c" && RACE_AT=$at RACE_PAGE=$T/c/pages/day01-demo.md RACE_SUFFIX=day01-demo.md RACE_LINE="$LINE
" LD_PRELOAD=$T/shim.so NO_COLOR=1 "$BIN" update pages/day01-demo.md) >"$T/out" 2>&1
	rc=$?
	{ cat "$T/page.before"; echo "$LINE"; } >"$T/page.want"
	if [ $rc = 2 ] && cmp -s "$T/page.want" "$T/c/pages/day01-demo.md" &&
		grep -q '^pages/day01-demo.md: error: not written: cannot write pages/day01-demo.md: it changed after it was read .*\[update-write\]$' "$T/out" &&
		[ -z "$(ls -A "$T/c/pages" | grep -v '^day01-demo.md$')" ]; then
		ok "a save at $at: the page keeps it, update-write, exit 2, nothing left in pages/"
	else
		ls -A "$T/c/pages" >>"$T/out"
		bad "a save at $at: exit $rc; the save lost, or no update-write" "$T/out"
	fi
done

echo "update-race: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
