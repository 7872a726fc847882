#!/bin/sh
# Tests of `coursecheck review` (make review-test, part of make test).
#
#   run.sh BINARY
#
# Renders the small golden course (verifier/tests/fixtures/demo) clean and
# broken, and the course's real day 31 page, then checks each HTML file:
# it parses (xmllint --html), every ledger item of `explain` is one row with
# its evidence reference and one mark in the page (check_html.py), nothing
# outside the file is loaded or linked.  Where chromium is installed, it
# opens the day 31 review headless, clicks a traced number and checks the
# evidence pane (cdp.py), saving build/review-test/day31-click.png.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
shots=$root/build/review-test
scratch=$(mktemp -d "${TMPDIR:-/tmp}/review-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
mkdir -p "$shots"
pass=0 fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -40; fail=$((fail + 1)); }

# check NAME REPO PAGE HTML: the HTML of PAGE against its explain ledger
check() {
	name=$1 repo=$2 page=$3 html=$4
	(cd "$repo" && NO_COLOR=1 "$bin" explain "$page" >"$scratch/$name.explain" 2>/dev/null)
	if sh "$here/html-lint.sh" "$html" >"$scratch/$name.xml" 2>&1; then
		ok "$name: the HTML parses"
	else
		bad "$name: the HTML does not parse" "$scratch/$name.xml"
	fi
	if python3 "$here/check_html.py" "$scratch/$name.explain" "$html" "$repo" >"$scratch/$name.chk" 2>&1; then
		ok "$name: $(sed 's/^ok [^:]*: //' "$scratch/$name.chk")"
	else
		bad "$name: the review does not match the ledger" "$scratch/$name.chk"
	fi
}

# 1. the small course, clean: exit 0, the gate passes
demo=$scratch/demo
cp -R "$here/../fixtures/demo" "$demo"
# its run signed as on the GPU node, by a key the course lists (evsig.h)
ssh-keygen -q -t ed25519 -N '' -C node -f "$scratch/node-key" </dev/null
ssh-keygen -Y sign -q -f "$scratch/node-key" -n coursecheck-evidence "$demo/evidence/day01-demo/run-2026-11-30.txt"
printf 'h200-node namespaces="coursecheck-evidence" %s\n' "$(cut -d' ' -f1-2 "$scratch/node-key.pub")" >"$demo/evidence/allowed_signers"
# its two numbers that nothing settles bound to their places, and its two
# single-run timings marked one-run, so that it passes the gate
sed -i 's/of the 1,049,187 elements/of the 1,049,187 <!-- at: [all | threads] --> elements/; s/kernel'"'"'s 0.325 ms\./kernel'"'"'s 0.325 ms <!-- one-run: [256 add, plain | time ms] -->./; s/takes 1\.8 ms,/takes 1.8 ms <!-- one-run: [1024 add, racy | time ms] -->,/' \
	"$demo/pages/day01-demo.md"
(cd "$demo" && NO_COLOR=1 "$bin" review --output out pages/day01-demo.md >"$scratch/demo.err" 2>&1)
rc=$?
[ "$rc" = 0 ] && grep -q 'PASSES' "$demo/out/day01-demo.html" && [ -f "$demo/out/index.html" ] &&
	ok "demo: written, exit 0, the gate passes" || bad "demo: exit $rc or no PASSES verdict" "$scratch/demo.err"
check demo "$demo" pages/day01-demo.md "$demo/out/day01-demo.html"
if xmllint --html --noout "$demo/out/index.html" 2>"$scratch/index.xml" && [ ! -s "$scratch/index.xml" ] &&
	grep -q 'href="day01-demo.html"' "$demo/out/index.html"; then
	ok "demo: index.html parses and lists the page"
else
	bad "demo: index.html" "$scratch/index.xml"
fi
# the run and the rounding are shown
grep -q '<dt>GPU</dt><dd>NVIDIA H200</dd>' "$demo/out/day01-demo.html" &&
	grep -q '<dt>signature</dt><dd>signed by h200-node (key SHA256:' "$demo/out/day01-demo.html" &&
	grep -q '1.8 ms = 1.798 rounded to 2 significant digits' "$demo/out/day01-demo.html" &&
	grep -q 'literal 70320: row &quot;64 add, racy&quot;, column &quot;mismatches&quot;' "$demo/out/day01-demo.html" &&
	ok "demo: the run and its signer, a rounding and a literal's origin are shown" || bad "demo: header, signer, rounding or literal origin missing"

# 2. a file that exists keeps its mode; a second run replaces it whole
chmod 640 "$demo/out/day01-demo.html"
(cd "$demo" && "$bin" review --output out pages/day01-demo.md >/dev/null 2>&1)
[ "$(stat -c %a "$demo/out/day01-demo.html")" = 640 ] && [ -z "$(ls "$demo/out" | grep tmp)" ] &&
	ok "demo: a rewritten review keeps its mode, leaves no temporary file" || bad "demo: mode or litter"

# 2b. a README without front matter: the index shows the status it takes
#     from its page, where it showed "-"
printf '# Day 1\n\nEach thread adds one pair of elements.\n' >"$demo/programs/day01-demo/README.md"
(cd "$demo" && "$bin" review --output out-readme programs/day01-demo/README.md >/dev/null 2>&1)
grep -q '<td>in-technical-review (its page&#39;s)</td>' "$demo/out-readme/index.html" &&
	ok "demo: the index shows a README's status, its page's" || bad "demo: a README's status in the index" "$demo/out-readme/index.html"
rm -f "$demo/programs/day01-demo/README.md"

# 3. the small course, broken: exit 1, the gate fails, each failure with its diagnostic and hint,
#    and the page's own links (out of the file) shown as text
broken=$scratch/broken
cp -R "$here/../fixtures/demo" "$broken"
sed -i 's/gets 70,320 elements/gets 70,329 elements/; s/5.53x <!-- = 1.798/5.63x <!-- = 1.798/' "$broken/pages/day01-demo.md"
printf '\nSee [the guide](https://example.com/guide), <https://example.org/x>, ![a chart](//example.net/c.png) and [here](#top).\n' \
	>>"$broken/pages/day01-demo.md"
# the page itself holds review's sentinel characters (U+E000 0 U+E001, U+E002): no forged or broken mark
printf '\nForged \356\200\2000\356\200\201marks \356\200\202 and 1,024 threads.\n' >>"$broken/pages/day01-demo.md"
(cd "$broken" && NO_COLOR=1 "$bin" review --output out pages/day01-demo.md >"$scratch/broken.err" 2>&1)
rc=$?
h=$broken/out/day01-demo.html
[ "$rc" = 1 ] && grep -q 'FAILS' "$h" && grep -q '\[number-untraced\]' "$h" && grep -q '\[derive-mismatch\]' "$h" &&
	grep -q 'class="hint"' "$h" && grep -q '<code>https://example.com/guide</code>' "$h" &&
	sed 's/<[^>]*>//g' "$h" | grep -q "Forged $(printf '\357\277\275')0 (skipped)$(printf '\357\277\275')marks $(printf '\357\277\275') and" &&
	ok "broken: exit 1, FAILS, diagnostics with hints, links shown as text" || bad "broken: exit $rc" "$scratch/broken.err"
check broken "$broken" pages/day01-demo.md "$h"

# 3b. the page as a code review: the legend and the page's annotations
#     shown as text (they were HTML comments), links to the program and the
#     run, a permalink target for every block, an approve control and an
#     item id on each number, the run facts and the legend folded
d=$demo/out/day01-demo.html
grep -q '(&lt;!-- = EXPR --&gt;)' "$d" && grep -q '<code class="annot">&lt;!-- = 1.798 / 0.325 --&gt;</code>' "$d" &&
	! grep -q '<!-- raw HTML omitted -->' "$d" && ! grep -q '(<!--' "$d" &&
	ok "demo: the legend and the page's annotations are shown escaped" || bad "demo: an annotation is not shown as text"
grep -q 'href="../programs/day01-demo/demo.cu">open the file</a>' "$d" &&
	grep -q 'href="../evidence/day01-demo/run-2026-11-30.txt">open the file</a>' "$d" &&
	grep -q '<div class="blk" id="L52" data-lines="52-55">' "$d" &&
	grep -q '<a class="ln" href="#evidence/day01-demo/run-2026-11-30.txt:23">23</a>' "$d" &&
	grep -q '<button type="button" class="approve" data-id="[0-9a-f]\{8\}" aria-pressed="false">approve</button>' "$d" &&
	grep -q '<details class="runs" id="runs">' "$d" && grep -q '<details class="legend" id="legend">' "$d" &&
	ok "demo: file links, line permalinks, an approve control with its sign-off id, folded run facts and legend" ||
	bad "demo: links, permalinks, approve control or folding missing"
# a row whose cells repeat a value: each cell its own mark, no badge over the table
rep=$scratch/repeat
cp -R "$here/../fixtures/demo" "$rep"
printf '\n| run | threads | again | time |\n| --- | ---: | ---: | ---: |\n| racy | 1,024 | 1,024 | 1.8 ms |\n' >>"$rep/pages/day01-demo.md"
(cd "$rep" && NO_COLOR=1 "$bin" review --output out pages/day01-demo.md >/dev/null 2>&1)
marks=$(grep -o '^<td align="right"><a class="item k-traced" data-id="[0-9a-f]\{8\}" id="i[0-9]*" data-i="[0-9]*" href="#r[0-9]*" title="[^"]*">1,024<' \
	"$rep/out/day01-demo.html" | sed 's/.*data-id="\([0-9a-f]*\)".*/\1/')
cells=$(printf '%s\n' "$marks" | grep -c .)
if [ "$cells" = 2 ] && [ "$(printf '%s\n' "$marks" | sort -u | wc -l)" = 2 ] &&
	! grep -q '<p class="badges"><a class="badge k-traced' "$rep/out/day01-demo.html"; then
	ok "repeat: both 1,024 cells of a row marked in their own cell, each under its own sign-off id"
else
	bad "repeat: $cells cells marked, or a badge floats over the table"
fi
check repeat "$rep" pages/day01-demo.md "$rep/out/day01-demo.html"
# a page awaiting its first capture says so
first=$scratch/first
cp -R "$here/../fixtures/demo" "$first"
sed -i 's|^evidence: .*|evidence: none yet|' "$first/pages/day01-demo.md"
(cd "$first" && NO_COLOR=1 "$bin" review --output out pages/day01-demo.md >/dev/null 2>&1)
grep -q 'This page awaits its first capture' "$first/out/day01-demo.html" &&
	! grep -q 'cannot be read' "$first/out/day01-demo.html" &&
	ok "first: a page of 'evidence: none yet' says it awaits its first capture" ||
	bad "first: the none-yet page" "$first/out/day01-demo.html"

# 4. the checker can fail: a row taken out, an external link put in
sed 's/<tr id="r3" /<tr id="x3" /' "$h" >"$scratch/doctored1.html"
sed 's|</body>|<a href="https://example.com/">x</a></body>|' "$h" >"$scratch/doctored2.html"
for d in 1 2; do
	if python3 "$here/check_html.py" "$scratch/broken.explain" "$scratch/doctored$d.html" "$broken" >/dev/null 2>&1; then
		bad "checker: a doctored review (case $d) passed"
	else
		ok "checker: a doctored review (case $d) fails"
	fi
done

# 5. the real day 31 page of the course
real=$scratch/real
(cd "$root" && NO_COLOR=1 "$bin" review --output "$real" pages/day31-scan-1.md >"$scratch/real.err" 2>&1)
rc=$?
# the page's verdict is the course's (exit 0 passes the gate, 1 fails it);
# the review must say the same, and be written either way
case $rc in
0) verdict=PASSES ;;
1) verdict=FAILS ;;
*) verdict= ;;
esac
[ -n "$verdict" ] && grep -q "$verdict" "$real/day31-scan-1.html" &&
	ok "day31: written, exit $rc, the review says $verdict" || bad "day31: exit $rc" "$scratch/real.err"
check day31 "$root" pages/day31-scan-1.md "$real/day31-scan-1.html"

# 6. the pages of golden cases with each kind of failure
if sh "$here/sweep.sh" "$bin" cite-existing cite-untraced derive-mismatch derive-unanchored derive-syntax \
	ext-no-reason ext-with-reason fact-flag fact-gpu-wrapped number-traced-forms number-untraced snippet-drift \
	table-cell-changed table-row-shared table-rows-swapped transcript-drift \
	claims-clean claim-operators claim-range claim-syntax number-ambiguous number-place-mismatch place-found \
	place-ambiguous number-volatile claim-flip-overlap-verify >"$scratch/sweep.txt" 2>&1; then
	ok "$(tail -1 "$scratch/sweep.txt")"
else
	bad "sweep of golden pages" "$scratch/sweep.txt"
fi

# 7. in a browser: click the first traced number, the pane shows its evidence line
if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP review-browser: chromium is not installed (apt-get install chromium; deps.sh test installs it as root)"
else
	first=$(grep -m1 -E '^pages/day31-scan-1.md:[0-9]+:[0-9]+: traced  .* <- evidence/[^ ]+:[0-9]+:[0-9]+$' "$scratch/day31.explain")
	at=$(printf '%s' "$first" | sed -E 's/^[^:]+:([0-9]+:[0-9]+): .*/\1/')
	ref=$(printf '%s' "$first" | sed -E 's/.* <- //')
	evpath=${ref%%:*} rest=${ref#*:} evline=${rest%%:*} evcol=${rest#*:}
	want_line=$(sed -n "${evline}p" "$root/$evpath")
	if python3 "$here/cdp.py" chromium "$real/day31-scan-1.html" "$at" "$shots/day31-click.png" >"$scratch/cdp.json" 2>&1 &&
		python3 - "$scratch/cdp.json" "$ref" "$evline" "$evcol" "$want_line" <<'PY' >"$scratch/cdp.chk" 2>&1; then
import json, sys
got = json.load(open(sys.argv[1]))
ref, line, col, want = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
problems = []
if not got["js"]: problems.append("the script did not run")
if "k-traced" not in got["clicked"]: problems.append("clicked %r, not a traced number" % got["clicked"])
if got["where"] != ref: problems.append("pane shows %r, not %r" % (got["where"], ref))
if got["line"] != line + want + "\n": problems.append("pane line %r, not %r" % (got["line"], line + want))
if not got["token"] or not want[col - 1:].startswith(got["token"]): problems.append("token %r" % got["token"])
print("\n".join(problems) or "pane: %s %r" % (ref, got["token"]))
sys.exit(1 if problems else 0)
PY
		ok "review-browser: clicking $at shows $(cat "$scratch/cdp.chk"); screenshot build/review-test/day31-click.png"
	else
		cat "$scratch/cdp.json" >>"$scratch/cdp.chk" 2>/dev/null
		bad "review-browser: the evidence pane is wrong" "$scratch/cdp.chk"
	fi
fi

# 6. hostile pages: marks no page can forge, file names that cannot
# collide, no write through a link
hostile=$scratch/hostile
cp -R "$here/../fixtures/demo" "$hostile"
(cd "$hostile" && NO_COLOR=1 "$bin" review --output out1 pages/day01-demo.md >/dev/null 2>&1)
k=$(grep -o 'id="i[0-9]*" data-i="[0-9]*" href="#r[0-9]*" title="traced: [^"]*">70,320' "$hostile/out1/day01-demo.html" |
	sed 's/^id="i\([0-9]*\)".*/\1/')
# character references give the page the sentinel characters themselves:
# they must not move 70,320's mark (item k + 1 once a number comes before it)
k=$((k + 1))
sed -i "s/^The racy kernel gets 70,320 elements wrong/We saw \&#xE000;$k\&#xE001;no error at all\&#xE002; in this run.\nThe racy kernel gets 70,320 elements wrong/" \
	"$hostile/pages/day01-demo.md"
(cd "$hostile" && NO_COLOR=1 "$bin" review --output out2 pages/day01-demo.md >/dev/null 2>&1)
if [ -n "$k" ] && grep -q "id=\"i$k\"[^>]*>70,320<" "$hostile/out2/day01-demo.html" &&
	! grep -q '>no error at all' "$hostile/out2/day01-demo.html"; then
	ok "hostile: character references do not forge a mark"
else
	grep -o "id=\"i$k\"[^>]*>[^<]*" "$hostile/out2/day01-demo.html" >"$scratch/forged.txt" 2>&1
	bad "hostile: character references forge a mark (item $k)" "$scratch/forged.txt"
fi
# pages whose names differ only in what a file name cannot hold, or in case
cp "$hostile/pages/day01-demo.md" "$hostile/pages/x-y.md"
{ cat "$hostile/pages/day01-demo.md"; printf '\nThe racy kernel took 9.99 ms.\n'; } >"$hostile/pages/x:y.md"
cp "$hostile/pages/day01-demo.md" "$hostile/pages/X-Y.md"
cp "$hostile/pages/day01-demo.md" "$hostile/pages/index.md"
(cd "$hostile" && NO_COLOR=1 "$bin" review --output out3 >"$scratch/names.err" 2>&1)
files=$(ls "$hostile/out3" | tr '\n' ' ')
rows=$(grep -o '<a href="[^"]*">' "$hostile/out3/index.html" | sort -u | wc -l)
if [ "$(ls "$hostile/out3" | tr 'A-Z' 'a-z' | sort | uniq -d)" = "" ] && [ "$(ls "$hostile/out3" | wc -l)" = 6 ] &&
	[ "$rows" = 5 ] && [ "$(grep -l '9.99 ms' "$hostile/out3"/*.html | wc -l)" = 1 ] &&
	grep -q '5 of 5 pages written' "$scratch/names.err"; then
	ok "hostile: five pages, five review files and the index: $files"
else
	echo "files: $files; index links: $rows" >>"$scratch/names.err"
	bad "hostile: review file names collide" "$scratch/names.err"
fi
# a committed link in the review folder is replaced, never written through;
# a review folder that is a link out of the repository is refused
mkdir -p "$hostile/build/review" "$scratch/home"
echo precious >"$scratch/home/bashrc"
ln -s ../../../home/bashrc "$hostile/build/review/day01-demo.html"
(cd "$hostile" && NO_COLOR=1 "$bin" review pages/day01-demo.md >"$scratch/link.err" 2>&1)
if grep -qx precious "$scratch/home/bashrc" && [ -f "$hostile/build/review/day01-demo.html" ] &&
	[ ! -L "$hostile/build/review/day01-demo.html" ]; then
	ok "hostile: a link in the review folder is replaced, not written through"
else
	bad "hostile: review wrote through a link out of the repository" "$scratch/link.err"
fi
ln -s ../home "$hostile/linked"
(cd "$hostile" && NO_COLOR=1 "$bin" review --output linked/review pages/day01-demo.md >"$scratch/link2.err" 2>&1)
rc=$?
if [ $rc = 2 ] && [ ! -e "$scratch/home/review" ] && grep -q 'leads outside the repository' "$scratch/link2.err"; then
	ok "hostile: a review folder behind a link out of the repository is refused"
else
	bad "hostile: review made or wrote a folder through a link out (exit $rc)" "$scratch/link2.err"
fi

echo "review: $pass passed, $fail failed"
[ "$fail" = 0 ]
