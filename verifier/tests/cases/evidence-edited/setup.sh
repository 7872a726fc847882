sed -i 's/  2920/  2921/' evidence/day01-demo/run-2026-11-30.txt
