#!/bin/sh
# kill9.sh - kill -9 of coursecheck-capture at random moments.
#
#   sh kill9.sh CAPTURE EVCHECK N WORK
#
# Run by run.sh (whose environment it needs: the stand-in nvcc and
# nvidia-smi first on PATH, TMPDIR, COURSECHECK_NOW).  In a scratch
# repository under WORK, N captures of two lessons (hello, which holds
# "the GPU" for a moment, and big, 4 MiB of output) are each sent SIGKILL
# after a random time, uniform over one capture's duration; every other
# pair of them writes through named temporaries (COURSECHECK_NO_O_TMPFILE)
# as on a file system without O_TMPFILE.  After each kill:
#   - no process of the lesson runs (none with its working folder in the
#     repository), waiting on that event for at most 5 s;
#   - evidence/ holds only whole, sealed run-*.txt files (the verifier's
#     parser, EVCHECK), none ever changed, and temporaries only where they
#     were named (or such a one left from before, when this capture was
#     killed before its start swept the folder), never listed by `git status`;
#   - build/capture/ holds at most the killed capture's scratch folder
#     (the capture's start swept the one before).
# At the end one capture runs to its end: then nothing is left at all.
# KILL9_SEED fixes the random moments (printed on a failure).
set -u
CAP=$1
EVCHECK=$2
N=$3
W=$4
HERE=$(cd "$(dirname "$0")" && pwd)
COURSE=$(cd "$HERE/../../.." && pwd)
SEED=${KILL9_SEED:-$(date +%s)}
R=$W/repo

fail() {
	echo "FAIL $* (KILL9_SEED=$SEED)"
	exit 1
}

mkdir -p "$R/programs/hello" "$R/programs/big"
cp "$HERE/progs/hello.c" "$R/programs/hello/hello.cu"
cp "$HERE/progs/big.c" "$R/programs/big/big.cu"
# the course's own rule for temporaries, so that git status is asked what it would show
{ echo 'build/'; grep -x '.coursecheck-tmp-\*' "$COURSE/.gitignore"; } >"$R/.gitignore"
(cd "$R" && git init -q && git add -A && git -c user.name=t -c user.email=t@e commit -qm init) >/dev/null 2>&1
STANDIN_HOLD_MS=200
BIG_MIB=4
export STANDIN_HOLD_MS BIG_MIB

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}
# The pids of processes working in the repository: capture's keepers and
# what they run.  A zombie has no working folder.
lesson_procs() {
	find /proc -mindepth 2 -maxdepth 2 -name cwd \( -lname "$R" -o -lname "$R/*" \) 2>/dev/null |
		sed 's#^/proc/##; s#/cwd$##' | tr '\n' ' '
}
# Waits until none is left; prints how long it took (ms), fails after 5 s.
wait_lesson_gone() {
	t=$(now_ms)
	while [ -n "$(lesson_procs)" ]; do
		[ $(($(now_ms) - t)) -lt 5000 ] || fail "$1: processes of the lesson still run 5 s after the kill: $(lesson_procs)"
		sleep 0.01
	done
	echo $(($(now_ms) - t))
}
SEEN=$W/seen
: >"$SEEN"
# the temporaries there at the last look: a capture killed before its start
# swept the folder leaves an earlier named-mode kill's temporary in place
TEMPS=$W/temps
: >"$TEMPS"
# check_evidence WHEN MODE [LESSON]: only whole, sealed, unchanged runs (and
# temporaries in LESSON's folder, every folder without LESSON, only where
# MODE is named).  Prints the number of temporaries.
check_evidence() {
	temps=0
	: >"$TEMPS.new"
	for f in "$R"/evidence/*/* "$R"/evidence/*/.[!.]*; do
		[ -e "$f" ] || continue
		b=${f##*/}
		case $b in
		run-*.txt)
			# read once when new; after that, unchanged is enough
			h=$(sha256sum <"$f" | cut -d' ' -f1)
			was=$(grep -F " $f" "$SEEN" | cut -d' ' -f1)
			if [ -z "$was" ]; then
				"$EVCHECK" "$f" 2>"$W/ev.err" || fail "$1: $f is not whole and sealed: $(cat "$W/ev.err")"
				echo "$h $f" >>"$SEEN"
			elif [ "$was" != "$h" ]; then
				fail "$1: $f was overwritten"
			fi
			;;
		.coursecheck-tmp-*)
			# only the lesson just captured is judged by its mode: an
			# earlier named-mode kill of the other lesson may have left
			# one there, which that lesson's next capture sweeps
			judged=yes
			if [ -n "${3:-}" ]; then
				case $f in "$R/evidence/$3/"*) ;; *) judged=no ;; esac
			fi
			# nor one of the same name there at the last look: this
			# capture was killed before its start swept the folder
			[ $judged = no ] || [ "$2" = named ] || grep -qxF "$f" "$TEMPS" ||
				fail "$1: a temporary file $f was left, though the file system has O_TMPFILE"
			echo "$f" >>"$TEMPS.new"
			temps=$((temps + 1))
			;;
		*) fail "$1: a stray file $f in evidence/" ;;
		esac
	done
	listed=$(cd "$R" && git status --porcelain --untracked-files=all 2>/dev/null | grep coursecheck-tmp)
	[ -z "$listed" ] || fail "$1: git status lists a temporary file: $listed"
	mv "$TEMPS.new" "$TEMPS"
	echo "$temps"
}
scratch_count() {
	n=0
	for d in "$R"/build/capture/* "$TMPDIR"/coursecheck-capture-*; do
		[ -e "$d" ] && n=$((n + 1))
	done
	echo "$n"
}

# How long one whole capture of each lesson takes.
for l in hello big; do
	t=$(now_ms)
	(cd "$R" && "$CAP" "$l") >/dev/null 2>"$W/first.err" || fail "the first capture of $l failed: $(tail -n 1 "$W/first.err")"
	eval "dur_$l=$(($(now_ms) - t))"
done
check_evidence "after the first captures" anon >/dev/null

killed=0 finished=0 temps_seen=0 max_wait=0 max_scratch=0
awk -v seed="$SEED" -v n="$N" 'BEGIN { srand(seed); for (i = 0; i < n; i++) print rand() }' >"$W/moments"
i=0
while read -r frac; do
	i=$((i + 1))
	case $((i % 4)) in
	1) l=hello mode=anon ;;
	2) l=big mode=anon ;;
	3) l=hello mode=named ;;
	0) l=big mode=named ;;
	esac
	eval "dur=\$dur_$l"
	delay=$(awk -v f="$frac" -v d="$dur" 'BEGIN { printf "%.3f", f * d * 1.05 / 1000 }')
	if [ "$mode" = named ]; then
		(cd "$R" && COURSECHECK_NO_O_TMPFILE=1 exec "$CAP" "$l") >/dev/null 2>&1 &
	else
		(cd "$R" && exec "$CAP" "$l") >/dev/null 2>&1 &
	fi
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null # no "Killed" from the shell
	if [ $? -eq 137 ]; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
	when="kill $i ($l, $mode temporaries, after ${delay} s)"
	waited=$(wait_lesson_gone "$when") || { echo "$waited"; exit 1; }
	[ "$waited" -gt "$max_wait" ] && max_wait=$waited
	t=$(check_evidence "$when" "$mode" "$l") || { echo "$t"; exit 1; }
	temps_seen=$((temps_seen + t))
	s=$(scratch_count)
	[ "$s" -gt "$max_scratch" ] && max_scratch=$s
	[ "$s" -le 1 ] || fail "$when: $s scratch folders: the capture did not sweep the ones before it"
done <"$W/moments"

# One capture to its end sweeps what the last kill left.
(cd "$R" && "$CAP" hello big) >/dev/null 2>"$W/last.err" || fail "the last capture failed: $(tail -n 1 "$W/last.err")"
waited=$(wait_lesson_gone "after the last capture") || { echo "$waited"; exit 1; }
# it ran to its end: none may be left, not even one there before it
: >"$TEMPS"
left=$(check_evidence "after the last capture" anon) || { echo "$left"; exit 1; }
s=$(scratch_count)
[ "$s" -eq 0 ] || fail "after the last capture: $s scratch folders are left"
runs=$(wc -l <"$SEEN" | tr -d ' ')
echo "$N kills ($killed during the capture, $finished after it ended): $runs evidence files, all whole and sealed;" \
	"$temps_seen named temporaries seen after kills, all swept; scratch folders after a kill at most $max_scratch;" \
	"lesson processes gone within $max_wait ms"
