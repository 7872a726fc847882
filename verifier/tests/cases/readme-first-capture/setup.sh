# a README without front matter, before the first capture of a draft lesson
rm -rf evidence
sed -i 's|^evidence: .*|evidence: none yet|; s|^status: .*|status: draft|' pages/day01-demo.md
sed -i '/^\/\/ Verified/,/^\/\/ evidence/d' programs/day01-demo/demo.cu
printf '# Day 1\n\nThe racy kernel missed 7777 sums.\n' > programs/day01-demo/README.md
