# the newest run's body was edited after capture: not carried
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
sed -i 's/69001/69002/' evidence/day01-demo/run-2026-12-01.txt
