# the page gains a list nested past the limit: update must refuse the page
# rather than leave that text silently out of date
{ printf '\n'; i=0; while [ $i -lt 40 ]; do printf -- '- '; i=$((i + 1)); done; printf 'deep\n'; } >> pages/day01-demo.md
