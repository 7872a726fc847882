#!/bin/sh
# pair.sh - what one course shape costs over another (by default: a cite a
# page, cite-N over lesson-N), in paired rounds on one pinned CPU.
# Outside the tests, as bench.sh is.
#
#   pair.sh BINARY [PAIRS]
#
# Environment: PAIR_A and PAIR_B, the two shapes of gen-course.sh (default
# lesson and cite); BENCH_SIZES (default "1000 10000"); BENCH_OUT,
# BENCH_FLOOR, BENCH_TIME and BENCH_CPU as for bench.sh (the courses are
# bench.sh's, made once under BENCH_OUT/courses).
#
# bench.sh times every tool on every workload in a round, so the two runs
# it compares for a cite are seconds apart, and on a node whose one-core
# times swing by half between runs (BENCH.md) a few per cent are lost in
# that.  Here a round is only A and B at one size, each run as floor
# --hash then coursecheck verify -j 1, back to back, and the order swaps
# every round (A B, then B A): the figure is the median of the rounds' own
# B / A ratios, beside the ratio of medians and of the fastest runs, in
# wall time and in CPU time, with each shape's -j 1 / floor+hash and its
# 1,000 -> 10,000 lessons growth.
set -u
pairs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
sizes=${BENCH_SIZES:-1000 10000}
sa=${PAIR_A:-lesson} sb=${PAIR_B:-cite}
raw=$out/pair-raw.txt
: >"$raw"

for n in $sizes; do
	course "$sa" "$n"
	course "$sb" "$n"
done

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
i=1
while [ "$i" -le "$pairs" ]; do
	echo "pair: round $i of $pairs" >&2
	order="$sa $sb"
	[ $((i % 2)) -eq 0 ] && order="$sb $sa"
	for n in $sizes; do
		for s in $order; do
			measure "floor-hash" "$s-$n" "$out/courses/$s-$n" $pin "$out/floor" --hash .
			measure "cc-j1" "$s-$n" "$out/courses/$s-$n" $pin "$bin" verify -j 1
		done
	done
	i=$((i + 1))
done

{
	echo "## $(date -u +%Y-%m-%d), $(uname -n): $cores cores, load $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) at the end, $pairs paired rounds${pin:+, on CPU $cpu}: $sb-N against $sa-N"
	echo
	awk -v a="$sa" -v b="$sb" -v sizes="$sizes" "$stats_awk"'
		{ key = $1 " " $2; t[key] = t[key] " " $3; c[key] = c[key] " " ($5 + $6); if ($4 > m[key]) m[key] = $4 }
		function pct(x) { return sprintf("%+.1f %%", 100 * (x - 1)) }
		END {
			ns = split(sizes, sz, " ")
			printf "| workload | floor+hash ms, median (fastest) | -j1 ms, median (fastest) | -j1 CPU s, median | -j1 / floor+hash, median of the rounds%s ratios | peak MiB |\n| --- | ---: | ---: | ---: | ---: | ---: |\n", "\047"
			for (k = 1; k <= ns; k++) for (h = 0; h < 2; h++) {
				w = (h ? b : a) "-" sz[k]
				printf "| %s | %d (%d) | %d (%d) | %.2f | %.2f | %.1f |\n", w, median(t["floor-hash " w]), least(t["floor-hash " w]), \
					median(t["cc-j1 " w]), least(t["cc-j1 " w]), median(c["cc-j1 " w]), paired(t["cc-j1 " w], t["floor-hash " w]), m["cc-j1 " w] / 1024
			}
			printf "\n| lessons | %s over %s, wall: median of the rounds%s ratios | ratio of medians | fastest / fastest | CPU: median of the rounds%s ratios |\n| ---: | ---: | ---: | ---: | ---: |\n", b, a, "\047", "\047"
			for (k = 1; k <= ns; k++) {
				wa = "cc-j1 " a "-" sz[k]; wb = "cc-j1 " b "-" sz[k]
				printf "| %s | %s | %s | %s | %s |\n", sz[k], pct(paired(t[wb], t[wa])), pct(median(t[wb]) / median(t[wa])), \
					pct(least(t[wb]) / least(t[wa])), pct(paired(c[wb], c[wa]))
			}
			for (k = 2; k <= ns; k++) for (h = 0; h < 2; h++) {
				s = h ? b : a; w1 = "cc-j1 " s "-" sz[k - 1]; w2 = "cc-j1 " s "-" sz[k]
				printf "%s%s %s -> %s lessons: %.2fx (medians), %.2fx (fastest), %.2fx (CPU medians)\n", k == 2 && !h ? "\n" : "", s, sz[k - 1], sz[k], \
					median(t[w2]) / median(t[w1]), least(t[w2]) / least(t[w1]), median(c[w1]) ? median(c[w2]) / median(c[w1]) : 0
			}
		}' "$raw"
} | tee "$out/pair.md"
