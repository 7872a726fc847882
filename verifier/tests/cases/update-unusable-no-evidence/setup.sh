rm -r evidence/day01-demo
