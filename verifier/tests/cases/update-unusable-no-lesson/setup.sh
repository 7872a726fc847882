sed -i '/^lesson:/d' pages/day01-demo.md
