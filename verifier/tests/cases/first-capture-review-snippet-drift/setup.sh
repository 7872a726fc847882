# in technical review: a warning, and the snippet check still runs (and finds a drift)
rm -rf evidence
sed -i 's|^evidence: .*|evidence: none yet|' pages/day01-demo.md
sed -i 's|c\[i\] = a\[i\] + b\[i\];|c[i] = a[i] - b[i];|' pages/day01-demo.md
sed -i '/^\/\/ Verified/,/^\/\/ evidence/d' programs/day01-demo/demo.cu
