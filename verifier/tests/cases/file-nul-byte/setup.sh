printf 'abc\000def\n' >> pages/day01-demo.md
