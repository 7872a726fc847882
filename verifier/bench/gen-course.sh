#!/bin/sh
# gen-course.sh - a course of N lessons for the benchmark, made from the
# repository's real day 31 lesson (its program, its newest evidence, its
# page), each copy renamed lNNNNN-scan.  Renaming keeps every hash valid:
# body-sha256 covers only the body, and source-sha256 leaves out the
# program's Verified paragraph, the one place that names the lesson.
#
#   gen-course.sh SHAPE N OUTDIR [REPO]
#
# SHAPE:
#   day31     the whole real page (about 25 KB: every kind of check)
#   lesson    the page's front matter, its first transcript excerpt, three
#             snippets, its measured paragraph and the prose paragraphs
#             after them up to at least 22 traced numbers
#   cite      lesson, plus one sentence citing the previous lesson's run
#   snippets  front matter and three snippet blocks only (the shape of
#             embedme's corpus)
# Every generated course verifies clean; gen-course.sh checks none of that
# itself (bench.sh runs verify on it first and refuses a dirty course).
set -eu
shape=$1 n=$2 out=$3
repo=${4:-$(cd "$(dirname "$0")/../.." && pwd)}
src=day31-scan-1
page=$repo/pages/$src.md
prog=$(sed -n 's/^program: //p' "$page" | head -n 1)
ev=$(sed -n 's/^evidence: //p' "$page" | head -n 1)
[ -f "$repo/$prog" ] && [ -f "$repo/$ev" ] || { echo "gen-course: $page names no readable program or evidence" >&2; exit 2; }
progfile=$(basename "$prog")
evfile=$(basename "$ev")
# The copies' evidence is re-sealed to the program as it is now: the real
# lesson's evidence may be stale between a program change and its next
# capture on the H200, and a benchmark measures checking, not that state.
# (The generated courses are benchmark inputs, never evidence.)
cc=${COURSECHECK:-$repo/build/coursecheck}
sha=$("$cc" source-sha256 "$repo/$prog" | cut -d' ' -f1)
[ -n "$sha" ] || { echo "gen-course: '$cc source-sha256' failed (build coursecheck first)" >&2; exit 2; }

mkdir -p "$out/pages" "$out/programs" "$out/evidence"
# the files every lesson shares (programs/common/), which the runs' read
# sets name with their hashes
[ ! -d "$repo/programs/common" ] || cp -R "$repo/programs/common" "$out/programs/"
tmpl=$out/.template.md

# The page's body cut to its shape, with the front matter kept apart.
awk -v shape="$shape" '
	BEGIN { fm = 0 }
	NR == 1 && /^---$/ { fm = 1; print; next }
	fm == 1 { print; if (/^---$/) fm = 2; next }
	shape == "day31" { print; next }
	# the lesson shapes: blocks governed by a marker, by kind
	/^<!-- (snippet|transcript|measured)[ :-]/ {
		kind = $2; sub(/:$/, "", kind)
		want = (kind == "snippet" && snippets < 3) || \
		       (shape != "snippets" && kind == "transcript" && transcripts < 1) || \
		       (shape != "snippets" && kind == "measured" && measured < 1)
		if (want) { taking = 1; fence = 0; if (kind == "snippet") snippets++; else if (kind == "transcript") transcripts++; else measured++ }
		if (taking) print
		next
	}
	taking {
		print
		if (/^```/) fence++
		if ((fence >= 2 || (fence == 0 && /^$/ && seen_text)) ) { taking = 0; print ""; seen_text = 0 }
		if (!/^$/ && !/^<!--/) seen_text = 1
		next
	}
	# prose with numbers of 100 or more, after the blocks, up to 22 numbers
	shape != "snippets" && snippets == 3 && numbers < 36 && !/^(<!--|```|#|\||-|[0-9]+\.)/ && !inside {
		para = para $0 "\n"
		if (/^$/) {
			k = gsub(/[0-9][0-9,.]*[0-9]/, "&", para)
			if (k && para !~ /<!--/) { printf "%s", para; numbers += k }
			para = ""
		}
	}
	/^```/ { inside = !inside }
' "$page" > "$tmpl"

i=1
while [ "$i" -le "$n" ]; do
	l=$(printf 'l%05d-scan' "$i")
	mkdir -p "$out/programs/$l" "$out/evidence/$l"
	sed "s|evidence/$src/|evidence/$l/|g" "$repo/$prog" > "$out/programs/$l/$progfile"
	sed "s|^lesson: $src\$|lesson: $l|; s|^program: programs/$src/|program: programs/$l/|; s|^source-sha256: .*|source-sha256: $sha|; s|^\(source-file-[0-9]*: \)programs/$src/|\1programs/$l/|" "$repo/$ev" \
		> "$out/evidence/$l/$evfile"
	# evidence of the tokens-1 rule: source-sha256 hashes the recorded
	# files' lines "PATH SHA", which name the lesson
	if grep -q '^source-file-1: ' "$out/evidence/$l/$evfile"; then
		fsha=$(sed -n 's/^source-file-[0-9]*: //p' "$out/evidence/$l/$evfile" | sha256sum | cut -d' ' -f1)
		sed -i "s|^source-sha256: .*|source-sha256: $fsha|" "$out/evidence/$l/$evfile"
	fi
	sed "s|$src|$l|g" "$tmpl" > "$out/pages/$l.md"
	if [ "$shape" = cite ] && [ "$i" -gt 1 ]; then
		prev=$(printf 'l%05d-scan' $((i - 1)))
		printf '\nThe previous lesson took 1,793 <!-- cite: %s --> additions on a 256-thread tile.\n' "$prev" \
			>> "$out/pages/$l.md"
	fi
	i=$((i + 1))
done
rm -f "$tmpl"
