#!/bin/sh
# bundle.sh - the benchmark's programs for a machine that has none of them
# (the H200 node: no PCRE2, cmark-gfm or libyaml, no GNU time, no node).
#
#   bundle.sh BINARY DEST OUT.tar.xz
#
# Packs BINARY (a coursecheck), the floor (built here), GNU time, node and
# embedme 1.22.1's node_modules, each ELF file re-pointed (patchelf) at the
# dynamic loader and the libraries packed beside it, so that unpacked at
# DEST (an absolute path; the loader's path is written into each program)
# they run whatever the other machine's C library is.  On that machine:
#
#   mkdir -p DEST && tar -xJf OUT.tar.xz -C DEST
#   PATH=DEST/node/bin:$PATH BENCH_FLOOR=DEST/bin/floor BENCH_TIME=DEST/bin/time \
#       COURSECHECK=DEST/bin/coursecheck sh verifier/bench/bench.sh DEST/bin/coursecheck
#
# with DEST/embedme copied to build/bench/embedme first (bench.sh finds
# embedme there).  With BUNDLE_BASELINE set to another coursecheck (an
# older build), it is packed too, as DEST/bin/coursecheck-baseline, for
# BENCH_BASELINE.  Needs patchelf, cc, pkg-config and the libraries' -dev
# packages, node and npm here.
set -eu
[ $# -eq 3 ] || { echo "usage: bundle.sh BINARY DEST OUT.tar.xz" >&2; exit 2; }
bin=$1 dest=$2 tarball=$3
case $dest in /*) ;; *) echo "bundle.sh: DEST must be an absolute path" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
for t in patchelf cc pkg-config node npm; do
	command -v "$t" >/dev/null || { echo "bundle.sh: $t is not installed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bundle.sh: GNU time (/usr/bin/time) is not installed" >&2; exit 2; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/node/bin" "$stage/embedme"

cp "$bin" "$stage/bin/coursecheck"
[ -z "${BUNDLE_BASELINE:-}" ] || cp "$BUNDLE_BASELINE" "$stage/bin/coursecheck-baseline"
sh "$here/build-floor.sh" "$stage/bin/floor"
cp /usr/bin/time "$stage/bin/time"
cp "$(command -v node)" "$stage/node/bin/node"
(cd "$stage/embedme" && npm install --silent --no-audit --no-fund embedme@1.22.1 >/dev/null 2>&1)

# every library the programs load, and the loader itself
for f in "$stage"/bin/* "$stage/node/bin/node"; do
	ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }'
done | sort -u | while read -r lib; do
	cp -L "$lib" "$stage/lib/"
done
loader=$(basename "$(ls "$stage"/lib/ld-linux-*.so.* | head -n 1)")
# DT_RPATH (--force-rpath), unlike DT_RUNPATH, also serves the libraries'
# own dependencies, so the libraries themselves need no patching
for f in "$stage"/bin/* "$stage/node/bin/node"; do
	patchelf --set-interpreter "$dest/lib/$loader" --force-rpath --set-rpath "$dest/lib" "$f"
done
tar -cJf "$tarball" -C "$stage" .
echo "bundle.sh: $tarball ($(du -h "$tarball" | cut -f1)) for $dest"
