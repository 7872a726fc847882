# evidence as capture writes it now; a new data file in the lesson folder
# (a run may open it): stale
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
printf '256 3000\n' >programs/day02-scan/sizes.txt
