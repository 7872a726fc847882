# R18: the capture recorded [64 add, racy | time ms] as volatile over 3
# repeats but dropped the values (repeat-values-omitted): a range, a bound
# and a claim on max() of it cannot be read off the one printed value
ev=evidence/day01-demo/run-2026-11-30.txt
fm=$(sed -n '1,8p' pages/day01-demo.md); rm pages/day01-demo.md
{ printf '%s\n\n' "$fm"
  echo 'At 64 threads the racy kernel took at most 0.412 ms <!-- max: [64 add, racy | time ms] -->,'
  echo 'from 0.412 to 0.412 <!-- range: [64 add, racy | time ms] --> ms, once 0.412 ms <!-- one-run: [64 add, racy | time ms] -->.'
  echo 'It stayed under a quarter of the time of the widest block. <!-- claim: max([64 add, racy | time ms]) < [1024 add, racy | time ms] / 4 -->'
} > pages/x.md
sed -i 's/^exit: 0$/exit: 0\nrepeats: 3\nvolatile: 8:39\nrepeat-values-omitted: over 1048576 bytes/' $ev
sh "$SEAL" . $ev
