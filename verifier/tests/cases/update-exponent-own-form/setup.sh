# both runs print a rate in exponent notation; the page quotes it rounded
# in its own form, which update keeps (4.2e+09 becomes 4.5e+09)
old=evidence/day01-demo/run-2026-11-30.txt new=evidence/day01-demo/run-2026-12-01.txt
sed -i 's/^stdout: 9$/stdout: 10/; s/^all 1049187 sums checked$/all 1049187 sums checked\nrate 4.215e+09 sums\/s, latency 9.115e-05ms/' "$old"
sed -i 's/^stdout: 9$/stdout: 10/; s/^all 1049187 sums checked$/all 1049187 sums checked\nrate 4.467e+09 sums\/s, latency 1.0391e-04ms/' "$new"
sh "$SEAL" . "$old"
sh "$SEAL" . "$new"
cat >>pages/day01-demo.md <<'X'

The kernel adds 4.2e+09 sums a second with a latency of 9.12E-05 ms.
X
