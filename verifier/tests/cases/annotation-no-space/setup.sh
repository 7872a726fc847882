# an annotation written with no space before it (so that the rendered page
# has no stray space before the comma): read as with one
sed -i 's/of the 1,049,187 elements/of the 1,049,187<!-- at: [all | threads] -->, all the elements/' pages/day01-demo.md
sed -i "s/kernel's 0.325 ms\./kernel's 0.325 ms<!-- at: [256 add, plain | time ms] -->./" pages/day01-demo.md
