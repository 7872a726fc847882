# the lesson's program is the day 31 fixture's, renamed to lesson fz
mkdir -p programs/fz
sed 's|evidence/day31-scan-1/run-2026-11-30-2.txt|evidence/fz/run-2026-11-30.txt|' \
	"$(dirname "$SEAL")/fixtures/day31/programs/day31-scan-1/scan.cu" >programs/fz/fz.cu
# the new run prints more digits than a double holds: update copies them,
# not the double's binary expansion (7.12345678901234524716)
f=evidence/fz/run-2026-11-30.txt
sed -i 's/7\.030000000000000000000000000000000000000000000000000000000000000000000001x/7.12345678901234567891x/' "$f"
sh "$SEAL" . "$f"
