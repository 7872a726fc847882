#!/bin/sh
# For authors of test cases: fills in source-sha256 (of the program the
# header names, relative to ROOT, as capture computes it) and body-sha256 of
# a hand-written evidence file, and repeat-values-sha256 when it has
# repeat-values.  Never used on real evidence.
#   COURSECHECK=path/to/coursecheck seal-evidence.sh ROOT EVIDENCE-FILE
set -eu
root=$1 file=$2
prog=$(sed -n 's/^program: //p' "$file" | head -1)
if [ -f "$root/$prog" ]; then
	src=$("${COURSECHECK:?set COURSECHECK to the coursecheck binary}" source-sha256 "$root/$prog" | cut -d' ' -f1)
	sed -i "s/^source-sha256: .*/source-sha256: $src/" "$file"
fi
line=$(grep -n '^stdout: ' "$file" | head -1 | cut -d: -f1)
body=$(tail -n +"$line" "$file" | sha256sum | cut -d' ' -f1)
sed -i "s/^body-sha256: .*/body-sha256: $body/" "$file"
# repeat-values (capture --repeat) carries its own seal over the stdout lines
if grep -q '^repeat-values: ' "$file"; then
	values=$(sed -n '/^stdout: [0-9]*$/q; s/^repeat-values: //p' "$file")
	n=$(sed -n "${line}s/^stdout: //p" "$file")
	seal=$( { printf '%s\n' "$values"; sed -n "$((line + 1)),$((line + n))p" "$file"; } | sha256sum | cut -d' ' -f1)
	sed -i "s/^repeat-values-sha256: .*/repeat-values-sha256: $seal/" "$file"
fi
