# the newest run failed: not carried
sed -i 's/^exit: 0$/exit: 1/' evidence/day01-demo/run-2026-12-01.txt
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
