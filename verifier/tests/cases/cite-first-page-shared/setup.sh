sh "$SEAL" . evidence/day02-other/run-2026-11-30.txt
