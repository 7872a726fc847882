# an approvals file edited by hand (a value changed after it was signed):
# the block does not count, and its items are unapproved again
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
sign_runs
reviewer alice
approve pages/day01-demo.md alice
sed -i '0,/^value: 0.325 /s/^value: 0.325 /value: 0.326 /' reviews/day01-demo.approvals
