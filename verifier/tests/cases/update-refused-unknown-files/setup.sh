# R14: a link among the lesson's files: whether the newest run is stale
# cannot be told, so it is not carried
sh "$SEAL" . evidence/day01-demo/run-2026-12-01.txt
ln -s demo.cu programs/day01-demo/extra.h
