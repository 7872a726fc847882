#!/bin/sh
# Self-test of reference-overlap.py: a copied run of 12 words is found (and
# one of 11 is not), across line breaks, Markdown and case; a page's
# transcript block and a printf call that prints a line of output are left
# out; the exit status says which. Usage: reference-overlap-test.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/overlap-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/seeds"
cat >"$tmp/seeds/a.txt" <<'T'
The quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat.
threads kernel mismatches first bad gated and then some more words here to pad it
std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major, prop.minor, prop.warpSize, prop.multiProcessorCount);
T
fail=0
check() { # NAME WANT-STATUS FILE [GREP]
    out=$(python3 "$here/reference-overlap.py" --seeds "$tmp/seeds" "$3")
    st=$?
    if [ "$st" -ne "$2" ]; then
        echo "FAIL $1: exit $st, want $2"; printf '%s\n' "$out"; fail=1
    elif [ -n "${4:-}" ] && ! printf '%s\n' "$out" | grep -q "$4"; then
        echo "FAIL $1: output lacks '$4'"; printf '%s\n' "$out"; fail=1
    else
        echo "ok $1"
    fi
}
printf 'So *the quick* brown fox\njumps over the lazy dog while the cat sleeps.\n' >"$tmp/copied.md"
check copied-across-lines 1 "$tmp/copied.md" "copied.md:1: 13 words shared with a.txt:1"
printf 'A quick brown fox jumps over the lazy dog while the cat naps.\n' >"$tmp/eleven.md"
check eleven-words 0 "$tmp/eleven.md"
printf '<!-- transcript -->\n```text\nThe quick brown fox jumps over the lazy dog while the cat sleeps on\n```\n' >"$tmp/transcript.md"
check transcript-left-out 0 "$tmp/transcript.md"
printf '    std::printf("GPU: %%s (compute capability %%d.%%d)\\n", prop.name,\n                prop.major, prop.minor, prop.warpSize, prop.multiProcessorCount);\n' >"$tmp/print.cu"
check printf-left-out 0 "$tmp/print.cu"
printf '// The quick brown fox jumps over the lazy dog while the cat sleeps\n' >"$tmp/comment.cu"
check comment-found 1 "$tmp/comment.cu" "comment.cu:1:"
exit $fail
