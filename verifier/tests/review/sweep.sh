#!/bin/sh
# Reviews the pages of golden cases and checks each review against its
# ledger (check_html.py) and xmllint: pages with every kind of failure,
# not only clean ones.  With no NAME, every case (slow: minutes).
#
#   sweep.sh BINARY [NAME...]
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
tests=$(cd "$here/.." && pwd) COURSECHECK=$bin
. "$tests/case-layout.sh"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/review-sweep.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
names=${*:-$(ls "$tests/cases")}
n=0 bad=0
for name in $names; do
	src=$tests/cases/$name work=$scratch/$name
	[ -d "$src" ] || { echo "FAIL sweep: no case $name"; bad=$((bad + 1)); continue; }
	case_layout "$src" "$work" >/dev/null 2>&1
	for page in $(cd "$work" && ls pages/*.md programs/*/README.md 2>/dev/null); do
		out=$scratch/out-$name
		(cd "$work" && NO_COLOR=1 "$bin" explain --as published "$page" >"$scratch/explain.txt" 2>/dev/null
		 NO_COLOR=1 "$bin" review --output "$out" "$page" >"$scratch/review.log" 2>&1)
		rc=$?
		html=$out/$(printf '%s' "$page" | sed 's|^pages/||; s|\.md$||; s|/|-|g').html
		case $rc in 0 | 1) ;; *) [ -f "$html" ] || continue ;; esac # an unreadable page has no review
		n=$((n + 1))
		if ! python3 "$here/check_html.py" "$scratch/explain.txt" "$html" "$work" >"$scratch/check.txt" 2>&1 ||
			! sh "$here/html-lint.sh" "$html" >/dev/null 2>&1; then
			echo "FAIL sweep $name $page"
			sed 's/^/    /' "$scratch/check.txt" | head -10
			bad=$((bad + 1))
		fi
	done
done
echo "sweep: $n reviews checked, $bad failed"
[ "$bad" = 0 ]
