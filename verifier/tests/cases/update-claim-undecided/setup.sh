sh "$SEAL" . evidence/day02-claims/run-2026-12-02.txt
sh "$SEAL" . evidence/day02-claims/run-2026-12-03.txt
