#!/bin/sh
# xmllint --html on one review file, less what its HTML 4 parser says of
# the HTML5 elements a review uses (<details>, <summary>: the folded run
# facts, findings and legend).  Prints every other complaint (each with
# its two lines of context) and exits 1 when there is one.
#
#   html-lint.sh FILE.html
out=$(xmllint --html --noout "$1" 2>&1 | awk '
	/HTML parser error : Tag (details|summary) invalid$/ { skip = 2; next }
	skip > 0 { skip--; next }
	{ print }')
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
