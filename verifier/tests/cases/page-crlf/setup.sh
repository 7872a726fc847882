sed -i 's/$/\r/' pages/day01-demo.md
