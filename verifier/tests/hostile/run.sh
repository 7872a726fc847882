#!/bin/sh
# The hostile-input suite: each family of gen.sh at sizes 0, N and 2N, run
# on a copy of the demo fixture.  Each run must end as `families` says
# (its exit status, and the diagnostic id when one is named) and print at
# most the diagnostics cap; and the work must grow linearly: the
# instructions counted by callgrind (deterministic, unlike time) for the
# input's own part, I(2N) - I(0), may be at most RATIO_MAX times I(N) - I(0)
# (2 for linear work, 4 for quadratic).  A family whose line in `families`
# ends in x4 (issue 32's R06 families) runs at 0, N and 4N instead, held to
# RATIO_MAX_X4 (default 5; linear work is 4, quadratic 16): a small N then
# shows quadratic work as well as a large N would at x2, for fewer
# instructions counted.
#
# The families run HOSTILE_JOBS at a time (default: the online CPUs; the
# counts do not depend on it), each result printed in the order of
# `families`.  Most of a run's time is valgrind's own start (about 0.9 CPU s
# a run here, against 0.2 s more for the largest input), so the sizes stay.
#
#   run.sh BINARY [FAMILY...]      (the plain -O2 binary: valgrind is slow)
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
ratio_max2=${RATIO_MAX:-2.6}
ratio_max4=${RATIO_MAX_X4:-5}
command -v valgrind >/dev/null 2>&1 || { echo "hostile: valgrind is not installed (verifier/scripts/deps.sh full)"; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hostile.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0 fail=0

# callgrind DIR: the binary with $args under callgrind in DIR; its output
# in DIR.out, valgrind's log in DIR.vg; sets rc and ir (empty: no count)
callgrind() {
	# shellcheck disable=SC2086
	(cd "$1" && NO_COLOR=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$1.vg" \
		"$bin" $args >"$1.out" 2>&1)
	rc=$?
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$1.vg")
}

# count FAMILY N: runs one input under callgrind; sets ir, rc, out
count() {
	w=$scratch/$1-$2
	rm -rf "$w" && mkdir -p "$w"
	cp -R "$here/../fixtures/demo/." "$w/"
	# a course that lists no trusted key: its unsigned run is a warning
	# (evsig.h), whatever a family's exit status is about
	rm -f "$w/evidence/allowed_signers"
	args=$(COURSECHECK="$bin" sh "$here/gen.sh" "$1" "$2" "$w") || return 1
	if [ "$2" = 0 ]; then
		count_zero
		return
	fi
	callgrind "$w"
	out=$w.out
	[ -n "$ir" ]
}

# count_zero: the size-0 count, of the input gen.sh just wrote in $w
# with $args.  Several families' size 0 is the same input (the same tree and
# arguments: nested-list and nested-quote, nested-indent, bad-markers and
# cites): it is counted once, by the family that comes to it first, in a
# folder named after the input (so that its name, which the count reads
# too, is the same whichever family counts it), and the others read that
# count; 2 valgrind runs of 48 less.  Fails when there is no count; sets ir
# (size 0's rc and output are not judged).
count_zero() {
	key=$(cd "$w" && { printf '%s\n' "$args"; find . -type f | LC_ALL=C sort | xargs sha256sum; } |
		sha256sum | cut -c1-16)
	z=$scratch/zero-$key
	if mkdir "$z.lock" 2>/dev/null; then
		rm -rf "$z" && mv "$w" "$z" && mkdir -p "$w" || { : >"$z.ir"; return 1; }
		callgrind "$z"
		printf '%s\n' "$ir" >"$z.ir.tmp"
		mv "$z.ir.tmp" "$z.ir"
	else
		# another family counts it: wait for its count (at most 10 min)
		t=0
		while [ ! -f "$z.ir" ] && [ "$t" -lt 6000 ]; do sleep 0.1; t=$((t + 1)); done
	fi
	ir=$(cat "$z.ir" 2>/dev/null)
	out=$z.out
	[ -n "$ir" ]
}

# family FAM N ID WANT [x4]: the three runs of one family and its verdict,
# printed (on stdout) and added to the tally
family() {
	fam=$1 n=$2 id=$3 want=$4 times=2 ratio_max=$ratio_max2
	[ "${5:-}" = x4 ] && times=4 ratio_max=$ratio_max4
	why=""
	count "$fam" 0 || why="no count at size 0"
	i0=${ir:-0}
	for size in "$n" $((times * n)); do
		[ -z "$why" ] || break
		count "$fam" "$size" || { why="no count at size $size"; break; }
		[ "$size" = "$n" ] && i1=$ir || i2=$ir
		[ "$rc" = "$want" ] || why="exit $rc at size $size, want $want"
		if [ "$id" != - ] && ! grep -q "\\[$id\\]\$" "$out"; then
			why="no [$id] at size $size"
		fi
		# the cap holds: never more diagnostics printed than DIAG_MAX_PER_FILE per file
		shown=$(grep -c ': error: \|: warning: ' "$out")
		[ "$shown" -le 400 ] || why="$shown diagnostics printed at size $size"
	done
	if [ -z "$why" ]; then
		r=$(awk -v a="$i0" -v b="$i1" -v c="$i2" 'BEGIN { d = b - a; printf "%.2f", (d > 0 ? (c - a) / d : 99) }')
		awk -v r="$r" -v m="$ratio_max" 'BEGIN { exit !(r <= m) }' || why="work grows x$r for x$times input (limit $ratio_max; Ir $i0 / $i1 / $i2)"
	fi
	if [ -z "$why" ]; then
		printf 'ok %-14s N=%-7s Ir %s / %s / %s  x%s\n' "$fam" "$n" "$i0" "$i1" "$i2" "$r"
		echo ok >>"$scratch/tally"
	else
		printf 'FAIL %-14s N=%-7s %s\n' "$fam" "$n" "$why"
		sed 's/^/    /' "$out" 2>/dev/null | head -20
		echo fail >>"$scratch/tally"
	fi
}

jobs_max=${HOSTILE_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1
k=0 running=""
sel=" $* "
: >"$scratch/tally"
while read -r fam n id want times; do
	case $fam in '' | '#'*) continue ;; esac
	if [ "$sel" != "  " ]; then
		case $sel in *" $fam "*) ;; *) continue ;; esac
	fi
	k=$((k + 1))
	# at most jobs_max families at once: wait for the oldest
	# shellcheck disable=SC2086
	set -- $running
	if [ $# -ge "$jobs_max" ]; then
		wait "$1"
		shift
	fi
	running="$*"
	family "$fam" "$n" "$id" "$want" "$times" >"$scratch/result.$k" 2>&1 &
	running="$running $!"
done <"$here/families"
for p in $running; do wait "$p"; done
i=1
while [ "$i" -le "$k" ]; do
	cat "$scratch/result.$i"
	i=$((i + 1))
done
pass=$(grep -c ok "$scratch/tally" 2>/dev/null)
fail=$(grep -c fail "$scratch/tally" 2>/dev/null)
echo "hostile: ${pass:-0} passed, ${fail:-0} failed"
[ "${fail:-0}" = 0 ] && [ "${pass:-0}" != 0 ]
