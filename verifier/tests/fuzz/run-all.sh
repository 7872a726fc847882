#!/bin/sh
# run-all.sh [--bin DIR] [--data DIR] [--targets "A B"] SECONDS OUTDIR
#
# Runs every fuzz target for SECONDS, all at once, and writes a summary
# (execs, cov, ft, corpus, findings per target) to OUTDIR/summary.txt and
# standard output.  In a bundle (bundle.sh) the defaults find everything
# next to this script: bin/ the targets, lib/ the shared libraries (lib/glibc
# the C library and its loader, used only when the machine's own is too
# old), corpus/, regressions/ and dict/.
# `make fuzz` passes --bin build/fuzz --data verifier/tests/fuzz.
#
# JOBS=K runs K processes per target (default 1; on 16 cores with 8
# targets, JOBS=2), sharing one corpus folder (libFuzzer reloads it).  A
# process that finds something is restarted until the time is spent, so
# one finding does not end a target's run; each finding is a file
# OUTDIR/TARGET/crash-*, leak-*, timeout-* or oom-*, kept with its log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/bin data=$here targets=""
while [ $# -gt 2 ]; do
	case $1 in
	--bin) bin=$(cd "$2" && pwd); shift 2 ;;
	--data) data=$(cd "$2" && pwd); shift 2 ;;
	--targets) targets=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# = 2 ] || { echo "usage: run-all.sh [--bin DIR] [--data DIR] [--targets LIST] SECONDS OUTDIR" >&2; exit 2; }
seconds=$1
mkdir -p "$2" && out=$(cd "$2" && pwd)
jobs=${JOBS:-1}
[ -n "$targets" ] || targets=$(cd "$bin" && ls fuzz_* | sed 's/^fuzz_//')

# The bundle's libraries, and its loader when it carries one (so the
# targets run on a machine with an older C library).
loader=""
if [ -d "$here/lib" ] && [ "$bin" = "$here/bin" ]; then
	LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	probe=$(ls "$bin"/fuzz_* | head -1)
	if ! "$probe" -runs=0 >/dev/null 2>&1 && [ -x "$here/lib/glibc/ld-linux-x86-64.so.2" ]; then
		loader="$here/lib/glibc/ld-linux-x86-64.so.2 --library-path $here/lib/glibc:$here/lib"
		echo "run-all: this machine's C library is too old for the targets: using the bundle's" >&2
	fi
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
[ -x "$here/bin/llvm-symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$here/bin/llvm-symbolizer

# Inputs longer than this are not tried: long enough for every limit the
# parsers state (EXPR_MAX_LEN is 4096), short enough to keep the executions
# per second up; the hostile-input suite covers the sizes beyond.
max_len() {
	case $1 in
	numtok) echo 4096 ;;
	expr) echo 8192 ;;
	frontmatter | snippet | srctok) echo 16384 ;;
	evidence) echo 8192 ;; # align_runs is a longest common subsequence: lines squared
	*) echo 65536 ;;
	esac
}

# One process of a target, restarted after a finding until the end time.
run_one() {
	t=$1 k=$2 end=$3
	dir=$out/$t
	n=0
	while :; do
		left=$((end - $(date +%s)))
		[ "$left" -gt 0 ] || break
		n=$((n + 1))
		extra=""
		for d in "$data/corpus/$t" "$data/regressions/$t"; do [ -d "$d" ] && extra="$extra $d"; done
		# shellcheck disable=SC2086
		$loader "$bin/fuzz_$t" -max_total_time="$left" -max_len="$(max_len "$t")" -timeout=10 \
			-rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 -seed=$((k * 7919 + n)) \
			-dict="$data/dict/$t.dict" -artifact_prefix="$dir/" "$dir/corpus" $extra \
			>"$dir/log-$k-$n.txt" 2>&1
		rc=$?
		[ "$rc" = 0 ] && break
		[ "$n" -ge 50 ] && break # something is wrong with the harness itself
	done
}

end=$(($(date +%s) + seconds))
for t in $targets; do
	[ -x "$bin/fuzz_$t" ] || { echo "run-all: no target $bin/fuzz_$t" >&2; exit 2; }
	mkdir -p "$out/$t/corpus"
	k=1
	while [ "$k" -le "$jobs" ]; do
		run_one "$t" "$k" "$end" &
		k=$((k + 1))
	done
done
wait

# The summary: execs summed over the runs; cov and ft the highest any run
# reached (libFuzzer's own counters: edges and features of the product).
{
	printf '%-14s %12s %7s %7s %7s  %s\n' target execs cov ft new findings
	for t in $targets; do
		dir=$out/$t
		execs=0 cov=0 ft=0
		for log in "$dir"/log-*.txt; do
			[ -f "$log" ] || continue
			e=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
			[ -n "$e" ] || e=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -1)
			execs=$((execs + ${e:-0}))
			c=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\1/p' "$log" | sort -n | tail -1)
			f=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\2/p' "$log" | sort -n | tail -1)
			[ "${c:-0}" -gt "$cov" ] && cov=$c
			[ "${f:-0}" -gt "$ft" ] && ft=$f
		done
		corpus=$(ls "$dir/corpus" | wc -l)
		nf=$(cd "$dir" && ls crash-* leak-* timeout-* oom-* slow-unit-* 2>/dev/null | wc -l)
		finds=$(cd "$dir" && ls crash-* leak-* timeout-* oom-* slow-unit-* 2>/dev/null | head -3 | tr '\n' ' ')
		[ "$nf" -gt 3 ] && finds="$finds... ($nf in all)"
		printf '%-14s %12s %7s %7s %7s  %s\n' "$t" "$execs" "$cov" "$ft" "$corpus" "${finds:-none}"
	done
	echo "($seconds s per target, $jobs process(es) each; logs and findings under $out)"
} | tee "$out/summary.txt"
# exit 1 when any target found something
! grep -qE ' (crash|leak|timeout|oom|slow-unit)-' "$out/summary.txt"
