#!/bin/sh
# ci-time.sh - how long `bash .ci/run` takes on a fresh clone, for several
# revisions in interleaved rounds (a busy machine slows every revision of a
# round alike, so revisions are compared within a round).
#
#   verifier/bench/ci-time.sh [-r ROUNDS] [-o FILE] REV...
#
# Each round clones this repository afresh for each REV (git clone, then
# checkout REV: no build output, no cached program builds) and runs
# `.ci/run` in the clone under GNU time, so each figure is a clean clone's
# wall time and its CPU seconds (user + system, the children included).
# `.ci/run` must exit 0 with no stage reporting a failed test, or the run
# is marked failed.  Each
# run appends one line to FILE (default build/bench/ci-time.txt):
#
#   ROUND REV COMMIT WALL_S USER_S SYS_S LOAD1 ok|failed
#
# and the script ends with the median wall and CPU seconds of each REV.
# The clones live in a fresh temporary folder, removed at the end.
set -u
rounds=1 out=
while getopts r:o: o; do
	case $o in
	r) rounds=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: ci-time.sh [-r ROUNDS] [-o FILE] REV..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: ci-time.sh [-r ROUNDS] [-o FILE] REV..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "ci-time.sh: GNU time (/usr/bin/time) is not installed" >&2; exit 2; }
top=$(git rev-parse --show-toplevel) || exit 2
out=${out:-$top/build/bench/ci-time.txt}
mkdir -p "$(dirname "$out")"
for rev in "$@"; do
	git -C "$top" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
		{ echo "ci-time.sh: $rev is not a commit" >&2; exit 2; }
done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ci-time.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM

r=1
while [ "$r" -le "$rounds" ]; do
	for rev in "$@"; do
		commit=$(git -C "$top" rev-parse --short "$rev^{commit}")
		clone=$scratch/$r-$commit
		git clone -q "$top" "$clone" && git -C "$clone" checkout -q "$commit" || exit 2
		load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -)
		verdict=failed
		# .ci/run stops at the first stage that fails; each stage of make
		# test and make test-slow ends on "test: N passed, 0 failed, ..."
		(cd "$clone" && /usr/bin/time -f "%e %U %S" -o "$scratch/time" bash .ci/run >"$scratch/log" 2>&1) &&
			! grep -q '^test: [0-9]* passed, [1-9]' "$scratch/log" && verdict=ok
		printf '%s %s %s %s %s\n' "$r" "$rev" "$commit" "$(tail -n 1 "$scratch/time")" "$load $verdict" | tee -a "$out"
		[ "$verdict" = ok ] || tail -n 20 "$scratch/log" >&2
		rm -rf "$clone"
	done
	r=$((r + 1))
done

# the medians of this invocation's lines (the last ROUNDS x REVs of FILE)
tail -n $((rounds * $#)) "$out" | awk '
	{ k = $2; n[k]++; w[k, n[k]] = $4; c[k, n[k]] = $5 + $6; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
	function median(a, k, cnt,   i, j, t, v) {
		for (i = 1; i <= cnt; i++) v[i] = a[k, i]
		for (i = 2; i <= cnt; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		return cnt % 2 ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
	}
	END { for (i = 1; i <= m; i++) { k = order[i]
		printf "%s: median of %d: %.1f s wall, %.1f CPU s\n", k, n[k], median(w, k, n[k]), median(c, k, n[k]) } }'
