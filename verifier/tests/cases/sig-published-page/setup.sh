# a published page: an unsigned run is an error there without --as published
sed -i 's/^status: in-technical-review$/status: published/' pages/day01-demo.md
