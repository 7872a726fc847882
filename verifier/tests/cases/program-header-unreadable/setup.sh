# a run line of the wrong shape, a continuation nothing continues, a bad Expect:
sed -i 's|^// Run:   ./demo$|// Run:   ./demo\n// Run Racecheck: compute-sanitizer ./demo\n// Run memcheck (exit one): compute-sanitizer ./demo\n// Expect: ^all (sums\n// Run twice: ./demo \\|' programs/day01-demo/demo.cu
