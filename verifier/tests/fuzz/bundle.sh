#!/bin/sh
# bundle.sh BINDIR OUT "TARGETS" - one folder that runs the clang-built
# fuzz targets on another x86-64 Linux machine with none of the Debian
# libraries installed:
#
#   OUT/bin/fuzz_*        the targets (line tables kept for the stacks)
#   OUT/lib/              every shared library they load (ldd); the C
#                         library and its loader in OUT/lib/glibc/, used only
#                         when the machine's own C library is too old
#   OUT/corpus/ regressions/ dict/   what the targets start from
#   OUT/run-all.sh SECONDS OUTDIR    runs every target at once (JOBS=2 for
#                         two processes per target) and writes a summary
#
# run-all.sh runs the targets with LD_LIBRARY_PATH=OUT/lib when they start
# that way, and otherwise through OUT/lib/glibc/ld-linux-x86-64.so.2 (then
# ASan names the target's frames "ld-linux-x86-64.so.2+0xOFFSET").  Stacks
# come out unsymbolized when the machine has no llvm-symbolizer: symbolize
# them here with  llvm-symbolizer --obj=OUT/bin/fuzz_NAME 0xOFFSET
set -eu
bindir=$1 out=$2 targets=$3
here=verifier/tests/fuzz
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib/glibc"
for t in $targets; do
	cp "$bindir/fuzz_$t" "$out/bin/"
	ldd "$bindir/fuzz_$t" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 } $1 ~ /^\/.*ld-linux/ { print "ld-linux-x86-64.so.2", $1 }' |
		while read -r name path; do
			# the C library and its loader go apart: used only where the
			# machine's own are too old (run-all.sh decides)
			case $name in
			libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux*) dest=$out/lib/glibc ;;
			*) dest=$out/lib ;;
			esac
			[ -f "$dest/$name" ] || cp -L "$path" "$dest/$name"
		done
done
chmod +x "$out/lib/glibc/ld-linux-x86-64.so.2"
cp -R "$here/corpus" "$here/dict" "$out/"
mkdir -p "$out/regressions"
cp -R "$here/regressions/." "$out/regressions/"
cp "$here/run-all.sh" "$out/"
sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' > "$out/README.txt"
echo "bundle: $out, $(du -sh "$out" | cut -f1): $(ls "$out/bin" | wc -l) targets, $(ls "$out/lib" | wc -l) libraries"
