sh "$SEAL" . evidence/day02-claims/run-2026-12-01.txt
