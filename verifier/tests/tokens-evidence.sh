#!/bin/sh
# For authors of test cases: makes a lesson's hand-written evidence look as
# capture writes it now (readset.h): source-rule: tokens-1, reads:
# compiler-deps, and source-file-N lines for the files the build read as
# the compiler names them (`cc -MM -MG` of the lesson's .cu files, run in
# the lesson folder: what DEPENDENCIES_OUTPUT gives on the node, headers
# the test machine lacks named as they are written), then seals it
# (seal-evidence.sh).  Never used on real evidence.
#   COURSECHECK=path/to/coursecheck tokens-evidence.sh ROOT EVIDENCE-FILE
set -eu
root=$1 file=$2
here=$(cd "$(dirname "$0")" && pwd)
lesson=$(sed -n 's/^lesson: //p' "$file" | head -1)
deps=$(mktemp)
(cd "$root/programs/$lesson" && find . -name '*.cu' | sort | xargs cc -x c -MM -MG) >"$deps"
sed -i '/^source-rule: /d; /^reads: /d' "$file"
sed -i 's/^source-sha256: .*/&\nsource-rule: tokens-1/' "$file"
SEAL_DEPS=$deps sh "$here/seal-evidence.sh" "$root" "$file"
rm -f "$deps"
