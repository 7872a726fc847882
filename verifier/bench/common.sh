# common.sh - what bench.sh and pair.sh share, sourced by both: the floor,
# GNU time, the pinned CPU, the generated courses and one timed run.
# Sourced with the script's arguments and here (this folder) set; sets
# bin (the coursecheck of $1, an absolute path), top (the repository), out
# (the results folder, BENCH_OUT), cores, pin and timer.  The script sets
# raw (its raw figures' file) before its first measure.  Reads
# BENCH_FLOOR, BENCH_TIME and BENCH_CPU (see bench.sh).

[ $# -ge 1 ] && [ -x "$1" ] || { echo "bench: usage: $(basename "$0") BINARY [ROUNDS]; BINARY a coursecheck" >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$here/../.." && pwd)
out=${BENCH_OUT:-$top/build/bench}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
mkdir -p "$out/courses" || exit 2
# absolute: the runs are timed from inside each course
out=$(cd "$out" && pwd)

# ---- the floor ----
if [ -n "${BENCH_FLOOR:-}" ]; then
	cp "$BENCH_FLOOR" "$out/floor" || exit 2
else
	sh "$here/build-floor.sh" "$out/floor" || { echo "bench: cannot build the floor" >&2; exit 2; }
fi
timer=${BENCH_TIME:-/usr/bin/time}
[ -x "$timer" ] || { echo "bench: $timer (GNU time) is not there: set BENCH_TIME" >&2; exit 2; }

# The one-core runs share one pinned CPU: a process the scheduler moves
# between cores mid-run (or onto a core a neighbour is busy on) is what
# spread the node's one-core times most.
pin=
cpu=${BENCH_CPU:-$((cores - 1))}
if [ "$cpu" != none ] && command -v taskset >/dev/null 2>&1 && taskset -c "$cpu" true 2>/dev/null; then
	pin="taskset -c $cpu"
fi

# The reports' statistics, put before each report's awk program.  The
# lists are of figures in the order of the rounds, space-separated.
# median(list); least(list); paired(xs, ys): the median of the ratios
# x_i / y_i, the i-th figure of each list from the same round, minutes
# apart at most, so that a round the node ran slow in moves both (a ratio
# of medians takes each side from a different round); a y_i of 0 (CPU
# seconds under GNU time's 10 ms) is left out, and lists of unequal
# length give 0.
stats_awk='
	function median(s,   v, n, i, j, x) {
		n = split(s, v, " ")
		for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	function least(s,   v, n, i, x) {
		n = split(s, v, " "); x = v[1]
		for (i = 2; i <= n; i++) if (v[i] < x) x = v[i]
		return x
	}
	function paired(s, r,   p, q, n, i, z) {
		n = split(s, p, " ")
		if (split(r, q, " ") != n) return 0
		z = ""
		for (i = 1; i <= n; i++) if (q[i] > 0) z = z " " p[i] / q[i]
		return z == "" ? 0 : median(z)
	}
'

# course SHAPE N: makes $out/courses/SHAPE-N once (gen-course.sh), and
# stops the benchmark if it does not verify clean.
course() {
	dir=$out/courses/$1-$2
	if [ ! -f "$dir/.made" ]; then
		rm -rf "$dir"
		echo "bench: making $1-$2" >&2
		sh "$here/gen-course.sh" "$1" "$2" "$dir" "$top" || exit 2
		touch "$dir/.made"
	fi
	# a course that does not verify clean measures the wrong thing
	if ! (cd "$dir" && "$bin" verify >/dev/null 2>&1); then
		echo "bench: $1-$2 does not verify clean; remove $dir and look" >&2
		(cd "$dir" && "$bin" verify 2>&1 | tail -n 3) >&2
		exit 2
	fi
}

# measure LABEL WORKLOAD DIR CMD...: one run; appends to $raw
# "LABEL WORKLOAD ms kb user_s sys_s" (wall milliseconds, peak memory,
# CPU seconds: GNU time's %M %U %S).
measure() {
	label=$1 wl=$2 dir=$3
	shift 3
	a=$(date +%s%N)
	(cd "$dir" && "$timer" -f '%M %U %S' "$@" >/dev/null 2>"$out/time.err")
	b=$(date +%s%N)
	echo "$label $wl $(((b - a) / 1000000)) $(tail -n 1 "$out/time.err")" >>"$raw"
}
