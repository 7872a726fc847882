# after update left the flipped percentage: its derivation follows the new
# run, the number and its "slower" do not.  claim-false, an error though
# the page is a draft (derive-mismatch would be a warning there)
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's/^status: .*/status: draft/' pages/day01-demo.md
sed -i 's|^evidence: .*|evidence: evidence/day01-demo/run-2026-12-01.txt|' pages/day01-demo.md
printf '\nThe racy kernel is 453 percent <!-- = 100 * (0.300 - 0.325) / 0.325 --> slower than the plain one.\n' >> pages/day01-demo.md
