# the evidence path in double quotes: rewritten inside them (F04)
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's#^evidence: .*#evidence: "evidence/day01-demo/run-2026-11-30.txt"#' pages/day01-demo.md
