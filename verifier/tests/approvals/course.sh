#!/bin/sh
# approvals-test: the review gate (issue 36) on a copy of the course.
# Keys made here with ssh-keygen: a test node key (evidence), a reviewer
# (alice), an outsider (mallory); the course's real node key stays listed,
# so its signed runs still hold.  Then:
#   1. verify --as published fails on every page: nothing is approved;
#   2. alice approves all three pages (coursecheck approve --all); the
#      gate passes, and ssh-keygen -Y verify accepts her signatures;
#   3. a stand-in recapture of day 32 that moves nothing (the same output,
#      captured later, signed by the test node key, carried by update)
#      keeps every approval;
#   4. one that moves one timing (the worst time of the padded pipeline)
#      reopens exactly the items that rest on it, old and new values
#      shown; `coursecheck approvals` (and --since=HEAD) prints those and
#      nothing else; verify fails until alice approves them again;
#   5. an approvals file edited by hand, a block signed by mallory's key
#      or by the node key (evidence) are errors; approve refuses both
#      keys; a run signed by alice's key is not evidence; with --trust=REF
#      a reviewer added only in the working tree does not count.
#
#   sh verifier/tests/approvals/course.sh BINARY
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/approvals/block-lib.sh"
course=$(cd "$here/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/approvals-test.XXXXXX") || exit 2
trap '[ -n "${APPROVALS_KEEP:-}" ] || rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
pass=0 failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
check() {
	n=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else bad "$n"; fi
}
not() { ! "$@"; }

C=$T/course K=$T/keys
mkdir -p "$C" "$K"
cp -R "$course/pages" "$course/programs" "$course/evidence" "$C/"
cd "$C" || exit 2
for k in node alice mallory bob; do ssh-keygen -q -t ed25519 -N '' -C "$k" -f "$K/$k" </dev/null >/dev/null || exit 2; done
pub() { cut -d' ' -f1-2 "$K/$1.pub"; }
printf 'testnode namespaces="coursecheck-evidence" %s\nalice namespaces="coursecheck-review" %s\n' \
	"$(pub node)" "$(pub alice)" >>evidence/allowed_signers
commit() { git add -A && git -c user.name=t -c user.email=t@example.com commit -qm "$1"; }
git init -q && commit copy || exit 2
verify() { "$bin" verify --as published "$@" >"$T/out" 2>&1; }
errors() { sed -n 's/^coursecheck verify: .*: \([0-9]*\) errors.*/\1/p' "$T/out"; }
approve() { "$bin" approve "$1" --key "$K/$2" --principal "$2" ${3:---all} >"$T/approve" 2>&1; }
reopened_ids() { sed -n 's/.*(item \([0-9a-f]*\)) is reopened: .*/\1/p' "$T/out" | sort; }
pages="pages/day27-memory-model.md pages/day31-scan-1.md pages/day32-scan-2.md"

# 1. nothing approved
verify
for p in $pages; do
	check "$p: no approval-missing before any approval" grep -q "^$p:[0-9]*:[0-9]*: error: .*\[approval-missing\]" "$T/out"
done
check "plain verify (status in-technical-review) is not clean" "$bin" verify

# 2. alice approves the three pages
for p in $pages; do
	approve "$p" alice
	check "approve $p failed: $(cat "$T/approve")" grep -q "approved by alice" "$T/approve"
done
verify
check "the approved course does not pass --as published: $(tail -1 "$T/out")" test "$(errors)" = 0
# ssh-keygen checks a block as it checks a run
first_block reviews/day31-scan-1.approvals "$T"
check "ssh-keygen -Y verify refuses alice's block" \
	ssh-keygen -Y verify -f "$T/signers" -I alice -n coursecheck-review -s "$T/block.sig" <"$T/block"
check "ssh-keygen -Y verify accepts it under the evidence namespace" \
	not ssh-keygen -Y verify -f "$T/signers" -I alice -n coursecheck-evidence -s "$T/block.sig" <"$T/block"
commit approvals

# a stand-in recapture of day 32: its newest run with EDIT applied, sealed
# by the project's seal-evidence.sh and signed by the test node key, then
# carried into the page and program by coursecheck update
L=day32-scan-2 old=evidence/day32-scan-2/run-2026-12-05-2.txt
recapture() {
	new=evidence/$L/$1
	sed "s/^captured: .*/captured: $2/; $3" "$old" >"$new"
	COURSECHECK=$bin sh "$here/seal-evidence.sh" . "$new" || return 1
	ssh-keygen -Y sign -q -f "$K/node" -n coursecheck-evidence "$new" </dev/null >/dev/null 2>&1 || return 1
	"$bin" update pages/$L.md programs/$L/scan_2.cu >"$T/update" 2>&1
}

# 3. a recapture that moves nothing keeps every approval
recapture run-2026-12-05-3.txt 2026-12-05T05:00:00Z ''
check "update did not carry the page to the new run: $(tail -1 "$T/update")" grep -q '^evidence: evidence/day32-scan-2/run-2026-12-05-3.txt$' pages/$L.md
verify
check "a recapture that moved nothing reopened something: $(grep -c approval- "$T/out")" not grep -q 'approval-' "$T/out"
check "a recapture that moved nothing fails: $(tail -1 "$T/out")" test "$(errors)" = 0
commit same
old=evidence/$L/run-2026-12-05-3.txt


# 4. one timing moves: stdout line 114 (file line 147), the worst time of
# the padded pipeline, 0.1669 -> 0.1671, in the table and in its repeats
recapture run-2026-12-05-4.txt 2026-12-05T06:00:00Z '147s/0\.1669$/0.1671/; s/ 114:55=0\.1669,/ 114:55=0.1671,/'
check "the timing did not move on the page" grep -q '0\.1671' pages/$L.md
verify
reopened_ids >"$T/reopened"; [ -n "${APPROVALS_KEEP:-}" ] && cp "$T/out" "$T/out.step4"
awk '/^item: /{id=$2} /^value: [^ ]* at evidence\/day32-scan-2\/run-[0-9-]*\.txt:147:55$/{print id}' \
	reviews/$L.approvals | sort -u >"$T/expected"
check "no item rests on the timing (the test would prove nothing)" test -s "$T/expected"
check "reopened ($(tr '\n' ' ' <"$T/reopened")) is not exactly the items on the timing ($(tr '\n' ' ' <"$T/expected"))" \
	cmp -s "$T/reopened" "$T/expected"
check "a claim on the timing was not reopened" grep -q "error: claim '.*padded, pipeline | worst.*is reopened: its values changed" "$T/out"
check "the old and new values are not shown" grep -q "note: approved values: shown 0.1669; 0.1669 at" "$T/out"
check "the moved evidence line is not shown" grep -q "run-2026-12-05-4.txt:147:55: note: the evidence moved: 0.1671 here, approved 0.1669" "$T/out"
check "an unmoved item became unapproved" not grep -q 'approval-missing' "$T/out"
check "verify passes with reopened items" not test "$(errors)" = 0
"$bin" approvals >"$T/delta" 2>&1
rc=$?
check "approvals exit $rc, not 1" test "$rc" -eq 1
sed -n 's/.*(item \([0-9a-f]*\)) is reopened: .*/\1/p' "$T/delta" | sort >"$T/delta.ids"
check "the delta review does not print exactly the reopened items" cmp -s "$T/delta.ids" "$T/expected"
check "the delta review printed more than the reopened items" test "$(grep -c ': error: ' "$T/delta")" -eq "$(wc -l <"$T/expected")"
"$bin" approvals --since=HEAD pages/$L.md >"$T/delta.head" 2>&1
sed -n 's/.*(item \([0-9a-f]*\)) is reopened: .*/\1/p' "$T/delta.head" | sort >"$T/delta.head.ids"
check "approvals --since=HEAD reopens other items" cmp -s "$T/delta.head.ids" "$T/expected"
check "approvals --since=HEAD does not read HEAD's file" grep -q '^HEAD:reviews/day32-scan-2.approvals:[0-9]*:1: note: approved values' "$T/delta.head"
# the review page shows the same: exactly those items reopened, each
# under the id approve takes, the others approved
"$bin" review --output="$T/rv" pages/$L.md >"$T/rv.out" 2>&1
python3 - "$T/rv/$L.html" >"$T/rv.states" <<'PY'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
for row in re.findall(r'<tr id="r\d+"[^>]*data-id="([0-9a-f]{8})"[^>]*>(.*?)</tr>', html, re.S):
    state = "reopened" if "appr-reopened" in row[1] else "approved" if "appr-approved" in row[1] else "none"
    print(row[0], state)
PY
grep ' reopened$' "$T/rv.states" | cut -d' ' -f1 | sort >"$T/rv.reopened"
check "the review page reopens other items ($(tr '\n' ' ' <"$T/rv.reopened"))" cmp -s "$T/rv.reopened" "$T/expected"
check "the review page shows an item unapproved" not grep -q ' none$' "$T/rv.states"
check "the review page shows no approved item" grep -q ' approved$' "$T/rv.states"
approve pages/$L.md alice
check "approve --all approved another count: $(cat "$T/approve")" grep -q "^coursecheck approve: $(wc -l <"$T/expected") items of" "$T/approve"
verify
check "re-approved, the course still fails: $(tail -1 "$T/out")" test "$(errors)" = 0
commit reapproved

# 5. what must not count
reset() { git checkout -q -- . && git clean -qfd; }
sed -i '0,/^sentence: /s/^sentence: \(.\)/sentence: X\1/' reviews/day31-scan-1.approvals
verify
check "a hand-edited approvals file is not approval-signature-bad" grep -q '^reviews/day31-scan-1.approvals:1:1: error: .*changed after it was signed \[approval-signature-bad\]' "$T/out"
check "a hand-edited approvals file still approves" grep -q '^pages/day31-scan-1.md:.*\[approval-missing\]' "$T/out"
reset
approve pages/day31-scan-1.md mallory
check "approve with an unlisted key was not refused: $(cat "$T/approve")" grep -q 'approve-refused' "$T/approve"
approve pages/day31-scan-1.md node
check "approve with the node key was not refused: $(cat "$T/approve")" grep -q 'a key that vouches for runs never approves them \[approve-refused\]' "$T/approve"
check "a refused approve wrote something" git diff --quiet
# blocks re-signed with another key by ssh-keygen itself
for k in mallory node; do
	sed -i "s/^reviewer: alice$/reviewer: $k/" "$T/block"
	rm -f "$T/block.sig"
	ssh-keygen -Y sign -q -f "$K/$k" -n coursecheck-review "$T/block" </dev/null >/dev/null 2>&1
	cat "$T/block" "$T/block.sig" >reviews/day31-scan-1.approvals
	rm -f "$T/block.sig"
	sed -i "s/^reviewer: $k$/reviewer: alice/" "$T/block"
	verify
	check "a block signed by $k is not approval-signer-untrusted" grep -q "^reviews/day31-scan-1.approvals:1:1: error: this approval block (reviewer $k) does not count: .*\[approval-signer-untrusted\]" "$T/out"
	reset
done
rm -f evidence/$L/run-2026-12-05-4.txt.sig
ssh-keygen -Y sign -q -f "$K/alice" -n coursecheck-evidence evidence/$L/run-2026-12-05-4.txt </dev/null >/dev/null 2>&1
"$bin" verify >"$T/out" 2>&1
check "a run signed by a reviewer's key is evidence" grep -q 'run-2026-12-05-4.txt:[0-9]*: error: .*without the namespace coursecheck-evidence \[evidence-signer-untrusted\]' "$T/out"
reset
printf 'bob namespaces="coursecheck-review" %s\n' "$(pub bob)" >>evidence/allowed_signers
id=$("$bin" approve pages/day27-memory-model.md --list 2>/dev/null | sed -n '1s/ .*//p')
"$bin" approve pages/day27-memory-model.md --key "$K/bob" --principal bob --item "$id" >"$T/approve" 2>&1
check "bob (listed in the working tree) could not approve: $(cat "$T/approve")" grep -q 'approved by bob' "$T/approve"
verify
check "bob's approval does not count in the working tree: $(tail -1 "$T/out")" test "$(errors)" = 0
verify --trust=HEAD
check "with --trust=HEAD bob's block counts" grep -q "error: this approval block (reviewer bob) does not count: the key SHA256:.* is not listed with namespaces=\"coursecheck-review\" in HEAD's evidence/allowed_signers \[approval-signer-untrusted\]" "$T/out"
reset

echo "approvals: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
