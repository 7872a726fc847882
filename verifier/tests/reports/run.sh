#!/bin/sh
# run.sh - the reports and the command line's environment, beyond what the
# golden cases pin: every format validated (JSON against its schema, SARIF
# against the OASIS 2.1.0 schema, JUnit by xmllint, GitHub's commands by
# their grammar), the validators shown able to fail, fingerprints stable,
# --output, the GitHub default, colour from the environment, write errors.
#
#   sh verifier/tests/reports/run.sh PATH/TO/coursecheck
set -u
[ $# -eq 1 ] || { echo "usage: sh run.sh PATH/TO/coursecheck" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
SCHEMA=$TOP/verifier/schema
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/reports.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 failed=0
check() {
	what=$1
	shift
	if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); else echo "FAIL $what"; failed=$((failed + 1)); fi
}
fails() { ! "$@"; }

# a clean course (the demo fixture) and a failing one (a drifted snippet,
# a lesson without evidence), as the golden cases build them
CASES=$TOP/verifier/tests/cases
mkdir -p "$T/clean" "$T/fail"
cp -R "$TOP/verifier/tests/fixtures/demo/." "$T/clean/"
cp -R "$TOP/verifier/tests/fixtures/demo/." "$T/fail/"
cp -R "$CASES/snippet-drift/pages" "$CASES/evidence-none/programs" "$T/fail/"
# their runs signed as on the GPU node, by a key each course lists (evsig.h)
ssh-keygen -q -t ed25519 -N '' -C node -f "$T/node-key" </dev/null
for course in clean fail; do
	ssh-keygen -Y sign -q -f "$T/node-key" -n coursecheck-evidence "$T/$course/evidence/day01-demo/run-2026-11-30.txt"
	printf 'node namespaces="coursecheck-evidence" %s\n' "$(cut -d' ' -f1-2 "$T/node-key.pub")" >"$T/$course/evidence/allowed_signers"
done
run() { # run COURSE ARGS... : stdout to $T/out, stderr to $T/err, status in RC
	course=$1
	shift
	(cd "$T/$course" && "$BIN" "$@") >"$T/out" 2>"$T/err"
	RC=$?
}

for course in clean fail; do
	want=0
	[ $course = fail ] && want=1
	run $course verify --format=json
	check "$course: json exits $RC, not $want" [ $RC -eq $want ]
	cp "$T/out" "$T/$course.json"
	check "$course: json against coursecheck-report-1.json" $PY "$HERE/validate.py" "$SCHEMA/coursecheck-report-1.json" "$T/$course.json"
	run $course verify --format=sarif
	check "$course: sarif exits $RC, not $want" [ $RC -eq $want ]
	cp "$T/out" "$T/$course.sarif"
	check "$course: sarif against the SARIF 2.1.0 schema" $PY "$HERE/validate.py" "$SCHEMA/sarif-schema-2.1.0.json" "$T/$course.sarif"
	run $course verify --format=junit
	check "$course: junit exits $RC, not $want" [ $RC -eq $want ]
	check "$course: junit is well-formed XML (xmllint)" xmllint --noout "$T/out"
	run $course verify --format=github
	check "$course: github exits $RC, not $want" [ $RC -eq $want ]
	check "$course: a github line is not a workflow command" \
		fails grep -Evq '^::(error|warning|notice) (file=[^,:]+,(line=[0-9]+,(col=[0-9]+,endColumn=[0-9]+,)?)?)?title=[a-z0-9-]+::[^%]*(%(25|0A|0D)[^%]*)*$' "$T/out"
	explain_want=$want
	run $course explain --format=json pages/day01-demo.md
	check "$course: explain json exits $RC, not $explain_want" [ $RC -eq $explain_want ]
	check "$course: explain json against the schema" $PY "$HERE/validate.py" "$SCHEMA/coursecheck-report-1.json" "$T/out"
	check "$course: explain json does not say the node signed the run" grep -q '"principal": "node"' "$T/out"
done
# explain's runs of the other verdicts against the schema: an unsigned run
# (its nulls) and a signature outside its key's window (the why)
for c in sig-explain-json-unsigned sig-explain-json-expired; do
	(tests=$TOP/verifier/tests COURSECHECK=$BIN && . "$tests/case-layout.sh" && case_layout "$CASES/$c" "$T/$c") >/dev/null 2>&1
	run $c explain --format=json pages/day01-demo.md
	check "$c: explain json against the schema" $PY "$HERE/validate.py" "$SCHEMA/coursecheck-report-1.json" "$T/out"
	check "$c: explain json has no run" grep -q '"signature": "' "$T/out"
done
# update's JSON report, from the golden case that rewrites four numbers
(tests=$TOP/verifier/tests COURSECHECK=$BIN && . "$tests/case-layout.sh" && case_layout "$CASES/update-changed-count" "$T/upd") >/dev/null 2>&1
cp "$T/upd/pages/day01-demo.md" "$T/page.before"
run upd update --dry-run --format=json pages/day01-demo.md
check "update --dry-run --format=json exits $RC, not 0" [ $RC -eq 0 ]
check "update json against the schema" $PY "$HERE/validate.py" "$SCHEMA/coursecheck-report-1.json" "$T/out"
check "update json has no rewrite" grep -q '"new": "69,001"' "$T/out"
check "update --dry-run --format=json wrote the page" cmp -s "$T/page.before" "$T/upd/pages/day01-demo.md"
run upd update --format=json pages/day01-demo.md
check "update --format=json does not say it wrote" grep -q '"written": true' "$T/out"
check "update --format=json did not write the page" grep -q '69,001' "$T/upd/pages/day01-demo.md"

check "fail: the json report holds no diagnostic" [ "$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["diagnostics"]))' "$T/fail.json")" = 2 ]
check "fail: the sarif result has no relatedLocations" grep -q '"relatedLocations"' "$T/fail.sarif"
# what code scanning needs to show a finding whole: every result has a
# region, its message links each related location ([text](id)), each rule
# has help
cat >"$T/sarif-shape.py" <<'X'
import json, re, sys
doc = json.load(open(sys.argv[1]))
bad = []
for run in doc["runs"]:
    for rule in run["tool"]["driver"]["rules"]:
        if not rule.get("help", {}).get("text"):
            bad.append("rule %s has no help" % rule["id"])
    for res in run["results"]:
        for loc in res.get("locations", []):
            if "region" not in loc.get("physicalLocation", {}):
                bad.append("result %s has no region" % res["ruleId"])
        text = res["message"]["text"]
        for rel in res.get("relatedLocations", []):
            if not re.search(r"(?<!\\)\]\(%d\)" % rel["id"], text):
                bad.append("related location %d of %s is not linked from its message" % (rel["id"], res["ruleId"]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
X
check "fail: a SARIF result lacks a region, a linked note or rule help: $($PY "$T/sarif-shape.py" "$T/fail.sarif")" \
	$PY "$T/sarif-shape.py" "$T/fail.sarif"
check "fail: github lines are not 2" [ "$(cd "$T/fail" && "$BIN" verify --format=github 2>/dev/null | wc -l)" -eq 2 ]

# the validators can fail: a wrong level, a missing member, broken XML
sed 's/"level": "error"/"level": "fatal"/' "$T/fail.sarif" >"$T/bad.sarif"
check "a SARIF level 'fatal' passes the schema" fails $PY "$HERE/validate.py" "$SCHEMA/sarif-schema-2.1.0.json" "$T/bad.sarif"
sed 's/"ruleId"/"rule"/' "$T/fail.sarif" >"$T/bad2.sarif"
check "a SARIF result with an unknown member passes the schema" fails $PY "$HERE/validate.py" "$SCHEMA/sarif-schema-2.1.0.json" "$T/bad2.sarif"
sed 's/"level": "error"/"level": "fatal"/' "$T/fail.json" >"$T/bad.json"
check "a JSON report level 'fatal' passes its schema" fails $PY "$HERE/validate.py" "$SCHEMA/coursecheck-report-1.json" "$T/bad.json"
printf '<testsuites><testsuite></testsuites>\n' >"$T/bad.xml"
check "xmllint accepts broken XML" fails xmllint --noout "$T/bad.xml"

# fingerprints: the same run twice is the same; a line added above the
# finding moves its line, not its fingerprint
fp() { grep -A1 '"partialFingerprints"' "$1" | grep -o '[0-9a-f]\{64\}'; }
run fail verify --format=sarif
check "fingerprints differ between two runs" [ "$(fp "$T/out")" = "$(fp "$T/fail.sarif")" ]
names() { grep -o '<testcase [^>]*name="[^"]*"' "$1" | sort; }
run fail verify --format=junit
names "$T/out" >"$T/names.before"
awk 'NR == 11 { print "A line added above the finding." ; print "" } { print }' "$T/fail/pages/day01-demo.md" >"$T/x" && mv "$T/x" "$T/fail/pages/day01-demo.md"
run fail verify --format=sarif
check "a line added above moves the fingerprint" [ "$(fp "$T/out")" = "$(fp "$T/fail.sarif")" ]
check "a line added above does not move the line" grep -q '"startLine": 22' "$T/out"
# JUnit test case names hold no position: the line added above leaves them
# as they were (a dashboard's history follows the name)
run fail verify --format=junit
names "$T/out" >"$T/names.after"
check "JUnit test case names hold a position" sh -c "! grep -q ' at [0-9]' '$T/names.after'"
check "a line added above renames a JUnit test case" cmp -s "$T/names.before" "$T/names.after"
cp "$CASES/snippet-drift/pages/day01-demo.md" "$T/fail/pages/day01-demo.md"

# --output: the report goes to the file, nothing to standard output
run fail verify --format=json --output=report.json
check "--output exits $RC, not 1" [ $RC -eq 1 ]
check "--output leaves standard output empty" [ ! -s "$T/out" ]
check "--output's file differs from the report" cmp -s "$T/fail/report.json" "$T/fail.json"
run fail verify --output=report.txt
check "--output=FILE (text) leaves diagnostics on stderr" fails grep -q 'snippet-drift' "$T/err"
check "--output=FILE (text) has not the diagnostics" grep -q '\[snippet-drift\]' "$T/fail/report.txt"
run fail verify --output=no/such/dir/report.json --format=json
check "--output into a missing folder exits $RC, not 2" [ $RC -eq 2 ]

cp "$T/fail/pages/day01-demo.md" "$T/page.kept"
run fail verify --format=json --output=pages/day01-demo.md
check "--output over a page exits $RC, not 2" [ $RC -eq 2 ]
check "--output wrote over a page" cmp -s "$T/page.kept" "$T/fail/pages/day01-demo.md"
run fail verify --format=json --output=evidence/day01-demo/report.json
check "--output wrote into evidence/" [ ! -e "$T/fail/evidence/day01-demo/report.json" ]

(cd "$T/fail" && "$BIN" verify --format=json --output=/dev/full) >/dev/null 2>"$T/err"
RC=$?
check "--output=/dev/full exits $RC, not 2" [ $RC -eq 2 ]
check "--output=/dev/full does not say so" grep -q 'cannot write /dev/full' "$T/err"
check "--output=/dev/full is not an output-failed error" grep -q '^coursecheck verify: error: .*/dev/full.* \[output-failed\]$' "$T/err"
"$BIN" ids >/dev/full 2>"$T/err"
RC=$?
check "ids >/dev/full exits $RC, not 2" [ $RC -eq 2 ]
check "ids >/dev/full is not an output-failed error" \
	grep -qx 'coursecheck: error: write error on standard output: No space left on device \[output-failed\]' "$T/err"

# GitHub's default: GITHUB_ACTIONS=true and standard output not a terminal
(cd "$T/fail" && GITHUB_ACTIONS=true "$BIN" verify) >"$T/out" 2>"$T/err"
check "GITHUB_ACTIONS=true does not choose --format=github" grep -q '^::error file=pages/day01-demo.md' "$T/out"
(cd "$T/fail" && GITHUB_ACTIONS=true "$BIN" verify --format=text) >"$T/out" 2>"$T/err"
check "--format=text does not win over GITHUB_ACTIONS" fails grep -q '^::' "$T/out"
(cd "$T/fail" && GITHUB_ACTIONS=false "$BIN" verify) >"$T/out" 2>"$T/err"
check "GITHUB_ACTIONS=false chooses github" fails grep -q '^::' "$T/out"

# colour: NO_COLOR wins; --color; CLICOLOR_FORCE; TERM=dumb
esc=$(printf '\033')
colored() { grep -q "$esc\[" "$T/err"; }
color_run() { (cd "$T/fail" && env -u NO_COLOR -u CLICOLOR_FORCE "$@" "$BIN" verify ${COLOR_ARG:-}) >"$T/out" 2>"$T/err"; }
COLOR_ARG='' color_run TERM=xterm
check "not a terminal, yet colour" fails colored
COLOR_ARG=--color=always color_run TERM=xterm
check "--color=always gives no colour" colored
COLOR_ARG=--color=always color_run NO_COLOR=1
check "NO_COLOR does not win over --color=always" fails colored
COLOR_ARG='' color_run CLICOLOR_FORCE=1 TERM=xterm
check "CLICOLOR_FORCE=1 gives no colour" colored
COLOR_ARG='' color_run CLICOLOR_FORCE=0 TERM=xterm
check "CLICOLOR_FORCE=0 gives colour" fails colored
COLOR_ARG=--color=never color_run CLICOLOR_FORCE=1
check "--color=never does not win over CLICOLOR_FORCE" fails colored
COLOR_ARG='' color_run CLICOLOR_FORCE=1 NO_COLOR=1
check "NO_COLOR does not win over CLICOLOR_FORCE" fails colored
if command -v script >/dev/null 2>&1; then
	# a real terminal: colour by default, none under TERM=dumb
	(cd "$T/fail" && env -u NO_COLOR TERM=xterm script -qec "$BIN verify >/dev/null" /dev/null) >"$T/err" 2>&1
	check "a terminal gets no colour" colored
	(cd "$T/fail" && env -u NO_COLOR TERM=dumb script -qec "$BIN verify >/dev/null" /dev/null) >"$T/err" 2>&1
	check "TERM=dumb on a terminal gets colour" fails colored
fi

# a write error on standard output or error is exit 2
(cd "$T/clean" && "$BIN" ids >/dev/full 2>"$T/err")
RC=$?
check "ids > /dev/full exits $RC, not 2" [ $RC -eq 2 ]
check "ids > /dev/full does not say so" grep -q 'write error' "$T/err"
(cd "$T/clean" && "$BIN" verify --format=json >/dev/full 2>/dev/null)
RC=$?
check "verify --format=json > /dev/full exits $RC, not 2" [ $RC -eq 2 ]
(cd "$T/fail" && "$BIN" verify 2>/dev/full)
RC=$?
check "verify 2> /dev/full exits $RC, not 2" [ $RC -eq 2 ]
(cd "$T/clean" && "$BIN" --help >/dev/full 2>/dev/null)
RC=$?
check "--help > /dev/full exits $RC, not 2" [ $RC -eq 2 ]

# hostile text in every format: U+FFFF in a page line and U+FFFE in a
# file name (XML 1.0 allows neither), terminal escapes in a page line and
# a CR in a file name (the text report shows them, never sends them)
mkdir "$T/odd"
cp -R "$TOP/verifier/tests/fixtures/demo/." "$T/odd/"
printf '\n\033[2KThe racy kernel took 9.99 ms \357\277\277.\033[1A\033[2K\033]0;all checks passed\007\n' >>"$T/odd/pages/day01-demo.md"
cp "$T/odd/pages/day01-demo.md" "$T/odd/pages/$(printf 'x\357\277\276y.md')"
cp "$T/odd/pages/day01-demo.md" "$T/odd/pages/$(printf 'x\r::error file=README.md::fine.md')"
run odd verify --format=junit
check "odd: junit exits $RC, not 1" [ $RC -eq 1 ]
check "odd: junit with U+FFFE/U+FFFF is well-formed XML (xmllint)" xmllint --noout "$T/out"
check "odd: junit parsed by Python" $PY -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/out"
run odd verify --format=sarif
cp "$T/out" "$T/odd.sarif"
check "odd: sarif against the SARIF 2.1.0 schema" $PY "$HERE/validate.py" "$SCHEMA/sarif-schema-2.1.0.json" "$T/odd.sarif"
run odd verify --format=json
cp "$T/out" "$T/odd.json"
check "odd: json against coursecheck-report-1.json" $PY "$HERE/validate.py" "$SCHEMA/coursecheck-report-1.json" "$T/odd.json"
run odd verify
ctl=$(tr -cd '\000-\010\013-\037\177' <"$T/err" | wc -c)
check "odd: the text report holds $ctl control bytes, not 0" [ "$ctl" -eq 0 ]
check "odd: the text report does not show ESC as ^[" grep -qF "| ^[[2KThe racy kernel took 9.99 ms $(printf '\357\277\277').^[[1A^[[2K^[]0;all checks passed^G" "$T/err"
check "odd: a CR in a file name is not shown as ^M" grep -q '^pages/x^M::error file=README.md::fine.md:[0-9]*:[0-9]*: error: ' "$T/err"
# the caret stands under 9.99 however wide the escapes before it are shown
check "odd: the caret is not under 9.99 after a shown escape" awk '
	/\^\[\[2KThe racy kernel took 9\.99/ { want = index($0, "9.99"); next }
	want { if (index($0, "^~~~~~~") == want) found = 1; want = 0 }
	END { exit !found }' "$T/err"

# a long line: the SARIF report is bounded by the input (one window of the
# line around each finding), not the input times the findings
mkdir "$T/long"
cp -R "$TOP/verifier/tests/fixtures/demo/." "$T/long/"
rm -f "$T/long/evidence/allowed_signers" # its run unsigned: a warning, no error of its own
{ sed -n '1,8p' "$T/long/pages/day01-demo.md"; echo; awk 'BEGIN { for (i = 0; i < 30000; i++) printf "1.739 ms "; print "" }'; } >"$T/long/pages/x.md"
rm "$T/long/pages/day01-demo.md"
run long verify -j 1 --format=sarif pages/x.md
size=$(wc -c <"$T/out")
check "long: a 270 KB line gives a SARIF report of $size bytes, not under 2 MB" [ "$size" -lt 2000000 ]
cp "$T/out" "$T/long.sarif"
check "long: sarif against the SARIF 2.1.0 schema" $PY "$HERE/validate.py" "$SCHEMA/sarif-schema-2.1.0.json" "$T/long.sarif"
check "long: no result holds a window of more than 240 characters, or none has one" $PY -c '
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["runs"][0]["results"] if r["ruleId"] == "number-untraced"]
ws = [r["locations"][0]["physicalLocation"]["contextRegion"] for r in rs]
assert len(rs) > 100 and all(len(w["snippet"]["text"]) <= 240 and w["endColumn"] - w["startColumn"] == len(w["snippet"]["text"]) for w in ws)
assert all(w["startColumn"] <= r["locations"][0]["physicalLocation"]["region"]["startColumn"] < w["endColumn"] for r, w in zip(rs, ws))
' "$T/long.sarif"

# --output never writes through a link: one in its place is replaced (a
# committed coursecheck.sarif -> ~/.ssh/authorized_keys), a folder link out
# of the repository is refused
mkdir "$T/linked" "$T/home"
cp -R "$TOP/verifier/tests/fixtures/demo/." "$T/linked/"
rm -f "$T/linked/evidence/allowed_signers" # its run unsigned: a warning, no error of its own
echo precious >"$T/home/keys"
ln -s ../home/keys "$T/linked/coursecheck.sarif"
run linked verify --format=sarif --output=coursecheck.sarif
check "linked: --output exits $RC, not 0" [ $RC -eq 0 ]
check "linked: --output wrote through a link out of the repository" grep -qx precious "$T/home/keys"
check "linked: --output did not replace the link with the report" [ -f "$T/linked/coursecheck.sarif" -a ! -L "$T/linked/coursecheck.sarif" ]
ln -s ../home "$T/linked/out"
run linked verify --format=sarif --output=out/report.sarif
check "linked: --output through a folder link out exits $RC, not 2" [ $RC -eq 2 ]
check "linked: --output through a folder link out wrote there" [ ! -e "$T/home/report.sarif" ]
check "linked: --output through a folder link out does not say why" grep -q 'leads outside the repository' "$T/err"

echo "reports: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
