#!/bin/sh
# bench.sh - how fast coursecheck verifies, against floors and a peer.
# Outside the tests: a timed test is a flaky test.
#
#   bench.sh BINARY [ROUNDS]
#
# Environment:
#   BENCH_SIZES      lesson counts (default "100 1000 10000")
#   BENCH_SHAPES     course shapes of gen-course.sh (default "lesson snippets cite day31")
#   BENCH_DAY31_MAX  largest size for the 25 KB day31 shape (default 1000)
#   BENCH_CALLGRIND  1: also count instructions (valgrind --tool=callgrind)
#                    at the sizes up to 1000
#   BENCH_OUT        results folder (default build/bench)
#
# Workloads: courses made by gen-course.sh from the real day 31 lesson, and
# embedme's own corpus (1,000 pages x 3 embedded snippets) when npm and node
# are there.  Tools: floor (read every byte + parse every page with
# cmark-gfm), floor --hash (also SHA-256 of every program and evidence
# file), coursecheck verify -j 1, and coursecheck verify on every core.
# Rounds are interleaved (round 1 runs every tool on every workload, then
# round 2 ...) so that a change in the machine's load hits all of them alike;
# medians are reported, with peak memory, ratios and the load average.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${BENCH_OUT:-$top/build/bench}
sizes=${BENCH_SIZES:-100 1000 10000}
shapes=${BENCH_SHAPES:-lesson snippets cite day31}
day31_max=${BENCH_DAY31_MAX:-1000}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
mkdir -p "$out/courses"
raw=$out/raw.txt
: >"$raw"

# ---- the floor ----
cc -O2 -std=c11 -D_GNU_SOURCE "$here/floor.c" $(pkg-config --cflags --libs libcmark-gfm libcrypto) \
	-lcmark-gfm-extensions -o "$out/floor" || { echo "bench: cannot build the floor" >&2; exit 2; }

# Does this coursecheck check pages on several cores (-j)?
parallel=
"$bin" verify --help 2>&1 | grep -q -- '-j' && parallel=1

# ---- the workloads ----
workloads=
for shape in $shapes; do
	for n in $sizes; do
		[ "$shape" = day31 ] && [ "$n" -gt "$day31_max" ] && continue
		dir=$out/courses/$shape-$n
		if [ ! -f "$dir/.made" ]; then
			rm -rf "$dir"
			echo "bench: making $shape-$n" >&2
			sh "$here/gen-course.sh" "$shape" "$n" "$dir" "$top" || exit 2
			touch "$dir/.made"
		fi
		# a course that does not verify clean measures the wrong thing
		if ! (cd "$dir" && "$bin" verify >/dev/null 2>&1); then
			echo "bench: $shape-$n does not verify clean; remove $dir and look" >&2
			(cd "$dir" && "$bin" verify 2>&1 | tail -n 3) >&2
			exit 2
		fi
		workloads="$workloads $shape-$n"
	done
done

# embedme's corpus: 1,000 pages, each embedding 3 line ranges of a program.
embedme=
if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
	e=$out/embedme
	if [ ! -x "$e/node_modules/.bin/embedme" ]; then
		mkdir -p "$e" && (cd "$e" && npm install --silent --no-audit --no-fund embedme@1.22.1 >/dev/null 2>&1)
	fi
	if [ -x "$e/node_modules/.bin/embedme" ]; then
		if [ ! -f "$e/corpus/.made" ]; then
			rm -rf "$e/corpus"
			mkdir -p "$e/corpus/src" "$e/corpus/docs"
			prog=$(ls "$top"/programs/day31-scan-1/*.cu | head -n 1)
			i=1
			while [ $i -le 1000 ]; do
				f=$(printf 'l%05d' $i)
				cp "$prog" "$e/corpus/src/$f.cu"
				printf '# %s\n\n```cuda\n// src/%s.cu#L20-L60\n```\n\ntext\n\n```cuda\n// src/%s.cu#L80-L120\n```\n\ntext\n\n```cuda\n// src/%s.cu#L140-L180\n```\n' \
					"$f" "$f" "$f" "$f" >"$e/corpus/docs/$f.md"
				i=$((i + 1))
			done
			(cd "$e/corpus" && "$e/node_modules/.bin/embedme" --silent docs/*.md >/dev/null 2>&1)
			touch "$e/corpus/.made"
		fi
		(cd "$e/corpus" && "$e/node_modules/.bin/embedme" --silent --verify docs/*.md >/dev/null 2>&1) &&
			embedme="$e/node_modules/.bin/embedme"
	fi
fi
[ -n "$embedme" ] || echo "bench: embedme not measured (needs npm and node, and its corpus to verify)" >&2

# ---- timing ----
# measure LABEL WORKLOAD DIR CMD...: one run; appends "LABEL WORKLOAD ms kb".
measure() {
	label=$1 wl=$2 dir=$3
	shift 3
	a=$(date +%s%N)
	(cd "$dir" && /usr/bin/time -f '%M' "$@" >/dev/null 2>"$out/time.err")
	b=$(date +%s%N)
	ms=$(((b - a) / 1000000))
	kb=$(tail -n 1 "$out/time.err")
	echo "$label $wl $ms $kb" >>"$raw"
}

round=1
while [ $round -le "$rounds" ]; do
	echo "bench: round $round of $rounds" >&2
	for wl in $workloads; do
		dir=$out/courses/$wl
		measure floor "$wl" "$dir" "$out/floor" .
		measure floor-hash "$wl" "$dir" "$out/floor" --hash .
		if [ -n "$parallel" ]; then
			measure cc-j1 "$wl" "$dir" "$bin" verify -j 1
			measure cc-all "$wl" "$dir" "$bin" verify -j "$cores"
		else
			measure cc-j1 "$wl" "$dir" "$bin" verify
		fi
	done
	if [ -n "$embedme" ]; then
		measure embedme embedme-1000 "$out/embedme/corpus" sh -c "\"$embedme\" --silent --verify docs/*.md"
	fi
	round=$((round + 1))
done

# ---- instructions ----
icount() {
	(cd "$1" && shift && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null) |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
if [ "${BENCH_CALLGRIND:-}" = 1 ] && command -v valgrind >/dev/null 2>&1; then
	for wl in $workloads; do
		n=${wl##*-}
		[ "$n" -le 1000 ] || continue
		echo "ir floor $wl $(icount "$out/courses/$wl" "$out/floor" .)" >>"$raw"
		echo "ir floor-hash $wl $(icount "$out/courses/$wl" "$out/floor" --hash .)" >>"$raw"
		if [ -n "$parallel" ]; then
			echo "ir cc-j1 $wl $(icount "$out/courses/$wl" "$bin" verify -j 1)" >>"$raw"
		else
			echo "ir cc-j1 $wl $(icount "$out/courses/$wl" "$bin" verify)" >>"$raw"
		fi
	done
fi

# ---- the report ----
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
{
	echo "## $(date -u +%Y-%m-%d), $(uname -n): $cores cores, load $load, $rounds interleaved rounds (median)"
	echo
	awk -v parallel="$parallel" '
		$1 == "ir" { ir[$2 " " $3] = $4; next }
		{ key = $1 " " $2; t[key] = t[key] " " $3; if ($4 > m[key]) m[key] = $4; wl[$2] = 1 }
		function median(s,   a, n, i, j, x) {
			n = split(s, a, " ")
			for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END {
			printf "| workload | floor ms | floor+hash ms | coursecheck -j1 ms | coursecheck all cores ms | -j1 / floor+hash | all cores / floor | peak MiB (-j1) |\n"
			printf "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
			for (w in wl) order[++k] = w
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (order[j] < order[i]) { x = order[i]; order[i] = order[j]; order[j] = x }
			for (i = 1; i <= k; i++) {
				w = order[i]
				if (w ~ /^embedme/) continue
				f = median(t["floor " w]); fh = median(t["floor-hash " w]); c1 = median(t["cc-j1 " w])
				ca = parallel ? median(t["cc-all " w]) : 0
				printf "| %s | %d | %d | %d | %s | %.2f | %s | %.1f |\n", w, f, fh, c1, parallel ? ca : "-", \
					fh ? c1 / fh : 0, parallel && f ? sprintf("%.2f", ca / f) : "-", m["cc-j1 " w] / 1024
			}
			if (t["embedme embedme-1000"] != "") {
				ef = median(t["embedme embedme-1000"])
				c = parallel ? median(t["cc-all snippets-1000"]) : median(t["cc-j1 snippets-1000"])
				c1 = median(t["cc-j1 snippets-1000"])
				printf "\nembedme --verify, its own corpus (1,000 pages x 3 snippets): %d ms; coursecheck on snippets-1000: %d ms -j1, %d ms all cores: embedme / coursecheck = %.2f (-j1), %.2f (all cores)\n", \
					ef, c1, c, c1 ? ef / c1 : 0, c ? ef / c : 0
			}
			if (length(ir)) {
				printf "\n| workload | floor Ir | floor+hash Ir | coursecheck -j1 Ir | -j1 / floor+hash |\n| --- | ---: | ---: | ---: | ---: |\n"
				for (i = 1; i <= k; i++) {
					w = order[i]
					if (ir["cc-j1 " w] == "") continue
					printf "| %s | %.0f M | %.0f M | %.0f M | %.2f |\n", w, ir["floor " w] / 1e6, ir["floor-hash " w] / 1e6, \
						ir["cc-j1 " w] / 1e6, ir["floor-hash " w] ? ir["cc-j1 " w] / ir["floor-hash " w] : 0
				}
			}
		}' "$raw"
} | tee "$out/results.md"
