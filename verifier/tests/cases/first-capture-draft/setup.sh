# a new lesson before its first capture: evidence: none yet on a draft page
rm -rf evidence
sed -i 's|^evidence: .*|evidence: none yet|; s|^status: .*|status: draft|' pages/day01-demo.md
sed -i '/^\/\/ Verified/,/^\/\/ evidence/d' programs/day01-demo/demo.cu
