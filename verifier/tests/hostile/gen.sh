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
*) echo "gen.sh: unknown family '$fam'" >&2; exit 2 ;;
esac
echo "$args"
