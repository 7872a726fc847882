mkdir -p evidence/day99-x && cp evidence/day01-demo/run-2026-11-30.txt evidence/day99-x/
sh "$SEAL" . evidence/day01-demo/run-2026-11-30.txt
