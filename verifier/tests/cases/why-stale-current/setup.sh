# evidence as capture writes it now, nothing the build read changed
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
