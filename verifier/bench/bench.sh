#!/bin/sh
# bench.sh - how fast coursecheck verifies, against floors and a peer.
# Outside the tests: a timed test is a flaky test.
#
#   bench.sh BINARY [ROUNDS]
#
# Environment:
#   BENCH_SIZES      lesson counts (default "100 1000 10000")
#   BENCH_SHAPES     course shapes of gen-course.sh (default "lesson cite snippets day31")
#   BENCH_CPU        the CPU the one-core runs (the floors, -j 1, the
#                    baseline's -j 1) are pinned to with taskset (default the
#                    last online CPU; "none": not pinned)
#   BENCH_DAY31_MAX  largest size for the 25 KB day31 shape (default 1000)
#   BENCH_CALLGRIND  1: also count instructions (valgrind --tool=callgrind)
#                    at the sizes up to 1000
#   BENCH_OUT        results folder (default build/bench)
#   BENCH_BASELINE   a second coursecheck (an older build) timed in the same
#                    interleaved rounds, for a before/after table; its
#                    instructions are counted at the sizes up to
#                    BENCH_BASELINE_IR_MAX (default 100: it is the slow one)
#   BENCH_CALLGRIND_MAX  largest size counted by callgrind (default 1000)
#   BENCH_FLOOR      a floor program already built (default: build it here
#                    with cc and pkg-config); bundle.sh makes one for a
#                    machine without the libraries' headers
#   BENCH_TIME       GNU time (default /usr/bin/time), for peak memory
#
# Workloads: courses made by gen-course.sh from the real day 31 lesson, and
# embedme's own corpus (1,000 pages x 3 embedded snippets) when npm and node
# are there.  Tools: floor (read every byte + parse every page with
# cmark-gfm), floor --hash (also SHA-256 of the bytes of every program and
# evidence file), floor --seal (the hashes the seals are checked against: a
# source file's by its tokens, as evidence records them now; see floor.c),
# coursecheck verify -j 1, and coursecheck verify on every core.
# Rounds are interleaved (round 1 runs every tool on every workload, then
# round 2 ...) so that a change in the machine's load hits all of them alike;
# medians are reported, with peak memory, ratios and the load average.
# Workloads run size by size, and every other round in the reverse order,
# so that lesson-N and cite-N are neighbours in every round and each comes
# first as often as the other (the cost of a cite is their paired ratio).
# pair.sh, beside this, measures a cite's cost more finely, in rounds of
# only those two workloads.  The one-core ratio to floor+hash (issue 15's
# target) is given twice: as the ratio of the two medians, and as the
# median of each round's own ratio (the runs of a round are back to back,
# so it is the figure a drifting node moves least).  The ratio to
# floor+seal is beside it: how much of the gap the seal rule explains.
set -u
rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
sizes=${BENCH_SIZES:-100 1000 10000}
shapes=${BENCH_SHAPES:-lesson cite snippets day31}
day31_max=${BENCH_DAY31_MAX:-1000}
base=
if [ -n "${BENCH_BASELINE:-}" ]; then
	base=$(cd "$(dirname "$BENCH_BASELINE")" && pwd)/$(basename "$BENCH_BASELINE")
	[ -x "$base" ] || { echo "bench: BENCH_BASELINE $BENCH_BASELINE is not an executable" >&2; exit 2; }
	# one that cannot start (a library missing) would be timed at its
	# exit, a few milliseconds, and make a void before/after table
	"$base" --version >/dev/null 2>&1 || { echo "bench: BENCH_BASELINE $BENCH_BASELINE does not run: $("$base" --version 2>&1 | head -n 1)" >&2; exit 2; }
fi
base_parallel=
[ -z "$base" ] || ! "$base" verify --help 2>&1 | grep -q -- '-j' || base_parallel=1
ir_max=${BENCH_CALLGRIND_MAX:-1000}
base_ir_max=${BENCH_BASELINE_IR_MAX:-100}
raw=$out/raw.txt
: >"$raw"

# Does this coursecheck check pages on several cores (-j)?
parallel=
"$bin" verify --help 2>&1 | grep -q -- '-j' && parallel=1

# ---- the workloads ----
workloads=
for n in $sizes; do
	for shape in $shapes; do
		[ "$shape" = day31 ] && [ "$n" -gt "$day31_max" ] && continue
		course "$shape" "$n"
		workloads="$workloads $shape-$n"
	done
done

# embedme's corpus: 1,000 pages, each embedding 3 line ranges of a program.
embedme=
e=$out/embedme
if command -v node >/dev/null 2>&1; then
	# installed once with npm; a machine without npm can be given the
	# node_modules folder (bundle.sh)
	if [ ! -x "$e/node_modules/.bin/embedme" ] && command -v npm >/dev/null 2>&1; then
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
rev_workloads=
for wl in $workloads; do rev_workloads="$wl $rev_workloads"; done

loads=
round=1
while [ $round -le "$rounds" ]; do
	echo "bench: round $round of $rounds" >&2
	loads="$loads${loads:+, }$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)"
	order=$workloads
	[ $((round % 2)) -eq 0 ] && order=$rev_workloads
	for wl in $order; do
		dir=$out/courses/$wl
		measure floor "$wl" "$dir" $pin "$out/floor" .
		measure floor-hash "$wl" "$dir" $pin "$out/floor" --hash .
		measure floor-seal "$wl" "$dir" $pin "$out/floor" --seal .
		if [ -n "$parallel" ]; then
			measure cc-j1 "$wl" "$dir" $pin "$bin" verify -j 1
			measure cc-all "$wl" "$dir" "$bin" verify -j "$cores"
		else
			measure cc-j1 "$wl" "$dir" $pin "$bin" verify
		fi
		if [ -n "$base" ] && [ -n "$base_parallel" ]; then
			# like with like: a baseline that has -j is timed on one core
			# and on every core, as coursecheck is
			measure base "$wl" "$dir" $pin "$base" verify -j 1
			measure base-all "$wl" "$dir" "$base" verify -j "$cores"
		elif [ -n "$base" ]; then
			measure base "$wl" "$dir" $pin "$base" verify
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
		[ "$n" -le "$ir_max" ] || continue
		echo "ir floor $wl $(icount "$out/courses/$wl" "$out/floor" .)" >>"$raw"
		echo "ir floor-hash $wl $(icount "$out/courses/$wl" "$out/floor" --hash .)" >>"$raw"
		echo "ir floor-seal $wl $(icount "$out/courses/$wl" "$out/floor" --seal .)" >>"$raw"
		if [ -n "$parallel" ]; then
			echo "ir cc-j1 $wl $(icount "$out/courses/$wl" "$bin" verify -j 1)" >>"$raw"
		else
			echo "ir cc-j1 $wl $(icount "$out/courses/$wl" "$bin" verify)" >>"$raw"
		fi
		if [ -n "$base" ] && [ "$n" -le "$base_ir_max" ]; then
			echo "ir base $wl $(icount "$out/courses/$wl" "$base" verify ${base_parallel:+-j 1})" >>"$raw"
		fi
	done
fi

# ---- the report ----
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
{
	echo "## $(date -u +%Y-%m-%d), $(uname -n): $cores cores, load $load, $rounds interleaved rounds (median)${pin:+, one-core runs on CPU $cpu}"
	echo
	awk -v parallel="$parallel" -v loads="$loads" "$stats_awk"'
		$1 == "ir" { ir[$2 " " $3] = $4; next }
		{ key = $1 " " $2; t[key] = t[key] " " $3; if ($4 > m[key]) m[key] = $4; wl[$2] = 1 }
		# a targets row: -j 1 against one floor on workload w, by both statistics
		function one_core_row(w, floor, name, target,   f, c1, sh, n) {
			f = median(t[floor " " w]); c1 = median(t["cc-j1 " w])
			if (!f || !c1) return
			sh = w; sub(/-[0-9]+$/, "", sh); n = w; sub(/^.*-/, "", n)
			printf "| %s -j1 / %s at %s, time (%s) | %.2fx (ratio of medians), %.2fx (median of the rounds%s ratios) |\n", \
				sh, name, n == 1000 ? "1,000" : "10,000", target, c1 / f, paired(t["cc-j1 " w], t[floor " " w]), "\047"
		}
		END {
			printf "| workload | floor ms | floor+hash ms | floor+seal ms | coursecheck -j1 ms | coursecheck all cores ms | -j1 / floor+hash | -j1 / floor+seal | all cores / floor | peak MiB (-j1) |\n"
			printf "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
			for (w in wl) order[++k] = w
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (order[j] < order[i]) { x = order[i]; order[i] = order[j]; order[j] = x }
			for (i = 1; i <= k; i++) {
				w = order[i]
				if (w ~ /^embedme/) continue
				f = median(t["floor " w]); fh = median(t["floor-hash " w]); fs = median(t["floor-seal " w])
				c1 = median(t["cc-j1 " w]); ca = parallel ? median(t["cc-all " w]) : 0
				printf "| %s | %d | %d | %d | %d | %s | %.2f | %.2f | %s | %.1f |\n", w, f, fh, fs, c1, parallel ? ca : "-", \
					fh ? c1 / fh : 0, fs ? c1 / fs : 0, parallel && f ? sprintf("%.2f", ca / f) : "-", m["cc-j1 " w] / 1024
			}
			if (t["embedme embedme-1000"] != "") {
				ef = median(t["embedme embedme-1000"])
				c = parallel ? median(t["cc-all snippets-1000"]) : median(t["cc-j1 snippets-1000"])
				c1 = median(t["cc-j1 snippets-1000"])
				if (c1) printf "\nembedme --verify, its own corpus (1,000 pages x 3 snippets): %d ms; coursecheck on snippets-1000: %d ms -j1, %d ms all cores: embedme / coursecheck = %.2f (-j1), %.2f (all cores)\n", \
					ef, c1, c, ef / c1, c ? ef / c : 0
				else printf "\nembedme --verify, its own corpus: %d ms; no snippets-1000 workload to set it against\n", ef
			}
			if (t["base lesson-1000"] != "" || t["base lesson-100"] != "") {
				printf "\n| workload | baseline -j1 ms | coursecheck -j1 ms | after / before | baseline all cores ms | coursecheck all cores ms | after / before | baseline peak MiB | coursecheck peak MiB |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
				for (i = 1; i <= k; i++) {
					w = order[i]
					if (t["base " w] == "") continue
					b = median(t["base " w]); c1 = median(t["cc-j1 " w])
					# a baseline without -j runs one process: its all-cores column is its one run
					ba = t["base-all " w] != "" ? median(t["base-all " w]) : b
					ca = t["cc-all " w] != "" ? median(t["cc-all " w]) : c1
					printf "| %s | %d | %d | %.2f | %d | %d | %.2f | %.1f | %.1f |\n", w, b, c1, b ? c1 / b : 0, ba, ca, ba ? ca / ba : 0, m["base " w] / 1024, m["cc-j1 " w] / 1024
				}
			}
			if (length(ir)) {
				printf "\n| workload | floor Ir | floor+hash Ir | floor+seal Ir | coursecheck -j1 Ir | -j1 / floor+hash | -j1 / floor+seal |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
				for (i = 1; i <= k; i++) {
					w = order[i]
					if (ir["cc-j1 " w] == "") continue
					printf "| %s | %.0f M | %.0f M | %.0f M | %.0f M | %.2f | %.2f |\n", w, ir["floor " w] / 1e6, ir["floor-hash " w] / 1e6, \
						ir["floor-seal " w] / 1e6, ir["cc-j1 " w] / 1e6, ir["floor-hash " w] ? ir["cc-j1 " w] / ir["floor-hash " w] : 0, \
						ir["floor-seal " w] ? ir["cc-j1 " w] / ir["floor-seal " w] : 0
				}
				for (i = 1; i <= k; i++) {
					w = order[i]
					if (ir["base " w] == "") continue
					printf "\nbaseline %s: %.0f M instructions, coursecheck %.0f M (%.2f of it)\n", w, ir["base " w] / 1e6, \
						ir["cc-j1 " w] / 1e6, ir["base " w] ? ir["cc-j1 " w] / ir["base " w] : 0
				}
			}
			# the targets of issue 15, from the figures above
			printf "\n| target (issue 15) | figure |\n| --- | --- |\n"
			split("lesson snippets cite day31", shp, " ")
			for (s = 1; s <= 4; s++) {
				sh = shp[s]
				t1 = median(t["cc-j1 " sh "-100"]); t2 = median(t["cc-j1 " sh "-1000"]); t3 = median(t["cc-j1 " sh "-10000"])
				if (t1 && t2) printf "| %s time 100 -> 1,000 lessons (within 11x) | %.1fx |\n", sh, t2 / t1
				if (t2 && t3) printf "| %s time 1,000 -> 10,000 lessons (within 11x) | %.1fx |\n", sh, t3 / t2
				i1 = ir["cc-j1 " sh "-100"]; i2 = ir["cc-j1 " sh "-1000"]
				if (i1 && i2) printf "| %s instructions 100 -> 1,000 lessons (within 11x) | %.1fx |\n", sh, i2 / i1
				m2 = m["cc-j1 " sh "-1000"]; m3 = m["cc-j1 " sh "-10000"]
				if (m2 && m3) printf "| %s peak memory 10,000 / 1,000 lessons (at most 2x) | %.2fx (%.1f / %.1f MiB) |\n", sh, m3 / m2, m3 / 1024, m2 / 1024
				for (n = 1000; n <= 10000; n *= 10) {
					one_core_row(sh "-" n, "floor-hash", "floor+hash", "within 2x")
					one_core_row(sh "-" n, "floor-seal", "floor+seal", "no target: the floor hashes by the tokens rule too")
				}
				if (ir["floor-hash " sh "-1000"] && i2) printf "| %s -j1 / floor+hash at 1,000, instructions (within 2x) | %.2fx |\n", sh, i2 / ir["floor-hash " sh "-1000"]
			}
			for (n = 100; n <= 10000; n *= 10) {
				a = median(t["cc-j1 cite-" n]); b = median(t["cc-j1 lesson-" n])
				if (a && b) printf "| a cite a page at %d lessons, time (under +10 %%) | %+.1f %% (ratio of medians), %+.1f %% (median of the rounds%s ratios) |\n", \
					n, 100 * (a / b - 1), 100 * (paired(t["cc-j1 cite-" n], t["cc-j1 lesson-" n]) - 1), "\047"
				a = ir["cc-j1 cite-" n]; b = ir["cc-j1 lesson-" n]
				if (a && b) printf "| a cite a page at %d lessons, instructions (under +10 %%) | %+.1f %% |\n", n, 100 * (a / b - 1)
			}
			if (t["embedme embedme-1000"] != "") {
				ef = median(t["embedme embedme-1000"]); c1 = median(t["cc-j1 snippets-1000"])
				ca = median(t["cc-all snippets-1000"])
				if (ca) printf "| embedme / coursecheck on every core (its default), 1,000 pages x 3 snippets (at least 3x) | %.2fx |\n", ef / ca
				if (c1) printf "| embedme / coursecheck -j1, 1,000 pages x 3 snippets (at least 3x) | %.2fx |\n", ef / c1
			}
			if (loads != "") printf "\nLoad average (1 min) at the start of each round: %s\n", loads
		}' "$raw"
} | tee "$out/results.md"
