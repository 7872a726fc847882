sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
# a second name for the page: replacing it would part the two, so update
# refuses to write and the page is left as it was (update-write)
ln pages/day01-demo.md kept-link.md
