# the page's items approved by a listed reviewer (the review gate, issue
# 36), so that what this case checks is all it reports under --as published
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
sign_runs
reviewer alice
approve pages/day02-claims.md alice
