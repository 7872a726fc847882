# R04: a number changed by hand in the run and on the page, body-sha256
# recomputed, no signature: the publication gate refuses the run, and
# nothing else (the page's two ambiguous numbers bound, as R04 does)
ev=evidence/day01-demo/run-2026-11-30.txt page=pages/day01-demo.md
sed -i 's/of the 1,049,187 elements/of the 1,049,187 <!-- at: [all | threads] --> elements/; s/kernel'"'"'s 0.325 ms\./kernel'"'"'s 0.325 ms <!-- one-run: [256 add, plain | time ms] -->./; s/takes 1\.8 ms,/takes 1.8 ms <!-- one-run: [1024 add, racy | time ms] -->,/' $page
sed -i 's/^     64  add, racy          70320     0.412$/     64  add, racy           1234     0.412/' $ev
sed -i 's/gets 70,320 elements wrong/gets 1,234 elements wrong/; s/7 percent <!-- = 100 \* 70320 \/ 1049187 -->/0.12 percent <!-- = 100 * 1234 \/ 1049187 -->/' $page
"$SEAL" . $ev
