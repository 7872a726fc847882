#!/bin/sh
# For authors of test cases: fills in source-sha256 (of the program the
# header names, relative to ROOT, as capture computes it) and body-sha256 of
# a hand-written evidence file, and repeat-values-sha256 when it has
# repeat-values.  Never used on real evidence.
#   COURSECHECK=path/to/coursecheck seal-evidence.sh ROOT EVIDENCE-FILE
# When the evidence lists its lesson's files (source-file-N lines) or the
# lesson has more than one file (lessonfiles.h), source-sha256 and the
# source-file-N lines are those `coursecheck lesson-files` prints.
set -eu
root=$1 file=$2
: "${COURSECHECK:?set COURSECHECK to the coursecheck binary}"
prog=$(sed -n 's/^program: //p' "$file" | head -1)
lesson=$(sed -n 's/^lesson: //p' "$file" | head -1)
# Evidence with a source-rule: line (as capture writes it now, readset.h)
# gets the lines of `lesson-files --rule=tokens-1`: every lesson file, or,
# with SEAL_DEPS naming a dependency output (make rules, paths relative to
# the lesson folder, as `gcc -MM` writes them), the files it names.
if grep -q '^source-rule: ' "$file"; then
	files=$("$COURSECHECK" lesson-files --root "$root" --rule=tokens-1 ${SEAL_DEPS:+--deps="$SEAL_DEPS"} "$lesson")
	listed=$(mktemp)
	printf '%s\n' "$files" | grep -v '^source-sha256: ' >"$listed"
	sed -i '/^source-file-[0-9]*: /d; /^source-rule: /d; /^reads: /d' "$file"
	sed -i "s/^source-sha256: .*/source-sha256: $(printf '%s\n' "$files" | sed -n 's/^source-sha256: //p')/" "$file"
	sed -i "/^source-sha256: /r $listed" "$file"
	rm -f "$listed"
	SEAL_LESSON_FILES=
fi
# SEAL_LESSON_FILES, where set: what `coursecheck lesson-files --root ROOT
# LESSON` prints, given by a caller that asked it once for many seals of
# the same lesson files (mutate.sh)
if [ -n "${SEAL_LESSON_FILES+set}" ]; then
	files=$SEAL_LESSON_FILES
else
	files=$("$COURSECHECK" lesson-files --root "$root" "$lesson" 2>/dev/null || true)
fi
nfiles=$(printf '%s\n' "$files" | grep -c '^source-file-' || true)
if grep -q '^source-rule: ' "$file"; then
	: # sealed above
elif [ -n "$files" ] && { [ "$nfiles" -gt 1 ] || grep -q '^source-file-' "$file"; }; then
	src=$(printf '%s\n' "$files" | sed -n 's/^source-sha256: //p')
	listed=$(mktemp)
	printf '%s\n' "$files" | grep '^source-file-' >"$listed"
	sed -i '/^source-file-[0-9]*: /d' "$file"
	sed -i "s/^source-sha256: .*/source-sha256: $src/" "$file"
	sed -i "/^source-sha256: /r $listed" "$file"
	rm -f "$listed"
elif [ -f "$root/$prog" ]; then
	src=$("$COURSECHECK" source-sha256 "$root/$prog" | cut -d' ' -f1)
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
