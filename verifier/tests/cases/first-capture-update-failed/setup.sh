# the lesson's only run was kept by --keep-failed: its stdout missed
# Expect:, its exit was 0.  update does not bind the page to it and names
# the cause, not "exit: 0"
sed -i 's|^evidence: .*|evidence: none yet|' pages/day01-demo.md
sed -i 's/^exit: 0$/exit: 0\nexpect: ^all sums checked$\nexpect-failed: main/' evidence/day01-demo/run-2026-11-30.txt
sh "$SEAL" . evidence/day01-demo/run-2026-11-30.txt
