#!/bin/sh
# For authors of test cases: fills in source-sha256 (of the program the
# header names, relative to ROOT, as capture computes it) and body-sha256 of
# a hand-written evidence file.  Never used on real evidence.
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
