# front matter of 70,000 bytes: refused before libyaml reads it
{ printf -- '---\nlesson: day01-demo\n'; awk 'BEGIN { for (i = 0; i < 7000; i++) printf "# comment\n" }'; printf -- '---\n\nBody.\n'; } > pages/x.md
