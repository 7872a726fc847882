# the program changed since the newest run was captured: not carried
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
printf '// a change after the capture\n' >> programs/day01-demo/demo.cu
