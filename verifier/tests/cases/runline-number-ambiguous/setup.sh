# issue 31 item 10: a number given on the run line and printed once in the
# output is at two places; "4096 threads" traced silently to the output
ev=evidence/day02-scan/run-2026-11-30.txt
sed -i 's|^run: ./scan 256 3000$|run: ./scan 4096 3000|' $ev
"$SEAL" . $ev
printf '\nEach launch ran 4096 threads.\n' >>pages/day02-scan.md
