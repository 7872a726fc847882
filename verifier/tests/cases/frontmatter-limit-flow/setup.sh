# F14 yaml-flow: flow collections nested 1,000 deep (libyaml 0.2.5 is quadratic in this)
{ printf -- '---\nlesson: day01-demo\nx: '; awk 'BEGIN { for (i = 0; i < 1000; i++) printf "[" }'; printf '\n---\n\nBody.\n'; } > pages/x.md
