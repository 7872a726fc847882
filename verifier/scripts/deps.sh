#!/bin/sh
# Make sure the Debian packages the verifier builds against are present.
# As root, installs what is missing; otherwise prints the exact apt-get line
# and fails, so `make verify` and `make test` never stop on a bare linker error.
#
#   deps.sh full      everything `coursecheck` needs (verify, explain, tests)
#   deps.sh capture   only what capture needs on a GPU node (libcrypto)
#   deps.sh fuzz      clang and its libFuzzer runtime, for `make fuzz` only
#                     (`make verify` and `make test` never need clang)
set -u
want=${1:-full}

# pkg-config module  Debian package
full_list="libpcre2-8:libpcre2-dev libcmark-gfm:libcmark-gfm-dev yaml-0.1:libyaml-dev libcrypto:libssl-dev cmocka:libcmocka-dev"
capture_list="libcrypto:libssl-dev"
case $want in
full) list=$full_list ;;
capture) list=$capture_list ;;
fuzz) list="" ;;
*) echo "deps.sh: unknown set '$want' (want full, capture or fuzz)" >&2; exit 2 ;;
esac

# Capture runs on GPU nodes where nothing can be installed and pkg-config may
# be absent: there the compiler itself says whether libcrypto's headers are in.
if [ "$want" = capture ] && ! command -v pkg-config >/dev/null 2>&1; then
	if printf '#include <openssl/evp.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1; then
		exit 0
	fi
	echo "deps: OpenSSL's headers (openssl/evp.h) are missing: install libssl-dev (Debian) or openssl-devel" >&2
	exit 1
fi

missing=""
if [ "$want" = fuzz ]; then
	# clang itself, and libFuzzer's runtime (a package of its own in Debian)
	if command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
		rt=$("${FUZZ_CC:-clang}" --print-runtime-dir 2>/dev/null)
		[ -f "$rt/libclang_rt.fuzzer-x86_64.a" ] || [ -f "$rt/libclang_rt.fuzzer.a" ] || missing=" libclang-rt-dev"
	else
		missing=" clang libclang-rt-dev"
	fi
	command -v llvm-symbolizer >/dev/null 2>&1 || missing="$missing llvm"
fi
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
for pair in $list; do
	mod=${pair%%:*} pkg=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$mod"; then
		missing="$missing $pkg"
	fi
done
# cmark-gfm's extensions have no .pc file of their own (libcmark-gfm.pc links
# them); their header says whether the -dev package is there.
if [ "$want" = full ]; then
	inc=$(pkg-config --variable=includedir libcmark-gfm 2>/dev/null || echo /usr/include)
	[ -f "$inc/cmark-gfm-core-extensions.h" ] || missing="$missing libcmark-gfm-extensions-dev"
fi
[ -n "$missing" ] || exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing" >&2
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $line; } >/dev/null 2>&1 || {
		echo "deps: '$line' failed; run it by hand to see why" >&2
		exit 1
	}
	exit 0
fi
echo "deps: missing Debian packages:$missing" >&2
echo "deps: install them with:  sudo $line" >&2
exit 1
