# the page already names the newest run but still quotes the older run's
# numbers: carried by the binding verify's note uses
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's#^evidence: .*#evidence: evidence/day01-demo/run-2026-12-01.txt#' pages/day01-demo.md
