# a marker whose '-->' is missing on its line: the message says what it
# hides, up to the next '-->', and the hint closes it
sed -i 's/^<!-- snippet: add -->/<!-- snippet: add/' pages/day01-demo.md
