# a run signed (under coursecheck-evidence) with a reviewer's key, listed
# for coursecheck-review only: the run is not vouched for
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
reviewer alice
ssh-keygen -Y sign -q -f keys/alice -n coursecheck-evidence evidence/day01-demo/run-2026-11-30.txt </dev/null >/dev/null 2>&1
