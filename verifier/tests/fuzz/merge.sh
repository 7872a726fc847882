#!/bin/sh
# merge.sh BINDIR "TARGETS" - minimises each committed corpus with
# libFuzzer's -merge=1 over what it holds, what the last `make fuzz` found
# (BINDIR/run/TARGET/corpus) and the raw seeds of seed.sh (BINDIR/seeds/
# TARGET): only inputs that add coverage are kept, the smallest first.
# Run from the repository root; review and commit corpus/ afterwards.
#
# -use_counters=0 judges by edges reached, not by how often (libFuzzer's
# features): the corpus keeps every edge with far fewer, smaller inputs, so
# it stays a few hundred KB; the fuzzer finds the counts again in seconds.
set -eu
bindir=$1 targets=$2
here=verifier/tests/fuzz
for t in $targets; do
	new=$(mktemp -d "${TMPDIR:-/tmp}/merge-$t.XXXXXX")
	dirs=""
	for d in "$here/corpus/$t" "$bindir/run/$t/corpus" "$bindir/seeds/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	# shellcheck disable=SC2086
	"$bindir/fuzz_$t" -merge=1 -use_counters=0 -timeout=30 -rss_limit_mb=2048 "$new" $dirs >"$new.log" 2>&1 || {
		echo "merge.sh: $t failed, see $new.log" >&2
		exit 1
	}
	mkdir -p "$here/corpus/$t"
	rm -f "$here/corpus/$t"/*
	mv "$new"/* "$here/corpus/$t/" 2>/dev/null || true
	rmdir "$new"
	echo "$t: $(ls "$here/corpus/$t" | wc -l) inputs, $(du -sk "$here/corpus/$t" | cut -f1) KB ($(grep -o 'cov: [0-9]* ft: [0-9]*' "$new.log" | tail -1))"
	rm -f "$new.log"
done
