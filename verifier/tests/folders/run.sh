#!/bin/sh
# run.sh - course folders the checking user cannot list (F06), which the
# golden cases cannot show: root reads every folder.
#
#   sh verifier/tests/folders/run.sh PATH/TO/coursecheck
#
# Copies the demo fixture, makes pages/, programs/, a lesson folder and
# evidence/ unreadable in turn, and runs `verify` as a user the mode bits
# bind: the current user when it is not root, else nobody (through setpriv).
# Each must be an error naming the folder and exit 1, never a pass.
# Prints `ok NAME` or `FAIL NAME: why`; exits 0 only when nothing failed.
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: sh run.sh PATH/TO/coursecheck" >&2
	exit 2
fi
case $1 in
/*) BIN=$1 ;;
*) BIN=$(pwd)/$1 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
FIX=$HERE/../fixtures/demo
T=$(mktemp -d "${TMPDIR:-/tmp}/folder-tests.XXXXXX") || exit 2
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
chmod 755 "$T"
as_user() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
	elif command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		return 125
	fi
}
pass=0
failed=0
# nobody must reach the scratch folder ($TMPDIR may be private to root)
if ! as_user test -x "$T" 2>/dev/null; then
	echo "folders: 0 passed, 0 failed (skipped: $T cannot be reached by the checking user)"
	exit 0
fi
# case NAME FOLDER WANT: FOLDER made unreadable; the output must hold WANT
case_unreadable() {
	name=$1 folder=$2 want=$3
	R=$T/$name
	cp -R "$FIX" "$R"
	chmod -R a+rX "$R"
	chmod 000 "$R/$folder"
	out=$(cd "$R" && as_user env NO_COLOR=1 "$BIN" verify 2>&1)
	rc=$?
	chmod 755 "$R/$folder"
	if [ $rc = 125 ]; then
		echo "ok $name (skipped: root without setpriv)"
		pass=$((pass + 1))
	elif [ $rc = 1 ] && printf '%s\n' "$out" | grep -qF -- "$want"; then
		echo "ok $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name: exit $rc, wanted 1 and '$want' in: $out"
		failed=$((failed + 1))
	fi
}
case_unreadable pages-unreadable pages "pages: error: folder 'pages' cannot be read: Permission denied [file-unreadable]"
case_unreadable programs-unreadable programs "programs: error: folder 'programs' cannot be read: Permission denied [file-unreadable]"
case_unreadable lesson-unreadable programs/day01-demo "programs/day01-demo: error: lesson folder 'programs/day01-demo' cannot be read: Permission denied [file-unreadable]"
case_unreadable evidence-unreadable evidence "evidence: error: folder 'evidence' cannot be read: Permission denied [file-unreadable]"
echo "folders: $pass passed, $failed failed"
[ $failed = 0 ]
