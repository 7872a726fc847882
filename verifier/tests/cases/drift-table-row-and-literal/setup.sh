# the page names the newest run but a table row and a derivation literal
# still hold the older run's 70,320: each gets the note that binds it to
# its place in the older run and says what that place holds now
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's#^evidence: .*#evidence: evidence/day01-demo/run-2026-12-01.txt#; s/^The racy kernel gets 70,320 elements/The racy kernel gets 69,001 elements/' pages/day01-demo.md
sed -i 's#captured on 2026-11-30#captured on 2026-12-01#; s#driver 580.159.04 and#driver 590.10.01 and#' pages/day01-demo.md
printf '| 64 | add, racy | 70,320 |\n' >> pages/day01-demo.md
