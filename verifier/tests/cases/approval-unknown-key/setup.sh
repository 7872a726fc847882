# approvals signed by a key allowed_signers does not list (taken out after
# approving): the block does not count
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
sign_runs
reviewer alice
approve pages/day01-demo.md alice
sed -i '/^alice /d' evidence/allowed_signers
