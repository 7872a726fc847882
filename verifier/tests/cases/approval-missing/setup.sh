# a published page no listed reviewer approved: each claim and traced number
# is an error at its place, with the approve command as its hint
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
reviewer alice
