# F02: one line of 40,000 nested list items (80 KB) once overflowed the stack
{ printf -- '---\nlesson: day01-demo\nday: 1\ntitle: "t"\nstatus: in-technical-review\nprogram: programs/day01-demo/demo.cu\nevidence: evidence/day01-demo/run-2026-11-30.txt\n---\n\n'; awk 'BEGIN { for (i = 0; i < 40000; i++) printf "- " }'; printf 'x\n\nThe run took 9.99 ms.\n'; } > pages/x.md
