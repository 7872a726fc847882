#!/bin/sh
# Golden cases: each folder under CASES is a small repository (or, with a
# file named `base`, the fixture it names under fixtures/ with the case's
# own files laid over it).  The runner lays it out in a scratch folder
# (case-layout.sh: the evidence files its file `seal` lists sealed with
# seal-evidence.sh, then its optional setup.sh), then runs
#     coursecheck $(cat args)          (args defaults to "verify")
# under NO_COLOR=1 and what a file `env` adds (env(1) arguments)
# and compares standard output and error, and a last line "[exit N]", with
# expected.txt (the summary's check count masked as N unless the case has a
# file keep-check-count; also in the JSON, SARIF and JUnit reports).  A file
# `cwd` names the folder, inside the case, to run it from (the course is then
# found upward).  UPDATE=1 rewrites expected.txt instead (review the diff).
# Every run the case holds in evidence/ after its setup (evidence/**/*.txt,
# plain files) is signed as capture signs on the GPU node, with a key the
# runner makes once (ssh-keygen -t ed25519), which it lists in the case's
# evidence/allowed_signers: a case is about its pages, not about
# signatures, unless it has a file `unsigned` (then nothing is signed or
# listed, and the case signs what it means to itself, $GOLDEN_KEY).  The
# key's fingerprint prints as SHA256:GOLDEN-KEY, any other key's as
# SHA256:OTHER-KEY.
# JOBS=N runs every `verify` case with `-j N` after `verify`: the expected
# output is that of one process, whatever N (make jobs-test).  ALSO_JOBS=N
# runs each `verify` case twice from one setup, as given and with `-j N`
# (in a copy, `cp -a`, of the set-up folder and of what its setup.sh made
# beside it, so neither run sees what the other wrote), each compared with
# expected.txt: the golden suite and
# jobs-test's golden half in one pass (make test).
#
#   run-golden.sh BINARY CASES [NAME...]
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$(cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")" && pwd)
tests=$here COURSECHECK=$bin
. "$here/case-layout.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
also=${ALSO_JOBS:-}
# the -j N copies: a folder of the same length of name, as in jobs-test
scratch_j=
[ -z "$also" ] || scratch_j=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$scratch" $scratch_j' EXIT INT TERM
pass=0 fail=0 pass_j=0 fail_j=0

# the suite's signing key (evsig.h): made once, outside every case
GOLDEN_KEY=$scratch/.golden-key
ssh-keygen -q -t ed25519 -N '' -C golden -f "$GOLDEN_KEY" </dev/null || { echo "FAIL: ssh-keygen cannot make the suite's key"; exit 1; }
golden_fp=$(ssh-keygen -l -f "$GOLDEN_KEY.pub" | cut -d' ' -f2 | sed 's/[+]/\\&/g') # as an ERE
export GOLDEN_KEY

# sign_runs WORK: each run of WORK's evidence/ signed, the key listed
sign_runs() {
	[ -d "$1/evidence" ] && [ ! -L "$1/evidence" ] || return 0
	find "$1/evidence" -type f -name '*.txt' | while IFS= read -r f; do
		[ -e "$f.sig" ] || [ -L "$f.sig" ] || ssh-keygen -Y sign -q -f "$GOLDEN_KEY" -n coursecheck-evidence "$f" </dev/null >/dev/null 2>&1
	done
	printf 'golden namespaces="coursecheck-evidence" %s\n' "$(cut -d' ' -f1-2 "$GOLDEN_KEY.pub")" >>"$1/evidence/allowed_signers"
}

# run_case WORK ARGS: $out, the output of `coursecheck ARGS` run in WORK (or
# its `cwd`) as the case says, with its last line [exit N] and the count masked
run_case() {
	# an optional file `env` holds arguments of env(1): NAME=VALUE, -u NAME
	envargs=
	[ -f "$src/env" ] && envargs=$(cat "$src/env")
	dir=.
	[ -f "$src/cwd" ] && dir=$(cat "$src/cwd")
	# env(1) only where the case has an `env` file: one exec less a run
	# shellcheck disable=SC2086
	out=$(cd "$1/$dir" && NO_COLOR=1 ${envargs:+env $envargs} "$bin" $2 2>&1; echo "[exit $?]")
	# key fingerprints: the suite's key as SHA256:GOLDEN-KEY, a key a case made as SHA256:OTHER-KEY
	# and an Ed25519 public key as AAAAC3NzaC1lZDI1NTE5-KEY (keys are made afresh each suite run)
	case $out in *SHA256:* | *AAAAC3NzaC1lZDI1NTE5*) out=$(printf '%s\n' "$out" | sed -E -e "s|$golden_fp|SHA256:GOLDEN-KEY|g" \
		-e 's|SHA256:[A-Za-z0-9+/]{43}|SHA256:OTHER-KEY|g' -e 's|AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43}|AAAAC3NzaC1lZDI1NTE5-KEY|g') ;; esac
	# The summary's check count is internal: a new check would churn every
	# case. It is kept only in cases about counting (a file named
	# keep-check-count).
	if [ ! -f "$src/keep-check-count" ]; then
		# the same count in the reports: JSON and SARIF "checks", JUnit's property
		out=$(printf '%s\n' "$out" | sed -E -e 's/, [0-9]+ checks?:/, N checks:/' \
			-e 's/"checks": [0-9]+/"checks": N/' -e 's/name="checks" value="[0-9]+"/name="checks" value="N"/')
	fi
}
names=${*:-$(ls "$cases")}
for name in $names; do
	src=$cases/$name
	[ -d "$src" ] || { echo "FAIL $name: no such case"; fail=$((fail + 1)); continue; }
	work=$scratch/$name
	case_layout "$src" "$work" || { echo "FAIL $name: $case_why"; fail=$((fail + 1)); continue; }
	[ -f "$src/unsigned" ] || sign_runs "$work"
	args=verify
	[ -f "$src/args" ] && args=$(cat "$src/args")
	if [ -n "${JOBS:-}" ]; then
		case $args in verify | "verify "*) args="verify -j $JOBS${args#verify}" ;; esac
	fi
	args_j=
	if [ -n "$also" ]; then
		case $args in verify | "verify "*)
			args_j="verify -j $also${args#verify}"
			# and what setup.sh made beside it (../NAME.outside), for its links
			for o in "$work" "$work".*; do
				[ -e "$o" ] || [ -L "$o" ] || continue
				cp -a "$o" "$scratch_j/" || { echo "FAIL $name (-j $also): '$o' could not be copied"; fail_j=$((fail_j + 1)); args_j=; }
			done ;;
		esac
	fi
	run_case "$work" "$args"
	# expected.txt read once, for both runs
	exp=
	[ ! -f "$src/expected.txt" ] || exp=$(cat "$src/expected.txt")
	if [ "${UPDATE:-}" = 1 ]; then
		printf '%s\n' "$out" > "$src/expected.txt"
		echo "updated $name"
		pass=$((pass + 1))
	elif [ -f "$src/expected.txt" ] && [ "$out" = "$exp" ]; then
		echo "ok $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name"
		printf '%s\n' "$out" | diff -u "$src/expected.txt" - | sed 's/^/    /' | head -60
		fail=$((fail + 1))
	fi
	[ -n "$args_j" ] && [ "${UPDATE:-}" != 1 ] || continue
	run_case "$scratch_j/$name" "$args_j"
	if [ -f "$src/expected.txt" ] && [ "$out" = "$exp" ]; then
		pass_j=$((pass_j + 1))
	else
		echo "FAIL $name (-j $also)"
		printf '%s\n' "$out" | diff -u "$src/expected.txt" - | sed 's/^/    /' | head -60
		fail_j=$((fail_j + 1))
	fi
done
echo "golden: $pass passed, $fail failed"
[ -z "$also" ] || echo "golden -j $also: $pass_j passed, $fail_j failed (each verify case again with -j $also)"
[ "$fail" = 0 ] && [ "$fail_j" = 0 ]
