printf '\357\273\277' | cat - pages/day01-demo.md > x && mv x pages/day01-demo.md
