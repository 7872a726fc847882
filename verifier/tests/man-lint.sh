#!/bin/sh
# man-lint.sh - the man page: `mandoc -T lint` clean (style level included),
# lint shown able to fail, and every command and long option that the
# binary's --help texts name documented in it.
#
#   sh verifier/tests/man-lint.sh MANPAGE COURSECHECK
set -u
man=$1 bin=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/man.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 failed=0
check() {
	what=$1
	shift
	if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); else echo "FAIL $what"; failed=$((failed + 1)); fi
}
mandoc -T lint -W style "$man" >"$T/lint" 2>&1
rc=$?
[ -s "$T/lint" ] && sed 's/^/    /' "$T/lint"
check "mandoc -T lint exits $rc" [ $rc -eq 0 ]
check "mandoc -T lint says something" [ ! -s "$T/lint" ]
sed 's/^\.Sh DESCRIPTION/.Sh DESCRIPTION\n.Bl -tag/' "$man" >"$T/broken.1"
check "lint passes an unclosed list" sh -c "! mandoc -T lint -W warning '$T/broken.1'"
MANWIDTH=200 mandoc -T ascii "$man" | col -b >"$T/text"
for cmd in verify explain update capture quote lesson-files ids source-sha256 help; do
	check "command $cmd is not in the man page" grep -q "coursecheck $cmd" "$T/text"
	"$bin" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T/opts"
	while read -r opt; do
		check "$cmd's $opt is not in the man page" grep -q -- "$opt" "$T/text"
	done <"$T/opts"
done
for var in NO_COLOR CLICOLOR_FORCE TERM GITHUB_ACTIONS; do
	check "$var is not in ENVIRONMENT" grep -q "$var" "$T/text"
done
echo "man: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
