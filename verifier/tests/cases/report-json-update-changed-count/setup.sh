sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
