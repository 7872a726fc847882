sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's|evidence: evidence/day01-demo/run-2026-11-30.txt|evidence: evidence/day01-demo/run-2026-12-01.txt|' pages/day01-demo.md
