# the page's run shared its GPU with another process: its timings are no evidence
sed -i 's/^exit: 0$/exit: 0\ngpu-exclusive: no/' evidence/day01-demo/run-2026-11-30.txt
sh "$SEAL" . evidence/day01-demo/run-2026-11-30.txt
