# after the approvals, a sentence reworded and a derivation changed: those
# items are reopened, with the approved and the current text; the rest hold
. "$(dirname "$SEAL")/approvals/setup-lib.sh"
publish pages/day01-demo.md
sign_runs
reviewer alice
approve pages/day01-demo.md alice
sed -i 's/^The racy kernel gets 70,320 elements wrong at 64 threads, about$/The racy kernel got 70,320 elements wrong at 64 threads, about/' pages/day01-demo.md
