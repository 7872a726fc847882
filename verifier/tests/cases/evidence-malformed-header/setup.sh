sh "$SEAL" . evidence/day01-demo/run-2026-11-30.txt
