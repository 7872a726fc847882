#!/bin/sh
# Golden cases: each folder under CASES is a small repository (or, with a
# file named `base`, the fixture it names under fixtures/ with the case's
# own files laid over it).  The runner copies it to a scratch folder, runs
# its optional setup.sh there, then runs
#     coursecheck $(cat args)          (args defaults to "verify")
# under NO_COLOR=1 and what a file `env` adds (env(1) arguments)
# and compares standard output and error, and a last line "[exit N]", with
# expected.txt (the summary's check count masked as N unless the case has a
# file keep-check-count; also in the JSON, SARIF and JUnit reports).  A file
# `cwd` names the folder, inside the case, to run it from (the course is then
# found upward).  UPDATE=1 rewrites expected.txt instead (review the diff).
# JOBS=N runs every `verify` case with `-j N` after `verify`: the expected
# output is that of one process, whatever N (make jobs-test).
#
#   run-golden.sh BINARY CASES [NAME...]
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$(cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0 fail=0
names=${*:-$(ls "$cases")}
for name in $names; do
	src=$cases/$name
	[ -d "$src" ] || { echo "FAIL $name: no such case"; fail=$((fail + 1)); continue; }
	work=$scratch/$name
	mkdir -p "$work"
	if [ -f "$src/base" ]; then
		cp -R "$here/fixtures/$(cat "$src/base")/." "$work/"
	fi
	# the case's own files, without the runner's control files
	(cd "$src" && find . -mindepth 1 -maxdepth 1 ! -name expected.txt ! -name args ! -name base ! -name setup.sh ! -name keep-check-count ! -name env ! -name cwd \
		-exec cp -R {} "$work/" \;)
	# setup scripts may seal hand-made evidence: $SEAL ROOT FILE
	export SEAL="$here/seal-evidence.sh" COURSECHECK="$bin"
	if [ -f "$src/setup.sh" ]; then
		(cd "$work" && sh "$src/setup.sh") || { echo "FAIL $name: setup.sh failed"; fail=$((fail + 1)); continue; }
	fi
	args=verify
	[ -f "$src/args" ] && args=$(cat "$src/args")
	if [ -n "${JOBS:-}" ]; then
		case $args in verify | "verify "*) args="verify -j $JOBS${args#verify}" ;; esac
	fi
	# shellcheck disable=SC2086
	# an optional file `env` holds arguments of env(1): NAME=VALUE, -u NAME
	envargs=
	[ -f "$src/env" ] && envargs=$(cat "$src/env")
	# shellcheck disable=SC2086
	dir=.
	[ -f "$src/cwd" ] && dir=$(cat "$src/cwd")
	out=$(cd "$work/$dir" && NO_COLOR=1 env $envargs "$bin" $args 2>&1; echo "[exit $?]")
	# The summary's check count is internal: a new check would churn every
	# case. It is kept only in cases about counting (a file named
	# keep-check-count).
	if [ ! -f "$src/keep-check-count" ]; then
		# the same count in the reports: JSON and SARIF "checks", JUnit's property
		out=$(printf '%s\n' "$out" | sed -E -e 's/, [0-9]+ checks?:/, N checks:/' \
			-e 's/"checks": [0-9]+/"checks": N/' -e 's/name="checks" value="[0-9]+"/name="checks" value="N"/')
	fi
	if [ "${UPDATE:-}" = 1 ]; then
		printf '%s\n' "$out" > "$src/expected.txt"
		echo "updated $name"
		pass=$((pass + 1))
	elif [ -f "$src/expected.txt" ] && [ "$out" = "$(cat "$src/expected.txt")" ]; then
		echo "ok $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name"
		printf '%s\n' "$out" | diff -u "$src/expected.txt" - | sed 's/^/    /' | head -60
		fail=$((fail + 1))
	fi
done
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
