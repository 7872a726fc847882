#!/bin/sh
# seed.sh OUT - raw seeds for every fuzz target, from the course and the
# golden cases, into OUT/TARGET/.  They are not committed as they are:
# `make fuzz-merge` (merge.sh) keeps the ones that add coverage, which is
# what corpus/ holds.  Run from the repository root.
#
#   frontmatter   the front matter of every page
#   page          every golden-case and fixture page; course pages cut at
#                 their "## " headings (front matter kept on the first cut)
#   snippet       every program, cut into 80-line pieces (the first holds
#                 the header)
#   srctok        the same pieces of every program
#   evidence      every evidence file, and OLD @@@@ NEW for each lesson
#                 with two runs
#   numtok        every distinct line with a digit of the pages and the
#                 evidence stdout
#   expr          the text of every <!-- = EXPR --> annotation
#   capture_text  STDOUT @@@@ STDERR @@@@ REPEAT of every evidence file
#   verify        each demo-based golden case: PAGE [@@@@ PROGRAM
#                 [@@@@ EVIDENCE]], its hashes set to "seal"
#   sshkey        the signatures of the course's runs and every public
#                 key line of evidence/allowed_signers (the key files
#                 themselves are made by the tests, never committed)
set -eu
out=$1
cases=verifier/tests/cases
mkdir -p "$out"
for t in frontmatter page snippet srctok evidence numtok expr capture_text sshkey verify; do mkdir -p "$out/$t"; done
put() { # TARGET, stdin -> a new seed file (a pipeline's last part runs in a subshell: no counter)
	cat > "$(mktemp "$out/$1/seed-XXXXXXXX")"
}

pages=$(find pages $cases verifier/tests/fixtures -name '*.md' -type f | LC_ALL=C sort)
programs=$(find programs $cases verifier/tests/fixtures -name '*.cu' -type f | LC_ALL=C sort)
evidence=$(find evidence $cases verifier/tests/fixtures -path '*evidence/*' -name 'run-*.txt' -type f | LC_ALL=C sort)

for p in $pages; do
	awk 'NR == 1 && $0 != "---" { exit } { print } NR > 1 && $0 == "---" { exit }' "$p" | put frontmatter
	case $p in
	pages/*)
		awk -v dir="$out/page" -v base="cut-$(basename "$p" .md)" '
			/^## / { k++ } { print > (dir "/" base "-" k+0) }' "$p" ;;
	*) put page < "$p" ;;
	esac
	grep -o '<!-- = [^>]*-->' "$p" 2>/dev/null | sed 's/^<!-- = //; s/ *-->$//' | while IFS= read -r e; do
		printf '%s' "$e" | put expr
	done
	grep '[0-9]' "$p" | while IFS= read -r l; do printf '%s\n' "$l" | put numtok; done
done

for p in $programs; do
	awk -v dir="$out/snippet" -v base="cut-$(echo "$p" | tr / _)" '
		{ print > (dir "/" base "-" int((NR - 1) / 80)) }' "$p"
done
cp "$out"/snippet/cut-* "$out/srctok/"

for e in $evidence; do
	put evidence < "$e"
	# the sections: from "stdout: N" the N lines, then "stderr: M" the M lines
	awk '/^stdout: [0-9]+$/ && !s { s = 1; n = $2; next } s == 1 && n-- > 0 { print }' "$e" > "$out/.stdout"
	awk '/^stderr: [0-9]+$/ && !s { s = 1; n = $2; next } s == 1 && n-- > 0 { print }' "$e" > "$out/.stderr"
	{ cat "$out/.stdout"; echo '@@@@'; cat "$out/.stderr"; echo '@@@@'; cat "$out/.stdout"; } | put capture_text
	grep '[0-9]' "$out/.stdout" | while IFS= read -r l; do printf '%s\n' "$l" | put numtok; done
done
rm -f "$out/.stdout" "$out/.stderr"
for d in evidence/*/ $cases/*/evidence/*/ verifier/tests/fixtures/*/evidence/*/; do
	set -- "$d"run-*.txt
	[ $# -ge 2 ] && [ -f "$1" ] && { cat "$1"; echo '@@@@'; cat "$2"; } | put evidence
done
# the drift fixture's run against a case's newer run: the alignments
for c in $cases/*/; do
	[ "$(cat "$c/base" 2>/dev/null)" = drift ] || continue
	for e in "$c"evidence/day01-demo/run-*.txt; do
		[ -f "$e" ] && { cat verifier/tests/fixtures/drift/evidence/day01-demo/run-2026-11-30.txt; echo '@@@@'; cat "$e"; } | put evidence
	done
done

seal() { sed 's/^body-sha256: .*/body-sha256: seal/; s/^source-sha256: .*/source-sha256: seal/' "$1"; }
for c in $cases/*/; do
	base=$(cat "$c/base" 2>/dev/null || true)
	[ "$base" = demo ] || [ "$base" = drift ] || continue
	page=$c/pages/day01-demo.md
	[ -f "$page" ] || page=verifier/tests/fixtures/$base/pages/day01-demo.md
	prog=$c/programs/day01-demo/demo.cu
	[ -f "$prog" ] || prog=verifier/tests/fixtures/$base/programs/day01-demo/demo.cu
	ev=$(ls "$c"evidence/day01-demo/run-*.txt 2>/dev/null | tail -1)
	{
		cat "$page"
		if [ -n "$ev" ] || [ -f "$c/programs/day01-demo/demo.cu" ]; then echo '@@@@'; cat "$prog"; fi
		if [ -n "$ev" ]; then echo '@@@@'; seal "$ev"; fi
	} | put verify
done
# the fixture page with a newer sealed run of the same program
{
	cat verifier/tests/fixtures/demo/pages/day01-demo.md; echo '@@@@'
	cat verifier/tests/fixtures/demo/programs/day01-demo/demo.cu; echo '@@@@'
	seal verifier/tests/fixtures/demo/evidence/day01-demo/run-2026-11-30.txt | sed 's/^captured: .*/captured: 2026-12-01T09:00:00Z/; s/0\.325/0.331/'
} | put verify
for sig in evidence/*/run-*.txt.sig; do
	[ -f "$sig" ] && put sshkey < "$sig"
done
grep -o 'ssh-ed25519 [A-Za-z0-9+/=]*' evidence/allowed_signers | while IFS= read -r l; do printf '%s\n' "$l" | put sshkey; done
echo "seed.sh: $(find "$out" -type f | wc -l) seeds under $out"
