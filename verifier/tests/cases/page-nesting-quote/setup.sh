# F02: one line of 100,000 nested block quotes (200 KB)
{ printf -- '---\nlesson: day01-demo\nday: 1\ntitle: "t"\nstatus: in-technical-review\nprogram: programs/day01-demo/demo.cu\nevidence: evidence/day01-demo/run-2026-11-30.txt\n---\n\n'; awk 'BEGIN { for (i = 0; i < 100000; i++) printf "> " }'; printf 'x\n'; } > pages/x.md
