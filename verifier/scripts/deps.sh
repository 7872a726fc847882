#!/bin/sh
# Make sure the Debian packages the verifier builds against are present.
# As root, installs what is missing; otherwise prints the exact apt-get line
# and fails, so `make verify` and `make test` never stop on a bare linker error.
#
#   deps.sh full      everything `coursecheck` needs (verify, explain, tests)
#   deps.sh capture   only what capture needs on a GPU node (libcrypto)
#   deps.sh test      full, and the programs the review tests run (xmllint, chromium)
set -u
want=${1:-full}

# pkg-config module  Debian package
full_list="libpcre2-8:libpcre2-dev libcmark-gfm:libcmark-gfm-dev yaml-0.1:libyaml-dev libcrypto:libssl-dev cmocka:libcmocka-dev"
capture_list="libcrypto:libssl-dev"
# command  Debian package (programs, found on the PATH)
tools=""
# installed as root; otherwise only named: the test that needs it skips by name
optional=""
case $want in
full) list=$full_list ;;
capture) list=$capture_list ;;
test) list=$full_list tools="xmllint:libxml2-utils" optional="chromium:chromium" ;;
*) echo "deps.sh: unknown set '$want' (want full, capture or test)" >&2; exit 2 ;;
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
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
for pair in $list; do
	mod=${pair%%:*} pkg=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$mod"; then
		missing="$missing $pkg"
	fi
done
for pair in $tools; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
done
missing_optional=""
for pair in $optional; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || missing_optional="$missing_optional ${pair#*:}"
done
if [ "$(id -u)" = 0 ]; then
	missing="$missing$missing_optional"
elif [ -n "$missing_optional" ]; then
	echo "deps: not installed:$missing_optional (the tests that need it are skipped; as root deps.sh installs it)" >&2
fi
# cmark-gfm's extensions have no .pc file of their own (libcmark-gfm.pc links
# them); their header says whether the -dev package is there.
if [ "$want" = full ] || [ "$want" = test ]; then
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
