# an annotation wrapped over two lines: named, with the joined form as hint
python3 - <<'X'
p = 'pages/day01-demo.md'
s = open(p).read()
s = s.replace("gets 70,320 elements", "gets 70,320 <!-- at: [64 add, racy |\nmismatches] --> elements", 1)
open(p, 'w').write(s)
X
