#!/bin/sh
# run.sh - tests of coursecheck-capture that need no GPU.
#
#   sh verifier/tests/capture/run.sh PATH/TO/coursecheck-capture [PATH/TO/coursecheck]
#
# With the full coursecheck binary as well, the case of update's file
# writing runs too.  KILL9_N (default 20) is the number of kill -9s of the
# kill-9 case (kill9.sh).
#
# Works from any folder.  Each case makes its own scratch repository under
# one mktemp folder (removed at the end), whose programs are the plain C
# files of progs/ copied in as programs/LESSON/NAME.cu; stand-in nvcc and
# nvidia-smi scripts (bin/) come first on PATH.  Prints `ok NAME` or
# `FAIL NAME: why` per case, then `N passed, M failed`; exits 0 only when
# nothing failed.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ]; then
	echo "usage: sh run.sh PATH/TO/coursecheck-capture [PATH/TO/coursecheck]" >&2
	exit 2
fi
case $1 in
/*) CAP=$1 ;;
*) CAP=$(pwd)/$1 ;;
esac
FULL=
if [ $# -eq 2 ]; then
	case $2 in
	/*) FULL=$2 ;;
	*) FULL=$(pwd)/$2 ;;
	esac
fi
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../../src" && pwd)
COURSE=$(cd "$HERE/../../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/capture-tests.XXXXXX") || exit 2
BG=
cleanup() {
	for p in $BG; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PATH=$HERE/bin:$PATH
TMPDIR=$T/tmp
STANDIN_APPS_DIR=$T/apps
COURSECHECK_NOW=2026-11-30T10:05:12Z
DAY=2026-11-30
# hello holds "the GPU" this long; only the case that samples during a run needs more
STANDIN_HOLD_MS=0
# the stand-in nvcc's builds, kept for the run (bin/nvcc says how)
STANDIN_NVCC_CACHE=$T/nvcc-cache
export PATH TMPDIR STANDIN_APPS_DIR COURSECHECK_NOW STANDIN_HOLD_MS STANDIN_NVCC_CACHE
unset CUDA_VISIBLE_DEVICES STANDIN_GPUS STANDIN_SMI_FAIL STANDIN_NVCC_FAIL STANDIN_FOREIGN_PID \
	STANDIN_SMI_LOG STANDIN_RAN STANDIN_PIDS STANDIN_LOCKS STANDIN_COUNTER COURSECHECK_NO_O_TMPFILE BIG_MIB
mkdir -p "$TMPDIR" "$STANDIN_APPS_DIR"

pass=0
failed=0

# ---- the case protocol: begin NAME; check ...; end ----

begin() {
	NAME=$1
	WHY=
}
because() {
	[ -n "$WHY" ] || WHY=$1
}
# check DESCRIPTION COMMAND...: the case fails (first reason wins) unless COMMAND succeeds.
check() {
	d=$1
	shift
	"$@" >/dev/null 2>&1 || because "$d"
}
not() {
	! "$@"
}
end() {
	if [ -z "$WHY" ]; then
		echo "ok $NAME"
		pass=$((pass + 1))
	else
		echo "FAIL $NAME: $WHY"
		failed=$((failed + 1))
	fi
}

# ---- scratch repositories ----

# mkrepo NAME LESSON:PROG...: a repository whose programs/LESSON/PROG.cu is progs/PROG.c,
# committed (when git is there) with build/ ignored.  Sets R.
mkrepo() {
	R=$T/$1
	shift
	mkdir -p "$R/programs"
	for spec in "$@"; do
		mkdir -p "$R/programs/${spec%%:*}"
		cp "$HERE/progs/${spec#*:}.c" "$R/programs/${spec%%:*}/${spec#*:}.cu"
	done
	printf 'build/\n' >"$R/.gitignore"
	(cd "$R" && git init -q && git add -A &&
		git -c user.name=test -c user.email=test@example.com commit -qm init) >/dev/null 2>&1
}

# cap ARG...: runs capture in $R; RC is its status, $T/out and $T/err its output.
# What a case changed is committed first: capture refuses a tree with
# uncommitted changes (the dirty-* cases run it without this).
cap() {
	(cd "$R" && git add -A && git -c user.name=test -c user.email=test@example.com commit -qm edit) >/dev/null 2>&1
	(cd "$R" && "$CAP" "$@") >"$T/out" 2>"$T/err"
	RC=$?
}

# ---- reading evidence ----

# field FILE KEY: the header value of KEY.
field() {
	sed -n "/^stdout: [0-9]*\$/q; s/^$2: //p" "$1"
}
has_field() {
	sed -n '/^stdout: [0-9]*$/q; p' "$1" | grep -q "^$2: "
}
sha() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum | cut -d' ' -f1
	else
		openssl dgst -sha256 -r | cut -d' ' -f1
	fi
}
body_sha() {
	sed -n '/^stdout: [0-9]*$/,$p' "$1" | sha
}
stdout_of() {
	awk 'f && n > 0 { print; n--; next } f { exit } /^stdout: [0-9]+$/ { f = 1; n = $2 }' "$1"
}
stderr_of() {
	awk 's == 0 && /^stdout: [0-9]+$/ { s = 1; k = $2; next }
	     s == 1 && k > 0 { k--; next }
	     s == 1 { s = 2; n = $2; next }
	     s == 2 && n > 0 { print; n-- }' "$1"
}
# Evidence files of a lesson in the repository, one a line.
evidence_files() {
	ls "$R/evidence/$1" 2>/dev/null | grep '^run-.*\.txt$'
}
count_evidence() {
	evidence_files "$1" | wc -l | tr -d ' '
}
# The evidence must parse with the verifier's own parser and hash right.
valid() {
	"$EVCHECK" "$1" && [ "$(body_sha "$1")" = "$(field "$1" body-sha256)" ]
}
err_has() {
	grep -q -- "$1" "$T/err"
}
# No temporary evidence file anywhere, and no scratch folder left behind.
no_litter() {
	[ -z "$(find "$R" -name '.tmp-run-*' 2>/dev/null)" ] || because "a temporary file was left in evidence/"
	if [ -d "$R/build/capture" ] && [ -n "$(ls -A "$R/build/capture")" ]; then
		because "a scratch folder was left in build/capture/"
	fi
	[ -z "$(ls -A "$TMPDIR")" ] || because "something was left in TMPDIR"
}
elapsed_since() {
	echo $(($(date +%s) - $1))
}
# dead PID...: none of them runs.  A zombie counts as dead: killed, but not
# yet reaped by init (some container inits reap late or never).
dead() {
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null || continue
		[ -r "/proc/$p/stat" ] && [ "$(sed 's/.*) //; s/ .*//' "/proc/$p/stat")" = Z ] && continue
		return 1
	done
	return 0
}

# ---- the verifier's parser, to read what capture writes ----

EVCHECK=$T/evcheck
begin evcheck-builds
if ! cc -std=c11 -D_GNU_SOURCE -I"$SRC/base" -I"$SRC/evidence" "$HERE/evcheck.c" "$SRC/evidence/evidence.c" "$SRC/base/textfile.c" \
	"$SRC/base/sha256.c" "$SRC/base/diag.c" "$SRC/base/util.c" "$SRC/base/strmap.c" "$SRC/base/repo.c" -lcrypto -o "$EVCHECK" 2>"$T/cc.err"; then
	because "cannot build evcheck: $(head -n 1 "$T/cc.err")"
	printf '#!/bin/sh\nexit 1\n' >"$EVCHECK"
	chmod +x "$EVCHECK"
fi
end

# ---- the cases ----

begin clean-run
mkrepo clean hello:hello
cap hello
E=$R/evidence/hello/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "no evidence file evidence/hello/run-$DAY.txt" [ -f "$E" ]
if [ -f "$E" ]; then
	check "the first line is not the magic line" [ "$(head -n 1 "$E")" = "coursecheck-evidence 1" ]
	if command -v git >/dev/null 2>&1; then
		commit=$(git -C "$R" rev-parse HEAD)
		dirty=no
	else
		commit=none
		dirty=unknown
	fi
	for kv in "lesson=hello" "program=programs/hello/hello.cu" "build=nvcc -arch=sm_90 -o hello hello.cu" \
		"run=./hello" "gpu=NVIDIA H200" "compute-capability=9.0" "driver=580.159.04" \
		"cuda=13.0 (V13.0.88)" "captured=2026-11-30T10:05:12Z" "node=$(uname -n)" "exit=0" \
		"memory=143771 MiB" "commit=$commit" "dirty=$dirty" "gpu-exclusive=yes" "gpu-index=0" \
		"capture-tool=coursecheck-capture 1"; do
		k=${kv%%=*}
		v=${kv#*=}
		check "header $k is '$(field "$E" "$k")', not '$v'" [ "$(field "$E" "$k")" = "$v" ]
	done
	for k in source-sha256 body-sha256 host-compiler build-seconds run-seconds; do
		check "header $k is missing" has_field "$E" "$k"
	done
	check "sm-count is there, but nvidia-smi gave none" not has_field "$E" sm-count
	check "repeats is there without --repeat" not has_field "$E" repeats
	# the tokens rule (readset.h, srctok.h): source-sha256 is the SHA-256
	# of the recorded "PATH SHA" lines, the program hashed by its tokens
	check "source-rule is not tokens-1" [ "$(field "$E" source-rule)" = tokens-1 ]
	check "source-sha256 is not the SHA-256 of its source-file lines" \
		[ "$(field "$E" source-sha256)" = "$(sed -n '/^stdout: [0-9]*$/q; s/^source-file-[0-9]*: //p' "$E" | sha)" ]
	if [ -n "$FULL" ]; then
		# lesson-files wants a course (pages/ beside programs/): a copy
		mkdir -p "$T/clean-course/pages" && cp -R "$R/programs" "$T/clean-course/"
		check "the program's hash is not the one 'lesson-files --rule=tokens-1' gives" \
			[ "$(field "$E" source-file-1)" = "$("$FULL" lesson-files --root "$T/clean-course" --rule=tokens-1 hello |
				sed -n 's/^source-file-1: //p')" ]
	fi
	check "body-sha256 is not the SHA-256 of the body" [ "$(body_sha "$E")" = "$(field "$E" body-sha256)" ]
	check "the stdout section is not what the program printed" [ "$(stdout_of "$E")" = "$(printf \
		'hello from the test GPU\nsum = 42\nvisible: 0, order: PCI_BUS_ID')" ]
	check "the stdout count is not 3" grep -qx 'stdout: 3' "$E"
	check "the stderr section is not what the program printed" [ "$(stderr_of "$E")" = "a note on stderr" ]
	check "the stderr count is not 1" grep -qx 'stderr: 1' "$E"
	check "evidence.c does not accept the file" "$EVCHECK" "$E"
fi
check "no progress line" grep -q "^capture: hello: build [0-9.]* s, run [0-9.]* s, exit 0 -> evidence/hello/run-$DAY.txt\$" "$T/err"
check "no summary line" grep -qx "capture: 1 lesson, 1 captured, 0 failed" "$T/err"
check "something was printed on stdout" [ ! -s "$T/out" ]
no_litter
end

begin crash
mkrepo crash crash:crash
cap crash
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "evidence was written of a crash" [ ! -e "$R/evidence" ]
check "the signal is not reported" err_has "programs/crash: error: run failed: signal 11 (SIGSEGV) after"
check "the stderr tail is not shown" grep -qx "    | about to crash" "$T/err"
check "no summary line" grep -qx "capture: 1 lesson, 0 captured, 1 failed" "$T/err"
cap --keep-failed crash
E=$R/evidence/crash/run-$DAY.txt
check "exit status $RC with --keep-failed, not 1" [ "$RC" -eq 1 ]
check "--keep-failed wrote no evidence" [ -f "$E" ]
if [ -f "$E" ]; then
	check "exit is '$(field "$E" exit)', not 'signal 11 (SIGSEGV)'" [ "$(field "$E" exit)" = "signal 11 (SIGSEGV)" ]
	check "the kept stdout is not the program's" [ "$(stdout_of "$E")" = "before the crash" ]
	check "the kept evidence does not parse" valid "$E"
	check "the kept file is not reported" err_has "kept as evidence/crash/run-$DAY.txt"
fi
no_litter
end

begin exit-status
mkrepo exitst fail:fail
cap fail
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the status is not reported" err_has "programs/fail: error: run failed: exit 3 after"
check "the last stderr line is not shown" grep -qx "    | error line 25" "$T/err"
check "the 20th line from the end is not shown" grep -qx "    | error line 6" "$T/err"
check "more than 20 lines are shown" not grep -qx "    | error line 5" "$T/err"
check "evidence was written" [ ! -e "$R/evidence" ]
cap --keep-failed fail
check "exit is not 3 in kept evidence" [ "$(field "$R/evidence/fail/run-$DAY.txt" exit)" = 3 ]
no_litter
end

begin timeout
mkrepo hang hang:hang
STANDIN_PIDS=$T/hang.pids
export STANDIN_PIDS
t0=$(date +%s)
cap --timeout 1 hang
took=$(elapsed_since "$t0")
unset STANDIN_PIDS
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "took $took s to stop a 1 s limit" [ "$took" -le 6 ]
check "the time limit is not reported" err_has "programs/hang: error: run failed: timeout after 1 s"
check "evidence was written" [ ! -e "$R/evidence" ]
check "the program never ran" [ -s "$T/hang.pids" ]
check "the program or its child still runs" dead $(cat "$T/hang.pids" 2>/dev/null)
no_litter
end

begin build-failure
mkrepo broken broken:broken
cap broken
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the build failure is not reported" err_has "programs/broken: error: build failed: exit 1 after"
check "the compiler's errors are not shown" grep -q "^    | .*broken.cu" "$T/err"
check "evidence was written" [ ! -e "$R/evidence" ]
cap --keep-failed broken
E=$R/evidence/broken/run-$DAY.txt
check "--keep-failed kept no failed build" [ -f "$E" ]
[ -f "$E" ] && check "exit of a kept build failure is '$(field "$E" exit)'" [ "$(field "$E" exit)" = "build failed (exit 1)" ]
[ -f "$E" ] && check "the kept build failure does not parse" valid "$E"
no_litter
end

begin same-day-second
mkrepo second hello:hello
cap hello
cp "$R/evidence/hello/run-$DAY.txt" "$T/first.copy" 2>/dev/null
cap hello
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the second capture is not run-$DAY-2.txt" [ -f "$R/evidence/hello/run-$DAY-2.txt" ]
check "the first file changed" cmp -s "$R/evidence/hello/run-$DAY.txt" "$T/first.copy"
check "not exactly two evidence files" [ "$(count_evidence hello)" = 2 ]
check "the progress line does not name -2" err_has "-> evidence/hello/run-$DAY-2.txt"
check "the second file does not parse" valid "$R/evidence/hello/run-$DAY-2.txt"
no_litter
end

begin unwritable-lesson-folder
mkrepo unwritable hello:hello
mkdir -p "$R/evidence"
printf 'in the way\n' >"$R/evidence/hello"
cap hello
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the path and reason are not given" err_has "programs/hello: error: cannot write evidence: cannot make the folder evidence/hello/: Not a directory"
check "the file in the way changed" [ "$(cat "$R/evidence/hello")" = "in the way" ]
check "something else was written in evidence/" [ "$(find "$R/evidence" | wc -l | tr -d ' ')" = 2 ]
check "no summary line" grep -qx "capture: 1 lesson, 0 captured, 1 failed" "$T/err"
no_litter
end

begin unwritable-evidence-folder
mkrepo unwritable2 hello:hello
printf 'in the way\n' >"$R/evidence"
cap hello
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the path and reason are not given" err_has "programs/hello: error: cannot write evidence: cannot make the folder evidence/: Not a directory"
check "the file in the way changed" [ "$(cat "$R/evidence")" = "in the way" ]
no_litter
end

begin concurrent
mkrepo concurrent hello:hello
(cd "$R" && "$CAP" hello >"$T/c1.out" 2>"$T/c1.err"; echo $? >"$T/c1.rc") &
p1=$!
(cd "$R" && "$CAP" hello >"$T/c2.out" 2>"$T/c2.err"; echo $? >"$T/c2.rc") &
p2=$!
wait "$p1" "$p2"
check "the first capture failed" [ "$(cat "$T/c1.rc")" = 0 ]
check "the second capture failed" [ "$(cat "$T/c2.rc")" = 0 ]
check "not run-$DAY.txt and run-$DAY-2.txt" [ "$(evidence_files hello | tr '\n' ' ')" = "run-$DAY-2.txt run-$DAY.txt " ]
check "run-$DAY.txt is not whole" valid "$R/evidence/hello/run-$DAY.txt"
check "run-$DAY-2.txt is not whole" valid "$R/evidence/hello/run-$DAY-2.txt"
no_litter
end

begin stale
mkrepo stale hello:hello other:vol
cap hello
cap --stale
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "a lesson with no evidence was not captured" [ -f "$R/evidence/other/run-$DAY.txt" ]
check "a current lesson was captured again" [ "$(count_evidence hello)" = 1 ]
check "the reason is not given" err_has "capture: other: stale: it has no evidence"
check "no --stale summary" grep -qx "capture: 2 lessons, 1 up to date, 1 captured, 0 failed" "$T/err"
cap --stale
check "a second --stale captured something" [ "$(count_evidence hello)$(count_evidence other)" = 11 ]
check "no up-to-date summary" grep -qx "capture: 2 lessons, 2 up to date, 0 captured, 0 failed" "$T/err"
sed 's|^// is 42\.$|// is 42, as the transcript shows.|' "$R/programs/hello/hello.cu" >"$T/hello.cu" &&
	cp "$T/hello.cu" "$R/programs/hello/hello.cu"
cap --stale
check "rewording the Verified paragraph made the program stale" [ "$(count_evidence hello)" = 1 ]
printf '// an edit of a comment\n' >>"$R/programs/hello/hello.cu"
cap --stale
check "a comment added made the program stale" [ "$(count_evidence hello)" = 1 ]
printf 'int edited_for_the_test;\n' >>"$R/programs/hello/hello.cu"
cap --stale
check "an edited program was not captured" [ "$(count_evidence hello)" = 2 ]
check "an unchanged one was" [ "$(count_evidence other)" = 1 ]
check "the edit is not the reason given, naming the file" err_has "capture: hello: stale: 'programs/hello/hello.cu' changed since its newest evidence"
sed 's|^// Build: nvcc -o vol vol.cu$|// Build: nvcc -O2 -o vol vol.cu|' "$R/programs/other/vol.cu" >"$T/vol.cu" &&
	cp "$T/vol.cu" "$R/programs/other/vol.cu"
cap --stale
check "a changed Build: line was not captured" [ "$(count_evidence other)" = 2 ]
check "the Build: change is not the reason" err_has "capture: other: stale: the Build: line changed"
no_litter
end

begin repeat
mkrepo repeat vol:vol hello:hello
cap --repeat 3 vol
E=$R/evidence/vol/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "repeats is '$(field "$E" repeats)', not 3" [ "$(field "$E" repeats)" = 3 ]
check "volatile is '$(field "$E" volatile)', not '2:5'" [ "$(field "$E" volatile)" = "2:5" ]
check "the evidence does not parse" valid "$E"
check "the progress line does not count the runs" err_has "(3 runs, 1 volatile), exit 0"
# every repeat's value of the volatile pid, sealed over the kept stdout
RV=$(field "$E" repeat-values)
check "repeat-values is '$RV', not 2:5 with 3 values" [ "$(printf '%s' "$RV" | sed -n 's/^2:5=[0-9]*,[0-9]*,[0-9]*$/ok/p')" = ok ]
FIRST=$(printf '%s' "${RV#2:5=}" | cut -d, -f1)
check "repeat-values starts with $FIRST, not the kept run's pid" [ "$FIRST" = "$(stdout_of "$E" | sed -n '2s/^pid //p')" ]
check "repeat-values-sha256 is not the seal of the values and the stdout" \
	[ "$(field "$E" repeat-values-sha256)" = "$( { printf '%s\n' "$RV"; stdout_of "$E"; } | sha)" ]
cap --repeat 2 hello
check "volatile is '$(field "$R/evidence/hello/run-$DAY.txt" volatile)', not 'none'" \
	[ "$(field "$R/evidence/hello/run-$DAY.txt" volatile)" = none ]
check "repeat-values is there though nothing varied" not has_field "$R/evidence/hello/run-$DAY.txt" repeat-values
no_litter
end

# R18: past the budget of repeat values, capture drops the lists of the
# last places in stdout order, not every list: the timing row keeps its
# values, the header names what was dropped, and verify reads a range over
# the timing (and refuses one over a dropped place)
begin repeat-values-kept
mkrepo keep volmany:volmany
cap --repeat 3 volmany
E=$R/evidence/volmany/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the evidence does not parse" valid "$E"
RV=$(field "$E" repeat-values)
check "repeat-values does not start with the timing's 3:24 and 3 values" \
	[ "$(printf '%s' "$RV" | sed -n 's/^3:24=[0-9.]*,[0-9.]*,[0-9.]* .*/ok/p')" = ok ]
check "repeat-values-omitted does not name the places dropped" \
	[ -n "$(field "$E" repeat-values-omitted | sed -n 's/^[0-9]* places from stdout line [0-9]* on, over 1048576 bytes$/ok/p')" ]
check "the values kept pass the budget" [ "$(printf '%s' "$RV" | wc -c)" -le 1048576 ]
check "the last line's place kept its values" [ -z "$(printf '%s' "$RV" | grep -o ' 120003:[0-9]*=')" ]
if [ -n "$FULL" ]; then
	times=$(printf '%s' "$RV" | sed -n 's/^3:24=\([^ ]*\) .*/\1/p' | tr ',' '\n' | sort -n)
	lo=$(printf '%s\n' "$times" | head -n 1) hi=$(printf '%s\n' "$times" | tail -n 1)
	mkdir -p "$R/pages"
	printf -- '---\nlesson: volmany\nday: 1\ntitle: "t"\nstatus: in-technical-review\nprogram: programs/volmany/volmany.cu\nevidence: evidence/volmany/run-%s.txt\n---\n\nOver the repeats the racy kernel took %s to %s <!-- range: [64 racy | time ms] --> ms.\n' \
		"$DAY" "$lo" "$hi" >"$R/pages/volmany.md"
	(cd "$R" && "$FULL" verify pages/volmany.md) >"$T/vout" 2>&1
	check "verify refuses the range over the kept timing: $(head -c 300 "$T/vout")" grep -q ' 0 errors' "$T/vout"
fi
# --repeat auto: a clear difference is decided after the fewest runs; a
# close one (apart by less than the stated resolution) runs to MAX.  The
# plan is what `coursecheck explain --plan` writes (capture_auto.h).
begin repeat-auto
mkrepo repeatauto noisy:noisy
printf '# clear\nnoisy 3:11 < 4:11 0.0205 0.0205\n' >"$T/clear.plan"
printf 'noisy 5:11 < 6:11 0.0205 0.0205\n' >"$T/close.plan"
cap --repeat auto:6 --plan "$T/clear.plan" noisy
E=$R/evidence/noisy/run-$DAY.txt
check "clear: exit status $RC, not 0" [ "$RC" -eq 0 ]
check "clear: repeats is '$(field "$E" repeats)', not 3" [ "$(field "$E" repeats)" = 3 ]
check "clear: repeat-stop is '$(field "$E" repeat-stop)'" [ "$(field "$E" repeat-stop)" = "decided after 3 runs" ]
check "clear: repeats-needed is '$(field "$E" repeats-needed)'" [ "$(field "$E" repeats-needed)" = 3 ]
check "clear: the resolution is '$(field "$E" resolution)', not recorded" [ "$(field "$E" resolution)" = "ms 0.02" ]
check "clear: the evidence does not parse" valid "$E"
check "clear: the progress line does not count 3 runs" err_has "(3 runs, 4 volatile), exit 0"
rm -f "$E"
cap --repeat auto:6 --plan "$T/close.plan" noisy
check "close: exit status $RC, not 0" [ "$RC" -eq 0 ]
check "close: repeats is '$(field "$E" repeats)', not 6" [ "$(field "$E" repeats)" = 6 ]
check "close: repeat-stop is '$(field "$E" repeat-stop)'" [ "$(field "$E" repeat-stop)" = "undecided at the limit of 6 runs" ]
check "close: repeats-needed is '$(field "$E" repeats-needed)'" [ "$(field "$E" repeats-needed)" = more ]
check "close: the evidence does not parse" valid "$E"
rm -f "$E"
printf 'noisy 5:1 < 6:1\n' >"$T/bad.plan"
cap --repeat auto --plan "$T/bad.plan" noisy
check "a malformed plan: exit $RC, not 1" [ "$RC" -eq 1 ]
check "a malformed plan is not named at its line" err_has "bad.plan:1: not 'LESSON LINE:COL OP LINE:COL U U'"
cap --plan "$T/clear.plan" noisy
check "--plan without --repeat auto: exit $RC, not 2" [ "$RC" -eq 2 ]
cap --repeat auto:2 noisy
check "--repeat auto:2: exit $RC, not 2" [ "$RC" -eq 2 ]
no_litter
end

begin repeat-exponent
mkrepo repeatexp expo:expo
cap --repeat 3 expo
E=$R/evidence/expo/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
# 2:9 the %e latency as one number (its 42 stable), 3:7 at the sign as the
# verifier's token starts, 3:21 the grouped total as one number
check "volatile is '$(field "$E" volatile)', not '2:9 3:7 3:21'" [ "$(field "$E" volatile)" = "2:9 3:7 3:21" ]
check "the evidence does not parse" valid "$E"
no_litter
end

# capture's volatile places read by verify's own rules: a signed, an
# exponent and a grouped value in repeat-values are well formed to verify,
# the kept run's value quoted bare is number-volatile with every repeat's
# value, and a second capture that moved them is no behaviour-change
begin volatile-through-verify
if [ -z "$FULL" ]; then
	NAME="$NAME # skip: no coursecheck binary given"
else
	mkrepo volverify expo:expo
	cap --repeat 3 expo
	E=$R/evidence/expo/run-$DAY.txt
	check "exit status $RC of the first capture, not 0" [ "$RC" -eq 0 ]
	lat=$(sed -n 's/^latency \([^ ]*\) ms.*/\1/p' "$E")
	delta=$(sed -n 's/^delta \([^,]*\),.*/\1/p' "$E")
	total=$(sed -n 's/^delta .*, total //p' "$E")
	mkdir -p "$R/pages"
	printf -- '---\nlesson: expo\nday: 1\ntitle: "Numbers that vary"\nstatus: in-technical-review\nprogram: programs/expo/expo.cu\nevidence: evidence/expo/run-%s.txt\n---\n\n# Numbers that vary\n\nOne run printed a delta of %s and a total of %s.\n\nIts latency was %s ms.\n' \
		"$DAY" "$delta" "$total" "$lat" >"$R/pages/expo.md"
	(cd "$R" && "$FULL" verify --as published pages/expo.md) >"$T/out" 2>&1
	RC=$?
	check "verify --as published exit status $RC, not 1" [ "$RC" -eq 1 ]
	check "verify calls capture's repeat-values edited" not grep -q evidence-edited "$T/out"
	check "the signed value is not number-volatile" grep -q "error: $delta is one run's value of a place that varied between the 3 repeats" "$T/out"
	check "the grouped value is not number-volatile" grep -q "error: $total is one run's value of a place that varied between the 3 repeats" "$T/out"
	check "the repeats' values are not all named" [ "$(grep -c 'note: the 3 repeats printed [^,]*, [^,]*, [^,]* here' "$T/out")" -ge 2 ]
	# the second capture moves every volatile number (another pid)
	COURSECHECK_NOW=2026-11-30T11:05:12Z
	export COURSECHECK_NOW
	cap --repeat 3 expo
	COURSECHECK_NOW=2026-11-30T10:05:12Z
	export COURSECHECK_NOW
	check "exit status $RC of the second capture, not 0" [ "$RC" -eq 0 ]
	sed -i "s|evidence/expo/run-$DAY.txt|evidence/expo/run-$DAY-2.txt|" "$R/pages/expo.md"
	(cd "$R" && "$FULL" verify pages/expo.md) >"$T/out" 2>&1
	RC=$?
	check "verify exit status $RC on the moved numbers, not 1" [ "$RC" -eq 1 ]
	check "a volatile number moved is called a behaviour-change" not grep -q behaviour-change "$T/out"
	check "the moved numbers are not drift from volatile places" \
		[ "$(grep -c '(a volatile place: it varied between the repeats of this capture)' "$T/out")" -eq 3 ]
	check "verify calls capture's repeat-values edited" not grep -q evidence-edited "$T/out"
fi
no_litter
end

begin repeat-alignment
mkrepo align shift:shift
STANDIN_COUNTER=$T/counter
export STANDIN_COUNTER
cap --repeat 3 shift
unset STANDIN_COUNTER
E=$R/evidence/shift/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "volatile is '$(field "$E" volatile)', not '1:3 1:5 4:6'" [ "$(field "$E" volatile)" = "1:3 1:5 4:6" ]
check "the kept transcript is not the first run's" [ "$(stdout_of "$E" | head -n 1)" = "n 1 2" ]
no_litter
end

# rows printed in another order by each repeat are aligned by their row
# label: only the count that changed (line 3 of the kept run, "64 add,
# racy", column 22) is volatile, not every reordered row
begin repeat-reordered-rows
mkrepo reord reorder:reorder
STANDIN_COUNTER=$T/counter-reorder
export STANDIN_COUNTER
cap --repeat 3 reorder
unset STANDIN_COUNTER
E=$R/evidence/reorder/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "volatile is '$(field "$E" volatile)', not '3:22'" [ "$(field "$E" volatile)" = "3:22" ]
check "repeat-values is '$(field "$E" repeat-values)', not 3:22=2920,3464,2920" \
	[ "$(field "$E" repeat-values)" = "3:22=2920,3464,2920" ]
no_litter
end

begin failing-repeat
mkrepo failrep shift:shift
sed 's|^	return 0;$|	return run == 1 ? 4 : 0;|' "$HERE/progs/shift.c" >"$R/programs/shift/shift.cu"
STANDIN_COUNTER=$T/counter2
export STANDIN_COUNTER
cap --repeat 3 shift
unset STANDIN_COUNTER
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the failing repeat is not reported" err_has "programs/shift: error: run 2 of 3 failed: exit 4 after"
check "evidence was written" [ ! -e "$R/evidence" ]
no_litter
end

begin gpu-shared
mkrepo shared hello:hello
sleep 30 &
foreign=$!
BG="$BG $foreign"
STANDIN_FOREIGN_PID=$foreign
export STANDIN_FOREIGN_PID
cap hello
unset STANDIN_FOREIGN_PID
kill "$foreign" 2>/dev/null
E=$R/evidence/hello/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "gpu-exclusive is '$(field "$E" gpu-exclusive)', not 'no'" [ "$(field "$E" gpu-exclusive)" = no ]
check "no warning on stderr" err_has "programs/hello: warning: process $foreign, not ours, used GPU 0"
no_litter
end

begin sampled-during-run
mkrepo sampled hello:hello
STANDIN_SMI_LOG=$T/smi.log
export STANDIN_SMI_LOG
STANDIN_HOLD_MS=1300 cap hello
unset STANDIN_SMI_LOG
n=$(grep -c -- '--query-compute-apps=pid' "$T/smi.log" 2>/dev/null)
check "nvidia-smi was asked about compute apps ${n:-0} times, not before, during and after" [ "${n:-0}" -ge 3 ]
check "gpu-exclusive is not yes though only our program used the GPU" \
	[ "$(field "$R/evidence/hello/run-$DAY.txt" gpu-exclusive)" = yes ]
no_litter
end

begin raw-output
mkrepo raw raw:raw
cap raw
E=$R/evidence/raw/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the stdout count is not 5" grep -qx 'stdout: 5' "$E"
check "the stdout section is not the normalised output" \
	[ "$(stdout_of "$E")" = "$(printf 'first\na\357\277\275b\nprogress 50%%\nprogress 100%%\nno newline')" ]
check "stdout-final-newline is not no" [ "$(field "$E" stdout-final-newline)" = no ]
check "stdout-nul-replaced is not yes" [ "$(field "$E" stdout-nul-replaced)" = yes ]
check "stdout-cr-replaced is not yes" [ "$(field "$E" stdout-cr-replaced)" = yes ]
check "stderr-final-newline is not no" [ "$(field "$E" stderr-final-newline)" = no ]
check "the file holds a NUL byte" [ "$(tr -d '\000' <"$E" | wc -c)" = "$(wc -c <"$E")" ]
check "the evidence does not parse" valid "$E"
no_litter
end

begin two-gpus
mkrepo gpus g1:lock g2:lock g3:lock g4:lock
STANDIN_GPUS=2
STANDIN_LOCKS=$T/locks
export STANDIN_GPUS STANDIN_LOCKS
mkdir -p "$STANDIN_LOCKS"
cap -j 2
unset STANDIN_GPUS STANDIN_LOCKS
check "exit status $RC, not 0 (two lessons shared a GPU?)" [ "$RC" -eq 0 ]
check "GPU 0 was not used" [ -e "$T/locks/used0" ]
check "GPU 1 was not used" [ -e "$T/locks/used1" ]
check "a lesson saw a shared GPU" not grep -q "is shared" "$T/err"
check "not every lesson was captured" grep -qx "capture: 4 lessons, 4 captured, 0 failed" "$T/err"
idx=$(for l in g1 g2 g3 g4; do field "$R/evidence/$l/run-$DAY.txt" gpu-index; done | sort -u | tr '\n' ' ')
check "gpu-index values are '$idx', not '0 1 '" [ "$idx" = "0 1 " ]
no_litter
end

begin build-only
mkrepo buildonly hello:hello vol:vol
STANDIN_SMI_FAIL=1
STANDIN_RAN=$T/ran
export STANDIN_SMI_FAIL STANDIN_RAN
cap --build-only build/programs
unset STANDIN_SMI_FAIL STANDIN_RAN
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "hello was not built into build/programs/hello/" [ -x "$R/build/programs/hello/hello" ]
check "vol was not built into build/programs/vol/" [ -x "$R/build/programs/vol/vol" ]
check "a program ran" [ ! -e "$T/ran" ]
check "evidence was written" [ ! -e "$R/evidence" ]
check "no progress line" err_has "capture: hello: build [0-9.]* s -> build/programs/hello/"
check "no summary" grep -qx "capture: 2 lessons, 2 built, 0 failed" "$T/err"
no_litter
end

begin no-gpu-facts
mkrepo nosmi hello:hello
STANDIN_SMI_FAIL=1
export STANDIN_SMI_FAIL
cap hello
unset STANDIN_SMI_FAIL
check "exit status $RC with a failing nvidia-smi, not 1" [ "$RC" -eq 1 ]
check "the refusal does not say why" err_has "programs/hello: error: refused: nvidia-smi failed (exit 9): NVIDIA-SMI has failed"
check "evidence was written without GPU facts" [ ! -e "$R/evidence" ]
STANDIN_NVCC_FAIL=1
export STANDIN_NVCC_FAIL
cap hello
unset STANDIN_NVCC_FAIL
check "exit status $RC with a failing nvcc, not 1" [ "$RC" -eq 1 ]
check "the nvcc refusal does not say why" err_has "programs/hello: error: refused: nvcc failed (exit 1)"
check "evidence was written without a toolkit" [ ! -e "$R/evidence" ]
no_litter
end

begin nvidia-smi-missing
mkrepo nosmi2 hello:hello
mkdir -p "$T/nosmi-bin"
cp "$HERE/bin/nvcc" "$T/nosmi-bin/nvcc"
if PATH=$T/nosmi-bin:/usr/bin:/bin command -v nvidia-smi >/dev/null 2>&1; then
	NAME="$NAME # skip: a real nvidia-smi is in /usr/bin or /bin"
else
	(cd "$R" && PATH=$T/nosmi-bin:/usr/bin:/bin "$CAP" hello) >"$T/out" 2>"$T/err"
	RC=$?
	check "exit status $RC without nvidia-smi, not 1" [ "$RC" -eq 1 ]
	check "the refusal does not say why" err_has "programs/hello: error: refused: nvidia-smi: not found on PATH"
	check "evidence was written without GPU facts" [ ! -e "$R/evidence" ]
	no_litter
fi
end

begin bad-lessons
mkrepo badlessons two:hello nohdr:vol
cp "$HERE/progs/vol.c" "$R/programs/two/second.cu"
sed '/^\/\/ Run:/d' "$HERE/progs/vol.c" >"$R/programs/nohdr/vol.cu"
mkdir -p "$R/programs/empty"
cap
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "two .cu files are not refused" err_has "programs/two: error: no program: programs/two/ holds 2 .cu files"
check "a missing Run: line is not refused" err_has "programs/nohdr: error: no run command: programs/nohdr/vol.cu has no '// Run: COMMAND' header line"
check "an empty lesson is not refused" err_has "programs/empty: error: no program: programs/empty/ holds no .cu file"
check "no summary" grep -qx "capture: 3 lessons, 0 captured, 3 failed" "$T/err"
no_litter
end

begin control-char-lesson
mkrepo ctlname hello:hello
name=$(printf 'he\nllo')
mkdir "$R/programs/$name" && cp "$HERE/progs/hello.c" "$R/programs/$name/hello.cu"
cap
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the name is not refused" err_has "programs/he\\\\nllo: error: the lesson folder's name holds the control byte 0x0a"
check "evidence was written for it" [ ! -e "$R/evidence/$name" ]
check "the other lesson was not captured" [ "$(count_evidence hello)" = 1 ]
no_litter
end

begin unknown-lesson
mkrepo unknown hello:hello
cap nosuch
check "exit status $RC, not 2" [ "$RC" -eq 2 ]
check "the unknown name is not reported" err_has "programs: error: nosuch: no such lesson under programs/ \[capture-lesson-unknown\]"
check "the lessons are not listed" grep -qx "hint: the lessons are: hello" "$T/err"
check "evidence was written" [ ! -e "$R/evidence" ]
end

begin usage
mkrepo usage hello:hello
for args in "--bogus" "--timeout abc" "--timeout 0" "--timeout" "--repeat 0" "-j 0" "-jx" "--root"; do
	# shellcheck disable=SC2086
	cap $args
	check "'$args' exits $RC, not 2" [ "$RC" -eq 2 ]
	check "'$args' prints no usage" err_has "^usage: coursecheck-capture"
done
cap --help
check "--help exits $RC, not 0" [ "$RC" -eq 0 ]
check "--help prints no usage on stdout naming the binary" grep -q "^usage: coursecheck-capture " "$T/out"
COURSECHECK_NOW=yesterday cap hello
check "a malformed COURSECHECK_NOW is accepted" [ "$RC" -eq 2 ]
check "a malformed COURSECHECK_NOW is not a capture-setup error" \
	err_has "^capture: error: COURSECHECK_NOW=yesterday is not a UTC time like 2026-11-30T10:05:12Z \\[capture-setup\\]\$"
check "evidence was written" [ ! -e "$R/evidence" ]
end

begin root-option
mkrepo rootopt hello:hello
(cd "$T" && "$CAP" --root "$R" hello) >"$T/out" 2>"$T/err"
RC=$?
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "no evidence under --root" [ -f "$R/evidence/hello/run-$DAY.txt" ]
no_litter
end

begin interrupt
mkrepo interrupt hang:hang
STANDIN_PIDS=$T/int.pids
export STANDIN_PIDS
(cd "$R" && exec "$CAP" hang) >"$T/out" 2>"$T/err" &
cpid=$!
BG="$BG $cpid"
unset STANDIN_PIDS
i=0
while [ ! -s "$T/int.pids" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM "$cpid"
wait "$cpid"
RC=$?
check "the program never started" [ -s "$T/int.pids" ]
check "exit status $RC after SIGTERM, not 1" [ "$RC" -eq 1 ]
check "the interrupt is not reported" err_has "capture: interrupted by SIGTERM"
check "the program or its child still runs" dead $(cat "$T/int.pids" 2>/dev/null)
check "evidence was written" [ ! -e "$R/evidence" ]
no_litter
end

# ---- capture owns its children: descendants, terminals, stops ----

begin descendants-after-run
mkrepo daemon daemon:daemon
STANDIN_PIDS=$T/daemon.pids
export STANDIN_PIDS
cap daemon
unset STANDIN_PIDS
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the program never ran" [ -s "$T/daemon.pids" ]
# capture returns once the keeper has killed and reaped them all: no wait here
check "a child or the setsid() grandchild outlived the capture" dead $(cat "$T/daemon.pids" 2>/dev/null)
no_litter
end

begin descendants-after-timeout
mkrepo hangkids hangkids:hangkids
STANDIN_PIDS=$T/hangkids.pids
export STANDIN_PIDS
t0=$(date +%s)
cap --timeout 1 hangkids
took=$(elapsed_since "$t0")
unset STANDIN_PIDS
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "took $took s to stop a 1 s limit" [ "$took" -le 6 ]
check "the time limit is not reported" err_has "programs/hangkids: error: run failed: timeout after 1 s"
check "the program never ran" [ -s "$T/hangkids.pids" ]
check "a child or the setsid() grandchild outlived the capture" dead $(cat "$T/hangkids.pids" 2>/dev/null)
no_litter
end

begin descendants-after-kill-9
mkrepo hangkids9 hangkids:hangkids
STANDIN_PIDS=$T/hangkids9.pids
export STANDIN_PIDS
(cd "$R" && exec "$CAP" hangkids) >"$T/out" 2>"$T/err" &
cpid=$!
BG="$BG $cpid"
unset STANDIN_PIDS
i=0
while [ ! -s "$T/hangkids9.pids" ] && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -9 "$cpid"
wait "$cpid" 2>/dev/null
# the keeper, told by its parent-death signal, kills them all: wait on that, 5 s at most
i=0
while ! dead $(cat "$T/hangkids9.pids" 2>/dev/null) 2>/dev/null && [ $i -lt 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
check "the program never started" [ -s "$T/hangkids9.pids" ]
check "the program, its child or the setsid() grandchild outlived a killed capture by 5 s" \
	dead $(cat "$T/hangkids9.pids" 2>/dev/null)
rm -rf "$R/build/capture" # the killed capture's; the sweep has its own case
no_litter
end

# a capture killed during a build (kill -9: the build is killed at once,
# the compiler cannot remove its temporaries) leaves them in its scratch
# folder, which the next capture sweeps, not in the user's $TMPDIR
begin build-temporaries-after-kill-9
mkrepo tmpkill hello:hello
STANDIN_NVCC_HOLD=$T/tmpkill.held
export STANDIN_NVCC_HOLD
(cd "$R" && exec "$CAP" hello) >"$T/out" 2>"$T/err" &
cpid=$!
BG="$BG $cpid"
unset STANDIN_NVCC_HOLD
i=0
while [ ! -s "$T/tmpkill.held" ] && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -9 "$cpid"
wait "$cpid" 2>/dev/null
i=0
while [ -n "$(ls -A "$TMPDIR")" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "the compiler never started" [ -s "$T/tmpkill.held" ]
check "the compiler's TMPDIR was not in the scratch folder" grep -q "^$R/build/capture/[^/]*/tmp/" "$T/tmpkill.held"
check "a killed build left its temporary in TMPDIR" [ -z "$(ls -A "$TMPDIR")" ]
rm -rf "$R/build/capture" # the killed capture's; the sweep has its own case
no_litter
end

begin terminal-reader
mkrepo tty ttyread:ttyread
t0=$(date +%s)
if command -v script >/dev/null 2>&1; then
	# script(1) gives capture a terminal, as a person's shell would
	(cd "$R" && script -qec "$CAP --timeout 30 ttyread" /dev/null </dev/null) >"$T/out" 2>"$T/err"
	RC=$?
else
	NAME="$NAME # no script(1): run without a terminal"
	cap --timeout 30 ttyread
fi
took=$(elapsed_since "$t0")
E=$R/evidence/ttyread/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "took $took s: the terminal read was not refused at once" [ "$took" -le 10 ]
check "the program had a controlling terminal" [ "$(stdout_of "$E")" = "no tty" ]
no_litter
end

begin stopped-program
mkrepo stop stop:stop
t0=$(date +%s)
cap --timeout 30 stop
took=$(elapsed_since "$t0")
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "took $took s: a stopped program was waited for" [ "$took" -le 10 ]
check "the stop is not reported" err_has "programs/stop: error: run failed: stopped by signal 19 (SIGSTOP) after"
check "its output is not shown" grep -qx "    | about to stop" "$T/err"
check "evidence was written" [ ! -e "$R/evidence" ]
no_litter
end

# ---- output on disk is bounded (F11) ----

begin output-cap
mkrepo big big:big
# a program that would print 100 GiB: far more than fits before the time limit
(cd "$R" && BIG_MIB=102400 "$CAP" --timeout 120 big >"$T/out" 2>"$T/err"; echo $? >"$T/big.rc") &
BG="$BG $!"
peak=0
i=0
while [ ! -s "$T/big.rc" ] && [ $i -lt 2400 ]; do
	k=$(du -sk "$R/build" 2>/dev/null | cut -f1)
	[ "${k:-0}" -gt "$peak" ] && peak=$k
	sleep 0.05
	i=$((i + 1))
done
RC=$(cat "$T/big.rc" 2>/dev/null)
check "exit status ${RC:-none}, not 1" [ "${RC:-0}" -eq 1 ]
check "the cap is not reported" err_has "programs/big: error: run failed: stopped: stdout passed the cap of 60 MiB"
check "build/ held $peak KiB at its peak, more than the 60 MiB cap" [ "$peak" -le $((61 * 1024)) ]
check "evidence was written" [ ! -e "$R/evidence" ]
no_litter
end

# ---- nothing made through a link out of the repository (F10) ----

begin linked-folders
mkrepo linked hello:hello
mkdir -p "$T/outside-evidence" "$T/outside-build"
ln -s ../outside-evidence "$R/evidence"
cap hello
check "exit status $RC with evidence/ a link out, not 1" [ "$RC" -eq 1 ]
check "the link out is not named" err_has "programs/hello: error: cannot write evidence: cannot make the folder evidence/: a symbolic link on the path leads outside the repository"
check "something was made outside through evidence/" [ -z "$(ls -A "$T/outside-evidence")" ]
rm -f "$R/evidence"
rm -rf "$R/build"
ln -s ../outside-build "$R/build"
cap hello
check "exit status $RC with build/ a link out, not 0" [ "$RC" -eq 0 ]
check "something was made outside through build/" [ -z "$(ls -A "$T/outside-build")" ]
check "no whole evidence" valid "$R/evidence/hello/run-$DAY.txt"
rm -f "$R/build"
no_litter
end

# ---- no write through a link the lesson left in the scratch (issue 32) ----

begin scratch-links
mkrepo scratchlinks linker:linker
printf 'outside\n' >"$T/outside-run.txt"
LINKER_TARGET=$T/outside-run.txt
export LINKER_TARGET
cap --repeat 2 linker
unset LINKER_TARGET
check "exit status $RC with links at the second run's outputs, not 0" [ "$RC" -eq 0 ]
check "the file outside was written through a link" [ "$(cat "$T/outside-run.txt")" = outside ]
check "no whole evidence" valid "$R/evidence/linker/run-$DAY.txt"
check "the second run's output is not its own" grep -q "^repeats: 2$" "$R/evidence/linker/run-$DAY.txt"
# a --build-only folder built in again: a link at a copied file's name is
# replaced, a link on its folder refused
mkdir -p "$R/build/programs/linker"
ln -s "$T/outside-run.txt" "$R/build/programs/linker/linker.cu"
cap --build-only build/programs linker
check "exit status $RC with a link at the copy's name, not 0" [ "$RC" -eq 0 ]
check "the file outside was written through a link" [ "$(cat "$T/outside-run.txt")" = outside ]
check "the link at the copy's name was not replaced" not test -L "$R/build/programs/linker/linker.cu"
rm -rf "$R/build/programs/linker"
mkdir -p "$T/outside-dir"
ln -s "$T/outside-dir" "$R/build/programs/linker"
cap --build-only build/programs linker
check "exit status $RC with the lesson's folder a link, not 1" [ "$RC" -eq 1 ]
check "the folder link is not named" err_has "build/programs/linker: it is a symbolic link, which is not followed"
check "something was copied through the folder link" [ -z "$(ls -A "$T/outside-dir")" ]
rm -f "$R/build/programs/linker"
no_litter
end

# ---- what killed captures leave is swept (F09) ----

begin sweep-dead-leftovers
mkrepo sweep hello:hello
sh -c 'exit 0' &
gone=$!
wait "$gone" # a pid whose process has ended; start time 1 is nobody's
mkdir -p "$R/build/capture/$gone-1-hello-AAAAAA/work" "$R/evidence/hello" "$TMPDIR/coursecheck-capture-$gone-1-hello-BBBBBB"
printf 'half a file' >"$R/evidence/hello/.coursecheck-tmp-$gone-1-1"
sleep 30 &
live=$!
BG="$BG $live"
start=$(sed 's/.*) //' "/proc/$live/stat" | cut -d' ' -f20)
mkdir -p "$R/build/capture/$live-$start-hello-CCCCCC"
printf 'being written' >"$R/evidence/hello/.coursecheck-tmp-$live-$start-1"
cap hello
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "a dead capture's scratch folder is still there" [ ! -e "$R/build/capture/$gone-1-hello-AAAAAA" ]
check "a dead capture's scratch folder in TMPDIR is still there" [ ! -e "$TMPDIR/coursecheck-capture-$gone-1-hello-BBBBBB" ]
check "a dead capture's temporary file is still there" [ ! -e "$R/evidence/hello/.coursecheck-tmp-$gone-1-1" ]
check "a running capture's scratch folder was removed" [ -d "$R/build/capture/$live-$start-hello-CCCCCC" ]
check "a running capture's temporary file was removed" [ -f "$R/evidence/hello/.coursecheck-tmp-$live-$start-1" ]
check "the course's .gitignore does not hide temporary files" \
	git -C "$COURSE" check-ignore -q --no-index "evidence/x/.coursecheck-tmp-1-2-3"
kill "$live" 2>/dev/null
rm -rf "$R/build/capture/$live-$start-hello-CCCCCC" "$R/evidence/hello/.coursecheck-tmp-$live-$start-1"
no_litter
end

# ---- update writes through the one writer (F05) ----

begin update-mode-and-links
if [ -z "$FULL" ]; then
	NAME="$NAME # skip: no coursecheck binary given"
else
	U=$T/update
	mkdir -p "$U"
	cp -R "$COURSE/pages" "$COURSE/programs" "$COURSE/evidence" "$U/"
	# This case is about how update writes, not about the course's state:
	# the copies' evidence is re-sealed to the copied lesson's files, so a
	# program edited since its last capture does not make update refuse
	# the run.
	for e in "$U"/evidence/day31-scan-1/run-*.txt; do
		COURSECHECK=$FULL sh "$HERE/../seal-evidence.sh" "$U" "$e" || because "cannot re-seal $e"
	done
	old=evidence/day31-scan-1/run-2026-11-30.txt
	sed "s#^evidence: .*#evidence: $old#" "$COURSE/pages/day31-scan-1.md" >"$T/old.md"
	for f in plain.md private.md target.md hard.md; do cp "$T/old.md" "$U/pages/$f"; done
	rm -f "$U/pages/day31-scan-1.md"
	chmod 644 "$U/pages/plain.md"
	chmod 640 "$U/pages/private.md"
	ln -s target.md "$U/pages/link.md"
	ln "$U/pages/hard.md" "$U/pages/hard2.md"
	cp "$T/old.md" "$T/outside.md"
	ln -s ../../outside.md "$U/pages/out.md"
	upd() {
		(cd "$U" && "$FULL" update "$@") >"$T/out" 2>"$T/err"
		RC=$?
	}
	names_old() {
		grep -qx "evidence: $old" "$1"
	}
	upd pages/plain.md pages/private.md
	check "plain.md still names the older run" not names_old "$U/pages/plain.md"
	check "plain.md is $(stat -c %a "$U/pages/plain.md"), not 644" [ "$(stat -c %a "$U/pages/plain.md")" = 644 ]
	check "private.md is $(stat -c %a "$U/pages/private.md"), not 640" [ "$(stat -c %a "$U/pages/private.md")" = 640 ]
	upd pages/link.md
	check "link.md is no longer a symbolic link" [ -L "$U/pages/link.md" ]
	check "the update did not reach link.md's target" not names_old "$U/pages/target.md"
	upd pages/hard.md
	check "exit status $RC for a hard-linked page, not 2" [ "$RC" -eq 2 ]
	check "the hard links are not named" err_has "pages/hard.md: it has 2 hard links"
	check "a hard-linked page was changed" names_old "$U/pages/hard2.md"
	check "the hard links were parted" [ "$(stat -c %h "$U/pages/hard.md")" = 2 ]
	upd pages/out.md
	check "exit status $RC for a link out, not 2" [ "$RC" -eq 2 ]
	check "the link out is not refused" err_has "leads outside the repository"
	check "the file outside changed" cmp -s "$T/old.md" "$T/outside.md"
	check "a temporary file was left in pages/" [ -z "$(ls -A "$U/pages" | grep coursecheck-tmp)" ]
fi
end

# ---- signed runs, the node key, what capture refuses (trust.sh) ----

. "$HERE/trust.sh"

# ---- lessons as folders: several files, any build, several runs (lessons.sh) ----

. "$HERE/lessons.sh"

# ---- kill -9 at random moments (kill9.sh) ----

begin kill-9
if sh "$HERE/kill9.sh" "$CAP" "$EVCHECK" "${KILL9_N:-20}" "$T/kill9" >"$T/kill9.out" 2>&1; then
	NAME="$NAME: $(tail -n 1 "$T/kill9.out")"
else
	because "$(grep -m 1 FAIL "$T/kill9.out" || tail -n 1 "$T/kill9.out")"
fi
end

echo "capture: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
