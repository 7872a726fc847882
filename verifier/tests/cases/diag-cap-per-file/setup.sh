# a line of 250 untraced numbers: 200 diagnostics printed, the other 50 counted in one line
{ printf -- '---\nlesson: day01-demo\nday: 1\ntitle: "t"\nstatus: in-technical-review\nprogram: programs/day01-demo/demo.cu\nevidence: evidence/day01-demo/run-2026-11-30.txt\n---\n\n'; awk 'BEGIN { for (i = 0; i < 250; i++) printf "%d.5 ms ", i + 100; printf "\n" }'; } > pages/x.md
