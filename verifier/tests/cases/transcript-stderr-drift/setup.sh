sed -i 's|^racecheck: 16384 tiles$|racecheck: 16000 tiles|' pages/day02-scan.md
