# the published page's items approved by a listed reviewer (the review
# gate, issue 36), so that what this case checks is all it reports
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
sign_runs
reviewer alice
approve pages/day01-demo.md alice
