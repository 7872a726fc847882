# a derived percentage under "slower" whose new value crosses 0 (its last
# operation a division, its subtraction inside parentheses): a claim flip,
# not "-7.7 percent ... slower"
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's/^status: .*/status: draft/' pages/day01-demo.md
printf '\nThe racy kernel is 453 percent <!-- = 100 * (1.798 - 0.325) / 0.325 --> slower than the plain one.\n' >> pages/day01-demo.md
