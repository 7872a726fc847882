sh "$SEAL" . evidence/day02-claims/run-2026-12-02.txt
