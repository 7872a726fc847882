#!/bin/sh
# build-floor.sh OUT - builds the floor program (floor.c) at OUT, for
# bench.sh and pair.sh (through common.sh) and for bundle.sh.  --seal lexes
# by coursecheck's own srctok.c, so the floor links it and what it needs
# (sha256.c, util.c): libc, libcrypto and cmark-gfm, nothing else.
set -eu
[ $# -eq 1 ] || { echo "usage: build-floor.sh OUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../src
cc -O2 -std=c11 -D_GNU_SOURCE -I"$src/base" -I"$src/evidence" "$here/floor.c" \
	"$src/evidence/srctok.c" "$src/base/sha256.c" "$src/base/util.c" \
	$(pkg-config --cflags --libs libcmark-gfm libcrypto) -lcmark-gfm-extensions -o "$1"
