# each run may have its own Expect (`// Expect NAME: REGEX`): one that
# names no run is unreadable, as is one given twice or one that is no
# regular expression, and one the evidence was not captured with is drift
sed -i 's|^// Run:   ./demo$|// Run:   ./demo\n// Expect main: ^all [0-9]+ sums checked$\n// Expect nosuch: ^x\n// Expect main: ^again\n// Run racy: ./demo racy\n// Expect racy: (|' programs/day01-demo/demo.cu
