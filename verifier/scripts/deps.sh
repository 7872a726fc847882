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
#                     Slurm and munge (the Slurm test's one-node cluster);
#                     chromium for the review click test, installed as root
#                     and otherwise only named (that test skips by name)
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

# pkg-config module:Debian package:RHEL/Fedora package, and why each is needed
build_list="libpcre2-8:libpcre2-dev:pcre2-devel libcmark-gfm:libcmark-gfm-dev:cmark-gfm-devel yaml-0.1:libyaml-dev:libyaml-devel libcrypto:libssl-dev:openssl-devel jansson:libjansson-dev:jansson-devel libxml-2.0:libxml2-dev:libxml2-devel"
full_list="$build_list cmocka:libcmocka-dev:libcmocka-devel"
capture_list="libcrypto:libssl-dev:openssl-devel"
# command:Debian package (the test set's checkers: valgrind counts the
# hostile-input suite's work with callgrind; Slurm and munge for the
# one-node cluster the Slurm test starts)
test_tools="mandoc:mandoc xmllint:libxml2-utils valgrind:valgrind munged:munge slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client pre-commit:pre-commit ssh-keygen:openssh-client nvim:neovim"

# why PACKAGE: one line saying what the package is for, printed before
# anything is installed (and beside the line a user is asked to run)
why() {
	case $1 in
	pkg-config) echo "finds the libraries' compiler and linker flags" ;;
	libpcre2-dev) echo "PCRE2: the number and marker patterns" ;;
	libcmark-gfm-dev) echo "cmark-gfm: the Markdown of the pages" ;;
	libcmark-gfm-extensions-dev) echo "cmark-gfm's tables extension" ;;
	libyaml-dev) echo "libyaml: the pages' front matter" ;;
	libssl-dev) echo "libcrypto: SHA-256 seals and evidence signatures" ;;
	libjansson-dev) echo "jansson: the JSON and SARIF reports" ;;
	libxml2-dev) echo "libxml2: the JUnit report and raw HTML in pages" ;;
	libcmocka-dev) echo "cmocka: the unit tests" ;;
	mandoc) echo "mandoc -T lint: the man page test" ;;
	libxml2-utils) echo "xmllint: the JUnit and review HTML tests" ;;
	valgrind) echo "callgrind: the hostile-input suite counts instructions" ;;
	munge | slurmctld | slurmd | slurm-client) echo "the Slurm capture test's one-node cluster" ;;
	python3-jsonschema) echo "the JSON and SARIF schema tests" ;;
	python3-yaml) echo "the CI wiring test reads the workflow" ;;
	pre-commit) echo "the wiring test runs the shipped hook through pre-commit" ;;
	openssh-client) echo "ssh-keygen signs the test runs and checks coursecheck's signatures" ;;
	chromium) echo "the review page's headless browser test" ;;
	neovim) echo "the language server test attaches Neovim's built-in client headless" ;;
	clang | libclang-rt-dev | llvm) echo "libFuzzer: make fuzz" ;;
	*) echo "needed by make" ;;
	esac
}

# rhel PACKAGE: the RHEL/Fedora name of a Debian package, where it differs
rhel() {
	for pair in $full_list; do
		deb=${pair#*:} deb=${deb%%:*}
		[ "$deb" != "$1" ] || { echo "${pair##*:}"; return; }
	done
	case $1 in
	libcmark-gfm-extensions-dev) echo cmark-gfm-devel ;;
	*) echo "$1" ;;
	esac
}

case $want in
build) list=$build_list ;;
full | test) list=$full_list ;;
capture) list=$capture_list ;;
fuzz) list="" ;;
*) echo "deps.sh: unknown set '$want' (want full, build, test, capture or fuzz)" >&2; exit 2 ;;
esac

# Capture runs on GPU nodes where nothing can be installed and pkg-config may
# be absent or not know libcrypto (a cluster's OpenSSL in a module, a RHEL
# node without openssl-devel's .pc in its path): there the compiler itself
# says whether libcrypto's headers and library are in.
if [ "$want" = capture ] && { ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libcrypto; }; then
	probe=$(mktemp "${TMPDIR:-/tmp}/deps-cc.XXXXXX") || exit 1
	if printf '#include <openssl/evp.h>\nint main(void) { return EVP_MD_size(EVP_sha256()) != 32; }\n' |
		${CC:-cc} -x c - -lcrypto -o "$probe" >/dev/null 2>&1; then
		rm -f "$probe"
		exit 0
	fi
	rm -f "$probe"
	echo "deps: the compiler (${CC:-cc}) finds no OpenSSL libcrypto (openssl/evp.h and -lcrypto):" >&2
	echo "deps:   install libssl-dev (Debian, Ubuntu) or openssl-devel (RHEL, Rocky, Fedora)," >&2
	echo "deps:   or point CPPFLAGS/LDFLAGS at a local OpenSSL (make CPPFLAGS=-I/opt/ssl/include LDFLAGS=-L/opt/ssl/lib)" >&2
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
	mod=${pair%%:*} pkg=${pair#*:} pkg=${pkg%%:*}
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
	# optional: the review test's headless click needs it, nothing else does
	if ! command -v chromium >/dev/null 2>&1; then
		if [ "$(id -u)" = 0 ] && ! $check_only; then
			missing="$missing chromium"
		else
			echo "deps: not installed: chromium (the review click test is skipped; as root deps.sh installs it)" >&2
		fi
	fi
fi
[ -n "$missing" ] || exit 0

# say_missing: each package and why, before anything is installed
say_missing() {
	for pkg in $missing; do
		echo "deps:   $pkg: $(why "$pkg")" >&2
	done
}
line="apt-get install -y --no-install-recommends$missing"
if ! $check_only && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing" >&2
	say_missing
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
say_missing
echo "deps: install them as root with:  apt-get update && $line" >&2
echo "deps: or, from this account:  su -c 'apt-get update && $line'" >&2
rh=
for pkg in $missing; do
	r=$(rhel "$pkg")
	case " $rh " in *" $r "*) ;; *) rh="$rh $r" ;; esac
done
echo "deps: on RHEL, Rocky or Fedora (names may differ):  dnf install$rh" >&2
exit 1
