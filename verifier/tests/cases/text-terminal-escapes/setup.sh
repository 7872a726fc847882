#!/bin/sh
# A page line with terminal escapes around an untraced number (cursor up,
# erase line, a window title, a C1 CSI, a tab): the text report shows
# each (^[, ^G, \x9B), never sends it, and the caret still stands under
# the number.
printf '\n\033[1A\033[2K\302\233\tThe racy kernel took 9.99 ms.\033]0;all checks passed\007\n' >>pages/day01-demo.md
