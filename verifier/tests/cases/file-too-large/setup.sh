head -c 70000000 /dev/zero | tr "\0" "a" > pages/big.md
