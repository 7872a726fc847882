# an input file added to the lesson since the capture
printf '1 2 3\n' > programs/day02-scan/input.txt
