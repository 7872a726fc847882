# every item approved by a listed reviewer: the published page passes
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
sign_runs
reviewer alice
approve pages/day01-demo.md alice
