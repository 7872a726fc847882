#!/bin/sh
# Architecture metrics of the verifier, for before/after comparisons:
#
#   metrics.sh SRC_DIR OBJ_DIR BINARY COURSE_ROOT
#
# prints the number of modules (file names without .c/.h under SRC_DIR),
# the 10 longest functions (lines, from universal-ctags' start and end),
# the writable file-scope and function-static variables of each module
# (objdump -t of OBJ_DIR/*.o: objects in .bss and .data, not .rodata or
# .data.rel.ro, where const tables go),
# and how many times one `BINARY verify` run in COURSE_ROOT opens each file
# (strace -f -e trace=openat,open), the files opened more than once first.
# Needs ctags (universal), objdump and strace.
set -eu
src=$1 obj=$2 bin=$3 root=$4
for t in ctags objdump strace; do
	command -v "$t" >/dev/null || { echo "metrics.sh: $t is not installed" >&2; exit 2; }
done
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== modules"
ls "$src" | sed -n 's/\.[ch]$//p' | sort -u | wc -l | tr -d ' '
echo "   (.c files: $(ls "$src"/*.c | wc -l | tr -d ' '), lines of .c and .h: $(cat "$src"/*.c "$src"/*.h | wc -l | tr -d ' '))"

echo "== the 10 longest functions (lines)"
(cd "$src" && ctags -x --c-kinds=f --_xformat='%{end} %n %N %F' *.c) |
	awk '$1 ~ /^[0-9]+$/ { printf "%5d  %s  %s:%d\n", $1 - $2 + 1, $3, $4, $2 }' | sort -rn | head -n 10

echo "== writable variables at file scope or static in a function, per module (objdump -t)"
for o in "$obj"/*.o; do
	m=$(basename "$o" .o)
	# objects in .bss or .data; const tables of pointers sit in .data.rel.ro
	names=$(objdump -t "$o" | awk '$3 == "O" && $4 ~ /^\.(bss|data)/ && $4 !~ /rel\.ro/ && $NF !~ /^[._]/ {
		n = $NF; sub(/\.[0-9]+$/, "", n); print n }' | sort -u)
	n=$(printf '%s' "$names" | grep -c . || true)
	[ "$n" -gt 0 ] || continue
	total=$((total + n))
	printf '%4d  %-16s %s\n' "$n" "$m" "$(printf '%s' "$names" | tr '\n' ' ')"
done | sort -rn > "$tmp/vars"
cat "$tmp/vars"
echo "   ($(awk '{ s += $1 } END { print s + 0 }' "$tmp/vars") in $(wc -l < "$tmp/vars" | tr -d ' ') modules; modules with none are not listed)"

echo "== files opened by one '$(basename "$bin") verify' of $root (strace)"
(cd "$root" && strace -f -qq -o "$tmp/trace" -e trace=openat,open "$bin" verify ${METRICS_VERIFY_ARGS:-} >/dev/null 2>&1) || true
# the path argument of each successful open of a file inside the course
grep -v ' = -1 ' "$tmp/trace" | sed -n 's/.*open\(at\)\{0,1\}([^"]*"\([^"]*\)".*/\2/p' |
	grep -E '(^|/)(pages|programs|evidence)/' | sed "s|^$(cd "$root" && pwd)/||" | sort | uniq -c | sort -rn > "$tmp/opens"
printf 'course files and folders opened: %s, opens in all: %s, opened more than once: %s\n' \
	"$(wc -l < "$tmp/opens" | tr -d ' ')" "$(awk '{ s += $1 } END { print s + 0 }' "$tmp/opens")" \
	"$(awk '$1 > 1' "$tmp/opens" | wc -l | tr -d ' ')"
awk '$1 > 1' "$tmp/opens" | head -n 25
echo "   (opens per file: $(awk '{ print $1 }' "$tmp/opens" | sort -n | uniq -c | awk '{ printf "%s%s file(s) x%s", sep, $1, $2; sep = ", " }'))"
