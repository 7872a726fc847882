# a README without front matter that already quotes the newest run: its
# old run is the one its content traces to, so nothing moves
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
