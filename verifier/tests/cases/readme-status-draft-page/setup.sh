# a README without front matter takes the status of its lesson's page (draft): an untraced number warns
sed -i 's|^status: .*|status: draft|' pages/day01-demo.md
printf '# Day 1\n\nThe racy kernel missed 7777 sums.\n' > programs/day01-demo/README.md
