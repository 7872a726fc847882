#!/bin/sh
# seam.sh - instructions of two builds of coursecheck on the workloads of
# issue 33's Done-when (BENCH.md, "Seam, before and after"): the whole
# 1,000-lesson course at -j 1, and in the 10,000-lesson course one page,
# one page that cites another lesson, and --affected of one program.
# Counts are callgrind's "Collected" instructions: deterministic, so one
# run of each is the figure, whatever the machine's load.
#
#   seam.sh BEFORE_BIN AFTER_BIN
#
# Environment:
#   SEAM_COURSES  where the courses are (made there by gen-course.sh,
#                 shape lesson, when missing: about 25 minutes for the
#                 10,000 lessons on a shared 2-core machine; default
#                 /tmp/seam-courses)
#   SEAM_OUT      callgrind's files and the counts, one file a binary and
#                 workload, named by the binary's SHA-256 so that a rerun
#                 counts only what changed (default build/bench/seam)
#
# The whole 10,000-lesson course is not run under callgrind: about ten
# times lesson-1000's instructions, an hour or more on a shared machine.
# CITING is lesson 5's page with gen-course's cite sentence added (the
# lesson shape cites nothing); the sentence is added once, in the
# generated course only.  Prints a Markdown table: workload, before,
# after, after / before.
set -eu
[ $# -eq 2 ] || { echo "usage: seam.sh BEFORE_BIN AFTER_BIN" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
abs() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
before=$(abs "$1") after=$(abs "$2")
courses=${SEAM_COURSES:-/tmp/seam-courses}
out=${SEAM_OUT:-build/bench/seam}
mkdir -p "$out" "$courses"
out=$(cd "$out" && pwd)

# a course counts only once gen-course.sh finished it (.seam-made): a
# half-made one (an interrupted run, or one still being made) is made again
for n in 1000 10000; do
	c=$courses/lesson-$n
	if [ ! -f "$c/.seam-made" ]; then
		rm -rf "$c"
		COURSECHECK=$before sh "$here/gen-course.sh" lesson "$n" "$c"
		: > "$c/.seam-made"
	fi
done
citing=$courses/lesson-10000/pages/l00005-scan.md
grep -q 'cite: l00004-scan' "$citing" ||
	printf '\nThe previous lesson took 1,793 <!-- cite: l00004-scan --> additions on a 256-thread tile.\n' >> "$citing"

# count BIN NAME COURSE ARGS...: prints the instructions of one run
count() {
	bin=$1 name=$2 course=$3
	shift 3
	key=$(sha256sum "$bin" | cut -c1-12)-$name
	if [ ! -s "$out/$key.ir" ]; then
		(cd "$courses/$course" &&
			valgrind --tool=callgrind --callgrind-out-file="$out/$key.callgrind" \
				"$bin" "$@" > "$out/$key.stdout" 2> "$out/$key.stderr") || [ $? -le 1 ]
		sed -n 's/^summary: //p' "$out/$key.callgrind" > "$out/$key.ir"
	fi
	cat "$out/$key.ir"
}

echo "| workload | before | after | after / before |"
echo "| --- | ---: | ---: | ---: |"
row() {
	name=$1
	shift
	b=$(count "$before" "$name" "$@") a=$(count "$after" "$name" "$@")
	# the same output (diagnostics are on stderr; valgrind's lines left out)
	for f in stdout stderr; do
		grep -v '^==[0-9]*==' "$out/$(sha256sum "$before" | cut -c1-12)-$name.$f" > "$out/before.$f" || :
		grep -v '^==[0-9]*==' "$out/$(sha256sum "$after" | cut -c1-12)-$name.$f" > "$out/after.$f" || :
		cmp -s "$out/before.$f" "$out/after.$f" || echo "seam.sh: $name: the two binaries' $f differ" >&2
	done
	awk -v n="$name" -v b="$b" -v a="$a" '
		function commas(x,  s) { s = sprintf("%.0f", x); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
		BEGIN { printf "| %s | %s | %s | %.4f |\n", n, commas(b), commas(a), a / b }'
}
row lesson-1000-verify lesson-1000 verify -j 1
row lesson-10000-ONE lesson-10000 verify -j 1 pages/l00001-scan.md
row lesson-10000-CITING lesson-10000 verify -j 1 pages/l00005-scan.md
row lesson-10000-affected lesson-10000 verify -j 1 --affected programs/l00005-scan/scan.cu
