#!/bin/sh
# memory.sh BINARY: the peak memory (maximum resident set) of `verify -j 1`
# of a page of 10 numbers traced to an evidence file of ROWS table rows
# (gen.sh's memory family; 1,400,000 rows are 58.7 MiB, the size issue 32
# measured), against the file's size: at most RATIO_MAX times it.
#
# Issue 32 asks for under 4x, which is NOT met yet: the bound held here is
# what the code holds now with a little room (RSS varies with the C
# library), so that memory cannot grow back unseen: 890 MiB (15.2x)
# before; 634 MiB (10.8x) once numtok's token went from 80 bytes to 48;
# 399 MiB (6.8x) once the bank's stdout view stopped filling the course
# cache with a second copy of every line's tokens.  What is left is an
# 80-byte bank entry a number (BENCH.md, issue 32).
#
# The peak is read with getrusage(RUSAGE_CHILDREN) through python3 (no
# /usr/bin/time needed).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
rows=${MEMORY_ROWS:-1400000}
ratio_max=${MEMORY_RATIO_MAX:-7.5}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hostile-memory.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
w=$scratch/course
mkdir -p "$w"
cp -R "$here/../fixtures/demo/." "$w/"
rm -f "$w/evidence/allowed_signers"
args=$(COURSECHECK="$bin" sh "$here/gen.sh" memory "$rows" "$w") || { echo "FAIL memory: gen.sh"; exit 1; }
size=$(wc -c <"$w/evidence/day01-demo/run-2026-11-30.txt")
# shellcheck disable=SC2086
kib=$(cd "$w" && NO_COLOR=1 python3 -c '
import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else "exit %d" % rc)
' "$bin" $args)
case $kib in
'' | *[!0-9]*) echo "FAIL memory: verify did not end with 0 ($kib)"; exit 1 ;;
esac
ratio=$(awk -v k="$kib" -v s="$size" 'BEGIN { printf "%.2f", k * 1024 / s }')
if awk -v r="$ratio" -v m="$ratio_max" 'BEGIN { exit !(r <= m) }'; then
	echo "ok memory: peak $((kib / 1024)) MiB for $((size / 1048576)) MiB of evidence, x$ratio (limit $ratio_max; issue 32's target 4)"
else
	echo "FAIL memory: peak $((kib / 1024)) MiB for $((size / 1048576)) MiB of evidence, x$ratio (limit $ratio_max)"
	exit 1
fi
