# Four pages name one program with two misspelt snippet markers and one
# evidence file edited after capture; the first page (-a) also has more
# untraced numbers than one file shows (DIAG_MAX_PER_FILE).  Each problem
# of the shared files is reported once, at the first page, under any -j.
sh "$SEAL" . evidence/day01-demo/run-2026-11-30.txt
sed -i 's/  2920/  2921/' evidence/day01-demo/run-2026-11-30.txt
cp pages/day01-demo.md pages/day01-demo-b.md
cp pages/day01-demo.md pages/day01-demo-c.md
cp pages/day01-demo.md pages/day01-demo-a.md
i=0
while [ $i -lt 210 ]; do
	printf 'One run took %d.5 ms.\n\n' $((1000 + i)) >>pages/day01-demo-a.md
	i=$((i + 1))
done
