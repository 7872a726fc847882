sh "$SEAL" . evidence/day02-claims/run-2026-11-30.txt
