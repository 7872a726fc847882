# a published page in a course that lists no reviewer: one approval-missing
# for the page (nobody could act on one an item), at its first line
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
