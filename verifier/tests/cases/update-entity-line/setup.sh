sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
# one reference and one escape on the lines of the numbers update moves
sed -i -e 's/^The racy kernel gets 70,320 elements wrong/The racy kernel \&amp; co. get 70,320 elements wrong/' -e "s/of the 1,049,187 elements\. At/of the 1,049,187 \\\\*elements\\\\*. At/" pages/day01-demo.md
