#!/bin/sh
# gen.sh FAMILY N ROOT: writes one hostile input of size N into ROOT, a copy
# of the demo fixture (tests/fixtures/demo), and prints the coursecheck
# arguments that check it.  Families (each the shape of a reproducer of
# issue 12, F02 and F14):
#   nested-list     one line of N "- " (F02: 40000)
#   nested-quote    one line of N "> " (F02: 100000)
#   nested-indent   N lists nested 40 deep by indentation
#   cmark-list      " -" x N, " > ```", N newlines (GHSA-66g8-4hjf-77xh)
#   yaml-flow       front matter "x: [[[[..." N deep (yaml/libyaml#286)
#   facts-flags     a measured paragraph of N flags
#   facts-dates     a measured paragraph of N dates
#   transcript      an excerpt "ok / ... / FAIL" against N stdout lines "ok"
#   transcripts     N/10 excerpts "ok / ... / ok" against N stdout lines "ok"
#   ev-header       an evidence file with N more header fields
#   snippets        a source of N snippets, one of them quoted
#   unclosed        the lesson's program with N snippets never closed
#   bad-markers     N lines of prose, each with a misspelt inline marker
#   cites           N/10 pages of other lessons and N distinct cites
#   wide-table      a table N columns wide
#   untraced        one line of N numbers the evidence does not hold
# and the families of issue 32's R06 (each against N rows of evidence, the
# demo's stdout and N table rows "threads  kNAME  mismatches  time ms",
# unless it says otherwise):
#   drift-runs      an older run and the page's run of N lines each, and 5
#                   page numbers only the older run holds (5 drift notes)
#   drift-numbers   N page numbers only the older run of N rows holds
#   update-runs     update --dry-run from an old run of N lines to a new one
#   update-numbers  update --dry-run of N numbers from an old run to a new one
#   table-rows      a <!-- table --> of N rows resting on the N rows
#   untraced-rows   N numbers (one a paragraph) the evidence does not hold
#   traced-rows     N numbers, each traced to its own row
#   sentence-rows   one sentence of N traced numbers (--as=published)
#   ambiguous       N numbers (--as=published), each at N places
#   derivations     N derivations "<!-- = MISMATCHES / 1000 -->"
#   claims          N claims on the mismatches of N rows
#   repeat-ranges   N `range:` annotations on N volatile places
#   transcript-rows N one-line transcripts of N distinct lines
#   entities        a paragraph of N lines, each with `&amp;` and a number
#   entities5       the same with HTML5-only names (`&check;`, html5ent.h)
#   explain-rows    explain of traced-rows' page
#   review-rows     review of traced-rows' page
#   memory          N rows of evidence and 10 numbers traced to them
#                   (memory.sh: the peak memory against the evidence's size)
# Only sh and awk: the suite runs where the course is built.
set -eu
fam=$1 n=$2 root=$3
ev=evidence/day01-demo/run-2026-11-30.txt
fm() {
	printf -- '---\nlesson: day01-demo\nday: 1\ntitle: "t"\nstatus: in-technical-review\n'
	printf 'program: programs/day01-demo/demo.cu\nevidence: %s\n---\n\n' "${1:-$ev}"
}
rep() { awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }
page=$root/pages/x.md
old=evidence/day01-demo/run-2026-11-29.txt
# rows N [BASE [T0]]: N rows of a table of threads, kernels, mismatches
# and times (the shape of a lesson's results)
rows() {
	awk -v n="$1" -v base="${2:-100000}" -v t0="${3:-0.5}" 'BEGIN {
		print "threads  kernel        mismatches   time ms"; print "-------  ------------  ----------  --------"
		for (i = 0; i < n; i++) printf "%7d  k%-11d  %10d  %8.3f\n", 1000 + i, i, base + 7 * i, t0 + i / 1000 }'
}
# words N [FORMAT]: N lines "row WORD" of distinct words (no numbers, so
# lines differ in their shape), each followed by FORMAT of 100 + its index
words() {
	awk -v n="$1" -v f="${2:-}" 'BEGIN { for (i = 0; i < n; i++) {
		w = ""; k = i; for (j = 0; j < 4; j++) { w = w sprintf("%c", 97 + k % 26); k = int(k / 26) }
		printf "row %s" f "\n", w, 100 + i } }'
}
# per_row N FORMAT T0: one paragraph a row: FORMAT of its index and time
per_row() { awk -v n="$1" -v f="$2" -v t0="$3" 'BEGIN { for (i = 0; i < n; i++) printf f, i, t0 + i / 1000 }'; }
# evidence FILE [repeats]: FILE made of the demo run's header and stdout
# with the lines of stdin after them, sealed; with `repeats`, every time of
# the rows is volatile over 3 repeats
evidence() {
	body=$root/body.tmp demo=$root/demo-run.tmp
	[ -f "$demo" ] || cp "$root/$ev" "$demo"
	{ sed -n '/^stdout: /,/^stderr: /p' "$demo" | sed '1d;$d'; cat; } >"$body"
	{
		sed -n '/^stdout: /q;/^body-sha256: /d;p' "$demo"
		if [ "${2:-}" = repeats ]; then
			awk 'NR > 11 && match($0, /[0-9.]+$/) { v = v sep NR ":" RSTART; sep = " " } END { print "repeats: 3"; print "volatile: " v }' "$body"
			awk 'NR > 11 && match($0, /[0-9.]+$/) { t = $4; v = v sep NR ":" RSTART "=" t "," sprintf("%.3f", t + 0.1) "," t; sep = " " }
				END { print "repeat-values: " v; print "repeat-values-sha256: 0" }' "$body"
		fi
		printf 'body-sha256: 0\nstdout: %d\n' "$(wc -l <"$body")"
		cat "$body"
		printf 'stderr: 0\n'
	} >"$root/$1"
	rm -f "$body"
	[ "$1" = "$ev" ] && rm -f "$demo"
	sh "$(dirname "$0")/../seal-evidence.sh" "$root" "$root/$1"
}
# one process: callgrind counts the instructions of the process it runs,
# not of forked workers
args="verify -j 1 pages/x.md"
case $fam in
nested-list) { fm; rep "$n" '- '; printf 'x\n'; } >"$page" ;;
nested-quote) { fm; rep "$n" '> '; printf 'x\n'; } >"$page" ;;
nested-indent)
	{ fm; awk -v n="$n" 'BEGIN { for (k = 0; k < n; k++) { for (i = 0; i < 40; i++) {
		for (j = 0; j < i; j++) printf "  "; printf "- item %d\n", i } printf "\nText.\n\n" } }'; } >"$page" ;;
cmark-list) { fm; rep "$n" ' -'; printf ' > ```'; rep "$n" '\n'; } >"$page" ;;
yaml-flow) { printf -- '---\nlesson: day01-demo\nx: '; rep "$n" '['; printf '\n---\n\nBody.\n'; } >"$page" ;;
facts-flags) { fm; printf '<!-- measured -->\nMeasured on an NVIDIA H200 with '; rep "$n" '-a '; printf '\n'; } >"$page" ;;
facts-dates) { fm; printf '<!-- measured -->\nMeasured on an NVIDIA H200 '; rep "$n" '2026-11-30 '; printf '\n'; } >"$page" ;;
transcript)
	f=$root/evidence/day01-demo/run-2026-12-01.txt
	{ sed -n '/^stdout: /q;p' "$root/$ev"; printf 'stdout: %d\n' "$n"; rep "$n" 'ok\n'; printf 'stderr: 0\n'; } >"$f"
	sh "$(dirname "$0")/../seal-evidence.sh" "$root" "$f"
	{ fm evidence/day01-demo/run-2026-12-01.txt; printf '<!-- transcript -->\n```text\nok\n...\nFAIL\n```\n'; } >"$page" ;;
transcripts)
	f=$root/evidence/day01-demo/run-2026-12-01.txt
	{ sed -n '/^stdout: /q;p' "$root/$ev"; printf 'stdout: %d\n' "$n"; rep "$n" 'ok\n'; printf 'stderr: 0\n'; } >"$f"
	sh "$(dirname "$0")/../seal-evidence.sh" "$root" "$f"
	{ fm evidence/day01-demo/run-2026-12-01.txt; rep $((n / 10)) '<!-- transcript -->\n```text\nok\n...\nok\n```\n\n'; } >"$page" ;;
ev-header)
	awk -v n="$n" '/^stdout: / && !done { for (i = 0; i < n; i++) printf "x-%d: v\n", i; done = 1 } { print }' \
		"$root/$ev" >"$root/ev.tmp" && mv "$root/ev.tmp" "$root/$ev"
	{ fm; printf 'Text.\n'; } >"$page" ;;
snippets)
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "// snippet: s%d\nint x%d;\n// end snippet\n", i, i }' \
		>"$root/programs/day01-demo/many.cu"
	# a second file of the lesson (lessonfiles.h): the evidence records it
	sh "$(dirname "$0")/../seal-evidence.sh" "$root" "$root/$ev"
	{ fm; printf '<!-- snippet: programs/day01-demo/many.cu#s0 -->\n```\nint x0;\n```\n'; } >"$page" ;;
unclosed)
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "// snippet: s%d\nint x%d;\n", i, i }' \
		>>"$root/programs/day01-demo/demo.cu"
	args="verify -j 1" ;;
bad-markers) { fm; awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "text <!-- snipet: n%d --> more\n", i }'; } >"$page" ;;
cites)
	awk -v n="$n" -v root="$root" 'BEGIN { for (i = 0; i < n / 10; i++) {
		f = root "/pages/l" i ".md"
		printf "---\nlesson: l%d\nday: 1\ntitle: \"t\"\nstatus: draft\nprogram: programs/l%d/l.cu\nevidence: evidence/l%d/run.txt\n---\n\nText.\n", i, i, i > f
		close(f) } }'
	{ fm; awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "It took 1.5 ms <!-- cite: l%d --> there.\n\n", i }'; } >"$page" ;;
wide-table)
	{ fm; printf '<!-- table -->\n'; for row in h d r r r; do
		case $row in h) c='| n ' ;; d) c='| --- ' ;; r) c='| 1.5 ' ;; esac
		rep "$n" "$c"; printf '|\n'; done; } >"$page" ;;
untraced) { fm; rep "$n" '1.739 ms '; printf '\n'; } >"$page" ;;
drift-runs)
	words "$n" ' %d.5' | evidence "$old"
	words "$n" ' %d.25' | evidence "$ev"
	{ fm; words 5 | awk '{ printf "Row %s took %d.5 ms.\n\n", $2, 100 + NR - 1 }'; } >"$page" ;;
drift-numbers)
	rows "$n" 100000 0.5 | evidence "$old"
	rows "$n" 200000 9.5 | evidence "$ev"
	{ fm; per_row "$n" 'Row k%d took %.3f ms.\n\n' 0.5; } >"$page" ;;
update-runs)
	words "$n" ' 1.5' | evidence "$old"
	words "$n" ' 2.5' | evidence "$ev"
	{ fm "$old"; printf 'It took 1.5 ms.\n'; } >"$page"
	args="update --dry-run pages/x.md" ;;
update-numbers)
	rows "$n" 100000 0.5 | evidence "$old"
	rows "$n" 200000 9.5 | evidence "$ev"
	{ fm "$old"; per_row "$n" 'Row k%d took %.3f ms.\n\n' 0.5; } >"$page"
	args="update --dry-run pages/x.md" ;;
table-rows)
	rows "$n" | evidence "$ev"
	{ fm; printf '<!-- table -->\n| threads | kernel | mismatches |\n| ---: | --- | ---: |\n'
	  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "| %d | k%d | %d |\n", 1000 + i, i, 100000 + 7 * i }'; } >"$page" ;;
untraced-rows) rows "$n" | evidence "$ev"; { fm; per_row "$n" 'Row k%d took %.3f ms.\n\n' 7000.5; } >"$page" ;;
traced-rows | explain-rows | review-rows)
	rows "$n" | evidence "$ev"; { fm; per_row "$n" 'Row k%d took %.3f ms.\n\n' 0.5; } >"$page"
	case $fam in explain-rows) args="explain pages/x.md" ;; review-rows) args="review --output=rv pages/x.md" ;; esac ;;
sentence-rows)
	rows "$n" | evidence "$ev"
	{ fm; printf 'They got 100000'; awk -v n="$n" 'BEGIN { for (i = 1; i < n; i++) printf ", %d", 100000 + 7 * i }'; printf ' wrong.\n'; } >"$page"
	args="verify -j 1 --as=published pages/x.md" ;;
ambiguous)
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%7d  k%-11d  %10d  %8.3f\n", 1000 + i, i, 100000 + 7 * i, 5.5 }' | evidence "$ev"
	{ fm; rep "$n" 'It took 5.500 ms.\n\n'; } >"$page"
	args="verify -j 1 --as=published pages/x.md" ;;
derivations)
	rows "$n" | evidence "$ev"
	{ fm; awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) { v = 100000 + 7 * i
		printf "About %.3f <!-- = %d / 1000 --> thousand went wrong.\n\n", v / 1000, v } }'; } >"$page" ;;
claims)
	rows "$n" | evidence "$ev"
	{ fm; awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "Row k%d got it wrong. <!-- claim: %d > 64 -->\n\n", i, 100000 + 7 * i }'; } >"$page" ;;
repeat-ranges)
	rows "$n" | evidence "$ev" repeats
	{ fm; awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "Row k%d took %.3f to %.3f <!-- range: [%d k%d | time ms] --> ms.\n\n", i, 0.5 + i / 1000, 0.6 + i / 1000, 1000 + i, i }'; } >"$page" ;;
transcript-rows)
	rows "$n" | evidence "$ev"
	{ fm; awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "<!-- transcript -->\n```text\n%7d  k%-11d  %10d  %8.3f\n```\n\n", 1000 + i, i, 100000 + 7 * i, 0.5 + i / 1000 }'; } >"$page" ;;
entities)
	rows "$n" | evidence "$ev"
	{ fm; per_row "$n" 'Row k%d &amp; more took %.3f ms\n' 0.5; } >"$page" ;;
entities5)
	rows "$n" | evidence "$ev"
	{ fm; per_row "$n" 'Row k%d &check; &NotEqualTilde; took %.3f ms\n' 0.5; } >"$page" ;;
memory) rows "$n" | evidence "$ev"; { fm; per_row 10 'Row k%d took %.3f ms.\n\n' 0.5; } >"$page" ;;
*) echo "gen.sh: unknown family '$fam'" >&2; exit 2 ;;
esac
echo "$args"
