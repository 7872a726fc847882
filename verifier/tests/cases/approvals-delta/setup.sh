# the delta review after a reworded sentence and a new sentence with a
# traced number: only those items print, old and new side by side
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
sign_runs
reviewer alice
approve pages/day01-demo.md alice
sed -i 's/^The racy kernel gets 70,320 elements wrong at 64 threads, about$/The racy kernel got 70,320 elements wrong at 64 threads, about/' pages/day01-demo.md
printf '\nThe sums checked were 1,049,187 in all.\n' >>pages/day01-demo.md
