# the lesson's program is the day 31 fixture's, renamed to lesson fz
mkdir -p programs/fz
sed 's|evidence/day31-scan-1/run-2026-11-30-2.txt|evidence/fz/run-2026-11-30.txt|' \
	"$(dirname "$SEAL")/fixtures/day31/programs/day31-scan-1/scan.cu" >programs/fz/fz.cu
