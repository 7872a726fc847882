#!/bin/sh
# The verifier's speed, outside the tests (a timed test is a flaky test).
# Three workloads, each run RUNS times; prints the best and median wall
# time.  Numbers go to verifier/BENCH.md by hand, with the machine.
#   bench.sh BINARY [RUNS]
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-7}
top=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

# time_it NAME DIR ARGS...: best and median of $runs runs, in milliseconds
time_it() {
	name=$1 dir=$2
	shift 2
	times=""
	i=0
	while [ $i -lt "$runs" ]; do
		a=$(date +%s%N)
		(cd "$dir" && "$bin" "$@" >/dev/null 2>&1)
		b=$(date +%s%N)
		times="$times $(((b - a) / 1000000))"
		i=$((i + 1))
	done
	sorted=$(echo $times | tr ' ' '\n' | sort -n)
	best=$(echo "$sorted" | head -1)
	median=$(echo "$sorted" | sed -n "$(((runs + 1) / 2))p")
	printf '%-44s best %6s ms   median %6s ms\n' "$name" "$best" "$median"
}

# 1. the course itself
time_it "course: make verify (all pages, programs)" "$top" verify

# 2. one 10 MB page (40,000 prose paragraphs of traced numbers)
mkdir -p "$scratch/big"
cp -R "$top/verifier/tests/fixtures/demo/." "$scratch/big/"
i=0
{ cat "$scratch/big/pages/day01-demo.md"; echo
  while [ $i -lt 95000 ]; do
	echo "A filler paragraph: the racy kernel gets 70,320 elements wrong out of 1,049,187, and \`sm_90\` stays code."
	echo; i=$((i + 1)); done; } > "$scratch/big/page.md"
mv "$scratch/big/page.md" "$scratch/big/pages/day01-demo.md"
time_it "one 10 MB page ($(($(wc -c < "$scratch/big/pages/day01-demo.md") / 1048576)) MiB)" "$scratch/big" verify pages/day01-demo.md

# 3. a course of 200 lessons shaped like the demo fixture
mkdir -p "$scratch/wide/pages" "$scratch/wide/programs" "$scratch/wide/evidence"
for n in $(seq 1 200); do
	l=$(printf 'day%03d-demo' "$n")
	mkdir -p "$scratch/wide/programs/$l" "$scratch/wide/evidence/$l"
	cp "$top/verifier/tests/fixtures/demo/programs/day01-demo/demo.cu" "$scratch/wide/programs/$l/"
	sed "s/day01-demo/$l/g" "$top/verifier/tests/fixtures/demo/evidence/day01-demo/run-2026-11-30.txt" \
		> "$scratch/wide/evidence/$l/run-2026-11-30.txt"
	sed "s/day01-demo/$l/g" "$top/verifier/tests/fixtures/demo/pages/day01-demo.md" > "$scratch/wide/pages/$l.md"
	sed -i "s|evidence/day01-demo/|evidence/$l/|" "$scratch/wide/programs/$l/demo.cu"
done
time_it "200 lessons (pages, programs, evidence)" "$scratch/wide" verify
