sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
"$COURSECHECK" update pages/day01-demo.md programs/day01-demo/demo.cu >/dev/null 2>&1
