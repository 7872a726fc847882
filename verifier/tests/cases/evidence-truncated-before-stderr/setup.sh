head -n 25 evidence/day01-demo/run-2026-11-30.txt > x && mv x evidence/day01-demo/run-2026-11-30.txt
