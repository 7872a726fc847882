# approve with the key that signs the runs (listed for evidence): refused,
# nothing written
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
sign_runs
mkdir -p keys
cp "$GOLDEN_KEY" keys/golden
