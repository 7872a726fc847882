# the newest run shared its GPU with another process: not carried
sed -i 's/^exit: 0$/exit: 0\ngpu-exclusive: no/' evidence/day01-demo/run-2026-12-01.txt
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
