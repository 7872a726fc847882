#!/bin/sh
# Mutation test over the course's real pages.  For each page, in a scratch
# copy of the repository, make one change at a time and require that
# `coursecheck verify` fails with the expected diagnostic id:
#   a traced prose number        -> number-untraced
#   one line of a quoted snippet -> snippet-drift
#   one line of a transcript     -> transcript-drift
#   one measured fact (the GPU)  -> fact-gpu
#   the program, inside a quoted snippet -> snippet-drift
#   each claim annotation: an evidence number it reads, made 0 or
#   999999 (and its repeat values with it), the evidence re-sealed
#                                -> claim-false at the claim's line
# and the same mutations as a reader would see them written other ways:
#   the changed number inside a <div>            -> number-untraced
#   another GPU in a <div> sentence about the run -> fact-gpu
#   the changed transcript line in a marked <pre> -> transcript-drift
#   the traced number split by a soft hyphen     -> number-split
#   the changed number as a constant-only derivation (its digits times
#   powers of ten, every literal free)           -> derive-unanchored
# and that the untouched copy passes.  The places come from the page's own
# ledger (`coursecheck explain`), so the test follows the pages as they grow.
# MUTATE_JOBS=N checks the whole course at each step instead of the page,
# with -j N and with -j 1, and requires the two to print the same and exit
# the same (make jobs-test).
#   mutate.sh BINARY
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
seal=$top/verifier/tests/seal-evidence.sh
# MUTATE_ROOT: another course to mutate (to test this script on a fixture)
[ -n "${MUTATE_ROOT:-}" ] && top=$(cd "$MUTATE_ROOT" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0 fail=0

fresh() {
	rm -rf "$scratch/repo"
	mkdir -p "$scratch/repo"
	(cd "$top" && cp -R pages programs evidence "$scratch/repo/")
}

# verify_run PAGE: $out and $rc of `coursecheck verify PAGE` in the copy,
# which the caller judges; under MUTATE_JOBS=N also the whole course at
# -j N, whose output and exit status must be those of -j 1 (else a failure)
verify_run() {
	if [ -n "${MUTATE_JOBS:-}" ]; then
		# the two runs at once (they only read the copy): -j 1 leaves cores idle
		(cd "$scratch/repo" && NO_COLOR=1 "$bin" verify -j 1 >"$scratch/one" 2>&1; echo "[exit $?]" >>"$scratch/one") &
		many=$(cd "$scratch/repo" && NO_COLOR=1 "$bin" verify -j "$MUTATE_JOBS" 2>&1; echo "[exit $?]")
		wait $!
		one=$(cat "$scratch/one")
		if [ "$one" != "$many" ]; then
			echo "FAIL -j $MUTATE_JOBS differs from -j 1 (checking $1):"
			printf '%s\n' "$one" | diff - "$(printf '%s\n' "$many" >"$scratch/out"; echo "$scratch/out")" | head -20 | sed 's/^/    /'
			fail=$((fail + 1))
		fi
	fi
	out=$(cd "$scratch/repo" && NO_COLOR=1 "$bin" verify "$1" 2>&1)
	rc=$?
}

# expect NAME PAGE ID: verify must fail and name ID
expect() {
	verify_run "$2"
	if [ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q "\[$3\]"; then
		echo "ok $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1: wanted exit 1 with [$3], got exit $rc"
		printf '%s\n' "$out" | head -20 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
}

# edit FILE LINE COL: change the digit at LINE:COL (0->1, others down by one)
bump_digit() {
	awk -v L="$2" -v C="$3" 'NR == L {
		d = substr($0, C, 1); n = (d == "0") ? "1" : d - 1
		$0 = substr($0, 1, C - 1) n substr($0, C + 1) } { print }' "$1" > "$1.new" && mv "$1.new" "$1"
}
# append TEXT to line LINE of FILE
append_line() {
	awk -v L="$2" -v T="$3" 'NR == L { $0 = $0 T } { print }' "$1" > "$1.new" && mv "$1.new" "$1"
}

# set_number FILE LINE COL VALUE: the evidence number at LINE:COL becomes
# VALUE, and so does each of its repeat values (repeat-values: stdout L:C)
set_number() {
	hdr=$(grep -n '^stdout: ' "$1" | head -1 | cut -d: -f1)
	awk -v L="$2" -v C="$3" -v V="$4" -v K="$(($2 - hdr)):$3=" '
		NR == L { rest = substr($0, C); n = match(rest, /^[-0-9.,]+/) ? RLENGTH : 0
			$0 = substr($0, 1, C - 1) V substr(rest, n + 1) }
		NR < L && /^repeat-values: / { out = ""; m = split(substr($0, 16), e, " ")
			for (i = 1; i <= m; i++) {
				if (index(e[i], K) == 1) { c = split(substr(e[i], length(K) + 1), vs, ","); e[i] = K V
					for (j = 2; j <= c; j++) e[i] = e[i] "," V }
				out = out (i > 1 ? " " : "") e[i] }
			$0 = "repeat-values: " out }
		{ print }' "$1" > "$1.new" && mv "$1.new" "$1"
	# the lesson's files are the course's own (fresh) at every claim
	# mutation: `lesson-files`, which the seal reads, is asked once a lesson
	lesson=$(sed -n 's/^lesson: //p' "$1" | head -1)
	lf=$scratch/lesson-files.$(printf '%s' "$lesson" | tr -c 'A-Za-z0-9._-' _)
	[ -f "$lf" ] || "$bin" lesson-files --root "$scratch/repo" "$lesson" >"$lf" 2>/dev/null
	SEAL_LESSON_FILES=$(cat "$lf") COURSECHECK=$bin sh "$seal" "$scratch/repo" "$1" >/dev/null 2>&1
}

# mutate_claim NAME PAGE LINE OPERANDS: some operand made 0 or 999999 must
# turn the claim false, reported at its line
mutate_claim() {
	for place in $4; do
		# PATH:LINE:COL (the ledger's operand), split by the shell
		ev=${place%:*:*} l=${place%:*} c=${place##*:}
		l=${l##*:}
		for v in 0 999999; do
			fresh; set_number "$scratch/repo/$ev" "$l" "$c" "$v"
			verify_run "$2"
			if printf '%s\n' "$out" | grep -q "^$2:$3:[0-9]*: error: .*\[claim-false\]"; then
				echo "ok $1: claim at line $3 caught ($ev:$l:$c made $v)"
				pass=$((pass + 1))
				return
			fi
		done
	done
	echo "FAIL $1: no mutation of the claim at line $3 (operands: ${4:-none}) made it false there"
	fail=$((fail + 1))
}

pages=$(cd "$top" && ls pages/*.md 2>/dev/null)
if [ -z "$pages" ]; then
	echo "mutate: no pages yet"
	echo "mutate: 0 passed, 1 failed"
	exit 1
fi
for page in $pages; do
	name=$(basename "$page" .md)
	fresh
	ledger=$(cd "$scratch/repo" && "$bin" explain "$page" 2>/dev/null)
	verify_run "$page"
	if [ "$rc" = 0 ]; then
		echo "ok $name: untouched copy passes"; pass=$((pass + 1))
	else
		echo "FAIL $name: the untouched copy does not pass"; fail=$((fail + 1))
	fi

	# 1. a traced prose number: its last digit changes
	row=$(printf '%s\n' "$ledger" | grep ': traced .* <- evidence/' | grep -v '(table row)' | head -1)
	if [ -n "$row" ]; then
		line=$(echo "$row" | cut -d: -f2) col=$(echo "$row" | cut -d: -f3)
		claim=$(echo "$row" | sed 's/.*traced  *//; s/ <- .*//')
		last=$((col + $(printf '%s' "$claim" | sed 's/ .*//; s/[^0-9]*$//' | wc -c) - 2))
		fresh; bump_digit "$scratch/repo/$page" "$line" "$last"
		expect "$name: traced number $claim at $line:$col" "$page" number-untraced
	else
		echo "FAIL $name: no traced prose number to mutate"; fail=$((fail + 1))
	fi

	if [ -n "$row" ]; then
		# the same number changed, written inside raw HTML
		changed=$(printf '%s\n' "$claim" | awk '{ for (i = length($0); i > 0; i--) { d = substr($0, i, 1)
			if (d ~ /[0-9]/) { n = (d == "0") ? "1" : d - 1; print substr($0, 1, i - 1) n substr($0, i + 1); exit } } }')
		# the paragraph of the changed number made a raw HTML block: a
		# <div> line before it, a </div> line after it
		fresh; bump_digit "$scratch/repo/$page" "$line" "$last"
		awk -v L="$line" '{ t[NR] = $0 } END { a = L; while (a > 1 && t[a - 1] !~ /^[ \t]*$/) a--
			z = L; while (z < NR && t[z + 1] !~ /^[ \t]*$/) z++
			for (i = 1; i <= NR; i++) { if (i == a) print "<div>"; print t[i]; if (i == z) print "</div>" } }' \
			"$scratch/repo/$page" > "$scratch/x" && mv "$scratch/x" "$scratch/repo/$page"
		expect "$name: traced number $claim changed to $changed, its paragraph inside <div>" "$page" number-untraced
		# split by a soft hyphen after its first digit
		fresh
		awk -v L="$line" -v C="$col" 'NR == L { $0 = substr($0, 1, C) "\302\255" substr($0, C + 1) } { print }' \
			"$scratch/repo/$page" > "$scratch/x" && mv "$scratch/x" "$scratch/repo/$page"
		if printf '%s' "$claim" | grep -q '^[0-9][0-9.,]'; then
			expect "$name: traced number $claim split by a soft hyphen" "$page" number-split
		fi
		# changed, then "derived" from constants: digits times powers of ten
		expr=$(printf '%s\n' "$changed" | awk '{ s = $1; gsub(/,/, "", s); sub(/[^0-9.].*$/, "", s)
			p = index(s, "."); ip = p ? substr(s, 1, p - 1) : s; fp = p ? substr(s, p + 1) : ""
			out = ""; n = length(ip)
			for (i = 1; i <= n; i++) { t = substr(ip, i, 1) " * 1"; for (k = i; k < n; k++) t = t "0"; out = out (out == "" ? "" : " + ") t }
			for (i = 1; i <= length(fp); i++) { t = substr(fp, i, 1) " * 0."; for (k = 1; k < i; k++) t = t "0"; t = t "1"; out = out " + " t }
			print out }')
		fresh
		awk -v L="$line" -v C="$col" -v W="$claim" -v N="$changed" -v E="$expr" 'NR == L {
			$0 = substr($0, 1, C - 1) N " <!-- = " E " -->" substr($0, C + length(W)) } { print }' \
			"$scratch/repo/$page" > "$scratch/x" && mv "$scratch/x" "$scratch/repo/$page"
		expect "$name: traced number $claim changed to $changed <!-- = $expr -->" "$page" derive-unanchored
	fi
	fresh; printf '\n<div>The run was captured on an NVIDIA Tesla T4.</div>\n' >>"$scratch/repo/$page"
	expect "$name: another GPU in a <div> sentence about the run" "$page" fact-gpu

	# 2. one line of a snippet block, and 5. the program inside that snippet
	row=$(printf '%s\n' "$ledger" | grep ": code .*snippet '" | head -1)
	if [ -n "$row" ]; then
		line=$(echo "$row" | cut -d: -f2)
		fresh; append_line "$scratch/repo/$page" $((line + 1)) " /* changed */"
		expect "$name: snippet block line $((line + 1))" "$page" snippet-drift
		prog=$(echo "$row" | sed "s/.* of //; s/:[0-9]*$//")
		start=$(echo "$row" | sed 's/.*://')
		fresh; append_line "$scratch/repo/$prog" $((start + 1)) " /* changed */"
		expect "$name: $prog line $((start + 1)) inside the snippet" "$page" snippet-drift
	else
		echo "FAIL $name: no snippet block to mutate"; fail=$((fail + 1))
	fi

	# 3. one line of a transcript excerpt
	row=$(printf '%s\n' "$ledger" | grep ': code  *transcript' | head -1)
	if [ -n "$row" ]; then
		line=$(echo "$row" | cut -d: -f2)
		fresh; append_line "$scratch/repo/$page" $((line + 1)) " changed"
		expect "$name: transcript line $((line + 1))" "$page" transcript-drift
		# the same changed line quoted in a <pre> with its marker
		first=$(sed -n "$((line + 2))p" "$scratch/repo/$page" | sed 's/&/\&amp;/g; s/</\&lt;/g')
		fresh; printf '\n<!-- transcript -->\n<pre>\n%s changed\n</pre>\n' "$first" >>"$scratch/repo/$page"
		expect "$name: transcript line $((line + 2)) changed, in a <pre>" "$page" transcript-drift
	else
		echo "FAIL $name: no transcript excerpt to mutate"; fail=$((fail + 1))
	fi

	# 4. one measured fact: the GPU's name
	row=$(printf '%s\n' "$ledger" | grep ': fact .*(gpu: ' | head -1)
	if [ -n "$row" ]; then
		line=$(echo "$row" | cut -d: -f2)
		gpu=$(echo "$row" | sed 's/.*(gpu: //; s/)$//')
		fresh
		# the name as the line writes it: the evidence's whole name, or its
		# model alone ("the H200")
		awk -v L="$line" -v G="$gpu" 'NR == L { i = index($0, G)
			if (!i) { n = split(G, w, " "); G = w[n]; i = index($0, G) }
			if (i) $0 = substr($0, 1, i - 1) "Tesla T4" substr($0, i + length(G)) } { print }' \
			"$scratch/repo/$page" > "$scratch/x" && mv "$scratch/x" "$scratch/repo/$page"
		expect "$name: measured GPU at line $line" "$page" fact-gpu
	else
		echo "FAIL $name: no measured paragraph naming the GPU"; fail=$((fail + 1))
	fi

	# 6. each claim annotation, through the evidence numbers it reads
	printf '%s\n' "$ledger" | grep "^$page:[0-9]*:[0-9]*: claim " | while IFS= read -r row; do
		line=$(echo "$row" | cut -d: -f2)
		ops=$(printf '%s\n' "$row" | grep -o '(evidence/[^)]*:[0-9]*:[0-9]*)' | tr -d '()' | sort -u)
		mutate_claim "$name" "$page" "$line" "$ops"
		echo "$pass $fail" > "$scratch/counts"
	done
	if [ -f "$scratch/counts" ]; then
		read -r pass fail < "$scratch/counts"
		rm -f "$scratch/counts"
	fi
done
echo "mutate: $pass passed, $fail failed"
[ "$fail" = 0 ]
