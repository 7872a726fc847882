# The run also prints numbers in exponent notation (printf's %e): the page
# quotes them in exponent notation, rounded, and one wrong one.
f=evidence/day01-demo/run-2026-11-30.txt
sed -i 's/^stdout: 9$/stdout: 10/; s/^all 1049187 sums checked$/all 1049187 sums checked\nrate 4.215e+09 sums\/s, latency 9.115e-05ms, error 1.5E-3/' "$f"
sh "$SEAL" . "$f"
cat >>pages/day01-demo.md <<'X'

The kernel adds 4.2e+09 sums a second, not 9.99e+09, with a latency of
9.12e-05 ms and an error of 1.5e-3.
X
