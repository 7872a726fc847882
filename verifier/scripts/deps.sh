#!/bin/sh
# Make sure the Debian packages the verifier builds against are present.
# As root, installs what is missing; otherwise prints the exact apt-get line
# and fails, so `make verify` and `make test` never stop on a bare linker error.
#
#   deps.sh full      everything `coursecheck` needs (verify, explain, tests)
#   deps.sh build     what building the two binaries needs (no cmocka)
#   deps.sh capture   only what capture needs on a GPU node (libcrypto)
#   deps.sh test      full, and the checkers `make test` runs: mandoc,
#                     xmllint, Python's jsonschema and yaml (Debian's python3),
#                     Slurm and munge (the Slurm test's one-node cluster)
#   deps.sh fuzz      clang and its libFuzzer runtime, for `make fuzz` only
#                     (`make verify` and `make test` never need clang)
#   deps.sh --check SET   only names what is missing, installs nothing
#                     (plain `make`: a package build installs nothing)
set -u
check_only=false
if [ "${1:-}" = --check ]; then
	check_only=true
	shift
fi
want=${1:-full}

# pkg-config module  Debian package
build_list="libpcre2-8:libpcre2-dev libcmark-gfm:libcmark-gfm-dev yaml-0.1:libyaml-dev libcrypto:libssl-dev jansson:libjansson-dev libxml-2.0:libxml2-dev"
full_list="$build_list cmocka:libcmocka-dev"
capture_list="libcrypto:libssl-dev"
# command  Debian package (the test set's checkers: valgrind counts the
# hostile-input suite's work with callgrind; Slurm and munge for the
# one-node cluster the Slurm test starts)
test_tools="mandoc:mandoc xmllint:libxml2-utils valgrind:valgrind munged:munge slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client"
case $want in
build) list=$build_list ;;
full | test) list=$full_list ;;
capture) list=$capture_list ;;
fuzz) list="" ;;
*) echo "deps.sh: unknown set '$want' (want full, build, test, capture or fuzz)" >&2; exit 2 ;;
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
have_pc=yes
command -v pkg-config >/dev/null 2>&1 || { have_pc=no; missing="$missing pkg-config"; }
for pair in $list; do
	mod=${pair%%:*} pkg=${pair#*:}
	if [ $have_pc = no ] || ! pkg-config --exists "$mod"; then
		missing="$missing $pkg"
	fi
done
# cmark-gfm's extensions have no .pc file of their own (libcmark-gfm.pc links
# them); their header says whether the -dev package is there.  Without
# pkg-config nothing is known, so the package is named with the others.
if [ "$want" != capture ] && [ "$want" != fuzz ]; then
	inc=/usr/include
	[ $have_pc = no ] || inc=$(pkg-config --variable=includedir libcmark-gfm 2>/dev/null || echo /usr/include)
	if [ $have_pc = no ] || [ ! -f "$inc/cmark-gfm-core-extensions.h" ]; then
		missing="$missing libcmark-gfm-extensions-dev"
	fi
fi
if [ "$want" = test ]; then
	for pair in $test_tools; do
		tool=${pair%%:*}
		# daemons live in /usr/sbin, which a user's PATH may lack
		command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing="$missing ${pair#*:}"
	done
	# Debian's python3, whatever python3 comes first on the PATH
	/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || missing="$missing python3-jsonschema"
	/usr/bin/python3 -c 'import yaml' >/dev/null 2>&1 || missing="$missing python3-yaml"
fi
[ -n "$missing" ] || exit 0

line="apt-get install -y --no-install-recommends$missing"
if ! $check_only && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing" >&2
	# apt's own words are kept and shown when it fails: "it failed" alone
	# sends the user to run it again by hand to find out why.
	log=$(mktemp "${TMPDIR:-/tmp}/deps-apt.XXXXXX") || exit 1
	if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive $line; } >"$log" 2>&1; then
		rm -f "$log"
		exit 0
	fi
	echo "deps: '$line' failed; apt-get said:" >&2
	sed 's/^/deps:   /' "$log" >&2
	rm -f "$log"
	exit 1
fi
# A fresh Debian has no sudo: the line is given to run as root, or through su.
echo "deps: missing Debian packages:$missing" >&2
echo "deps: install them as root with:  apt-get update && $line" >&2
echo "deps: or, from this account:  su -c 'apt-get update && $line'" >&2
exit 1
