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
# both binaries' pages; each refers to the other, which mandoc finds only
# once installed: that one note is not a finding
capman=$(dirname "$man")/coursecheck-capture.1
capbin=$(dirname "$bin")/coursecheck-capture
for page in "$man" "$capman"; do
	mandoc -T lint -W style "$page" 2>&1 |
		grep -v 'STYLE: referenced manual not found: Xr coursecheck\(-capture\)\{0,1\} 1' >"$T/lint"
	[ -s "$T/lint" ] && sed 's/^/    /' "$T/lint"
	check "mandoc -T lint says something of $page" [ ! -s "$T/lint" ]
done
sed 's/^\.Sh DESCRIPTION/.Sh DESCRIPTION\n.Bl -tag/' "$man" >"$T/broken.1"
check "lint passes an unclosed list" sh -c "! mandoc -T lint -W warning '$T/broken.1'"
# overstrike (bold, underline) removed with sed: col(1) is not on a fresh
# Debian (it lives in bsdextrautils)
bs=$(printf '\b')
MANWIDTH=200 mandoc -T ascii "$man" | sed "s/.$bs//g" >"$T/text"
# the commands as `coursecheck help` lists them, so that a new one is not missed
cmds=$("$bin" help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p')
check "coursecheck help lists verify and review" sh -c "printf '%s\n' '$(echo $cmds)' | grep -q 'verify.*review'"
for cmd in $cmds; do
	check "command $cmd is not in the man page" grep -q "coursecheck $cmd" "$T/text"
	"$bin" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T/opts"
	while read -r opt; do
		check "$cmd's $opt is not in the man page" grep -q -- "$opt" "$T/text"
	done <"$T/opts"
done
# the capture binary's own page: every option of its --help
MANWIDTH=200 mandoc -T ascii "$capman" | sed "s/.$bs//g" >"$T/captext"
check "coursecheck-capture.1 is not the capture binary's page" grep -q "coursecheck-capture - run" "$T/captext"
if [ -x "$capbin" ]; then
	"$capbin" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T/opts"
	check "coursecheck-capture --help names no option" [ -s "$T/opts" ]
	while read -r opt; do
		check "coursecheck-capture's $opt is not in coursecheck-capture.1" grep -q -- "$opt" "$T/captext"
	done <"$T/opts"
else
	check "no capture binary beside $bin" false
fi
# every annotation of a page is documented
for ann in 'snippet:' 'transcript' 'measured' 'table' 'cite:' 'ext:' 'at:' 'range:' 'min:' 'max:' 'one-run' 'claim:'; do
	check "the annotation $ann is not in the man page" grep -q -- "<!-- $ann" "$T/text"
done
for var in NO_COLOR CLICOLOR_FORCE TERM GITHUB_ACTIONS; do
	check "$var is not in ENVIRONMENT" grep -q "$var" "$T/text"
done
echo "man: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
