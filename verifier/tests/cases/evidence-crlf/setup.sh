sed -i 's/$/\r/' evidence/day01-demo/run-2026-11-30.txt
