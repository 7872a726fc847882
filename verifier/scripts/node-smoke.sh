#!/bin/sh
# One call on the verification node: build and run each lesson program with
# its own Build:/Run: lines (a first look before capture exists), and record
# what the node's tools report.  Writes under $OUT.
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,count --format=csv,noheader
  nvidia-smi --help-query-gpu | grep -i -E "multiproc|sm_count|\"sm\"|clocks.max.sm" | head
  nvcc --version | tail -2; cc --version | head -1; uname -a; } > "$out/node.txt" 2>&1
for dir in programs/*/; do
	lesson=$(basename "$dir")
	src=$(ls "$dir"*.cu)
	build=$(sed -n 's|^// Build: *||p' "$src" | head -1)
	run=$(sed -n 's|^// Run: *||p' "$src" | head -1)
	work=$(mktemp -d)
	cp "$src" "$work/"
	( cd "$work" && sh -c "$build" ) > "$out/$lesson.build" 2>&1
	echo "build exit $?" >> "$out/$lesson.build"
	( cd "$work" && timeout 300 sh -c "$run" ) > "$out/$lesson.out" 2> "$out/$lesson.err"
	echo "exit $?" >> "$out/$lesson.err"
done
tail -n +1 "$out"/*.err "$out"/*.build
