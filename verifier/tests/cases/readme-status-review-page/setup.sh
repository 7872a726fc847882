# the same README beside an in-technical-review page: an error
printf '# Day 1\n\nThe racy kernel missed 7777 sums.\n' > programs/day01-demo/README.md
