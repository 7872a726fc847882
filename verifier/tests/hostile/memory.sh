#!/bin/sh
# memory.sh BINARY: the peak memory (maximum resident set) of `verify -j 1`
# of a page of 10 numbers traced to an evidence file of ROWS table rows
# (gen.sh's memory family; 1,400,000 rows are 58.7 MiB, the size issue 32
# measured), against the file's size: at most RATIO_MAX times it.
#
# Issue 32 asks for under 4x.  Two pages are measured: the 10 numbers
# alone, which the bank's view of the first stdout answers, and the same
# page with one number that is nowhere in the evidence, which banks the
# whole file (the other streams and the command lines too) and indexes it
# for the nearest values.  The history: 890 MiB (15.2x) at first; 399 MiB
# (6.8x) once numtok's token went from 80 bytes to 48 and the view stopped
# filling the course cache; 175 MiB (2.98x) and, for the whole file, 207
# MiB (3.53x; 18.8x before) once the bank held a 24-byte reference a
# number instead of an 80-byte entry, an index of 4-byte keys, and the
# view's references once (BENCH.md, issue 32).
#
# The peak is read with getrusage(RUSAGE_CHILDREN) through python3 (no
# /usr/bin/time needed).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
rows=${MEMORY_ROWS:-1400000}
ratio_max=${MEMORY_RATIO_MAX:-4}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hostile-memory.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
w=$scratch/course
mkdir -p "$w"
cp -R "$here/../fixtures/demo/." "$w/"
rm -f "$w/evidence/allowed_signers"
args=$(COURSECHECK="$bin" sh "$here/gen.sh" memory "$rows" "$w") || { echo "FAIL memory: gen.sh"; exit 1; }
size=$(wc -c <"$w/evidence/day01-demo/run-2026-11-30.txt")
fails=0
# measure NAME WANT_EXIT: the peak of verify on the page as it is now
measure() {
	# shellcheck disable=SC2086
	kib=$(cd "$w" && NO_COLOR=1 python3 -c '
import resource, subprocess, sys
want = int(sys.argv[1])
rc = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == want else "exit %d" % rc)
' "$2" "$bin" $args)
	case $kib in
	'' | *[!0-9]*) echo "FAIL memory $1: verify did not end with $2 ($kib)"; fails=$((fails + 1)); return ;;
	esac
	ratio=$(awk -v k="$kib" -v s="$size" 'BEGIN { printf "%.2f", k * 1024 / s }')
	if awk -v r="$ratio" -v m="$ratio_max" 'BEGIN { exit !(r <= m) }'; then
		echo "ok memory $1: peak $((kib / 1024)) MiB for $((size / 1048576)) MiB of evidence, x$ratio (limit $ratio_max)"
	else
		echo "FAIL memory $1: peak $((kib / 1024)) MiB for $((size / 1048576)) MiB of evidence, x$ratio (limit $ratio_max)"
		fails=$((fails + 1))
	fi
}
measure traced 0
page=$w/${args##* } # the page verify was given, the last of its arguments
printf '\nA number that is nowhere: 98765.4321 ms.\n' >>"$page"
measure whole-file 1
[ "$fails" -eq 0 ]
