# a block signed (under coursecheck-review, by ssh-keygen) with the key that
# signs the runs, listed for evidence: a node key never approves
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
sign_runs
reviewer alice
approve pages/day01-demo.md alice
f=reviews/day01-demo.approvals
sed -n '1,/^-----BEGIN SSH SIGNATURE-----$/p' "$f" | sed '$d' | sed 's/^reviewer: alice$/reviewer: golden/' >block
ssh-keygen -Y sign -q -f "$GOLDEN_KEY" -n coursecheck-review block </dev/null >/dev/null 2>&1
cat block block.sig >"$f"
rm -f block block.sig
