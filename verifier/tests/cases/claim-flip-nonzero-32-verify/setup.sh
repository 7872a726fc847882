sh "$SEAL" . evidence/day02-claims/run-2026-12-01.txt
"$COURSECHECK" update pages/day02-claims.md >/dev/null 2>&1 || true
