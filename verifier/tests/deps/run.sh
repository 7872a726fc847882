#!/bin/sh
# run.sh - tests of verifier/scripts/deps.sh on a machine without pkg-config.
#
#   sh verifier/tests/deps/run.sh
#
# deps.sh runs with a PATH of stand-ins only: no pkg-config, an `id` that
# says root or not (STANDIN_UID), and an `apt-get` that records each call's
# arguments and can fail with its own message (STANDIN_APT_FAIL).  The cases
# check the exact install line, that apt's error reaches the user, and that
# the line offered to a non-root user works on a fresh Debian (no sudo).
# Prints `ok NAME` or `FAIL NAME: why`; exits 0 only when nothing failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
DEPS=$(cd "$HERE/../../scripts" && pwd)/deps.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/deps-tests.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
SH=$(command -v sh)

mkdir -p "$T/bin" "$T/tmp"
# the few tools deps.sh itself calls, and nothing else
for tool in mktemp sed rm cat; do
	ln -s "$(command -v $tool)" "$T/bin/$tool"
done
cat >"$T/bin/id" <<'X'
#!/bin/sh
[ "$1" = -u ] && { echo "$STANDIN_UID"; exit 0; }
exit 1
X
cat >"$T/bin/apt-get" <<'X'
#!/bin/sh
echo "apt-get $*" >>"$STANDIN_APT_LOG"
case "$1:${STANDIN_APT_FAIL:-}" in
install:yes) echo "E: Unable to locate package libcmark-gfm-dev"; exit 100 ;;
esac
exit 0
X
chmod +x "$T/bin/id" "$T/bin/apt-get"

LINE="apt-get install -y --no-install-recommends pkg-config libpcre2-dev libcmark-gfm-dev libyaml-dev libssl-dev libjansson-dev libxml2-dev libcmocka-dev libcmark-gfm-extensions-dev"
pass=0
failed=0
result() { # NAME WHY
	if [ -z "$2" ]; then echo "ok $1"; pass=$((pass + 1)); else echo "FAIL $1: $2"; failed=$((failed + 1)); fi
}
# run UID [FAIL]: deps.sh full with the stand-ins; sets rc, out (stderr), log (apt calls)
run() {
	: >"$T/apt.log"
	out=$(env -i PATH="$T/bin" TMPDIR="$T/tmp" STANDIN_UID="$1" STANDIN_APT_FAIL="${2:-}" \
		STANDIN_APT_LOG="$T/apt.log" "$SH" "$DEPS" full 2>&1 >/dev/null)
	rc=$?
	log=$(cat "$T/apt.log")
}

# As root: apt-get update, then the exact install line (one space before each package).
run 0
why=
[ $rc = 0 ] || why="exit $rc, want 0: $out"
[ "$log" = "apt-get update -qq
$LINE" ] || why="${why:-apt-get called as: $log}"
result root-installs "$why"

# As root, install fails: apt's own message is shown, exit 1.
run 0 yes
why=
[ $rc = 1 ] || why="exit $rc, want 1"
case $out in *"E: Unable to locate package libcmark-gfm-dev"*) ;; *) why="${why:-apt's error not shown: $out}" ;; esac
case $out in *"'$LINE' failed"*) ;; *) why="${why:-the failed line not named: $out}" ;; esac
[ -z "$(ls "$T/tmp")" ] || why="${why:-temporary file left: $(ls "$T/tmp")}"
result root-install-fails "$why"

# Not root: nothing run, exit 1, and a line that works without sudo.
run 1000
why=
[ $rc = 1 ] || why="exit $rc, want 1"
[ -z "$log" ] || why="${why:-apt-get ran as a user: $log}"
case $out in *sudo*) why="${why:-offers sudo, which fresh Debian lacks: $out}" ;; esac
case $out in *"as root with:  apt-get update && $LINE"*) ;; *) why="${why:-no root line: $out}" ;; esac
case $out in *"su -c 'apt-get update && $LINE'"*) ;; *) why="${why:-no su -c line: $out}" ;; esac
result user-gets-line "$why"

# The user is told what each package is for, and the RHEL names.
why=
case $out in *"deps:   libcmocka-dev: cmocka: the unit tests"*) ;; *) why="no reason given for libcmocka-dev: $out" ;; esac
case $out in *"dnf install pkg-config pcre2-devel cmark-gfm-devel libyaml-devel openssl-devel jansson-devel libxml2-devel libcmocka-devel"*) ;;
*) why="${why:-no RHEL line: $out}" ;; esac
result user-told-why-and-rhel "$why"

# As root, each package and its reason are said before apt-get runs.
run 0
why=
case $out in *"deps: installing pkg-config"*"deps:   libpcre2-dev: PCRE2"*) ;; *) why="nothing said before installing: $out" ;; esac
result root-says-why "$why"

# capture with a pkg-config that does not know libcrypto: the compiler is
# asked (a stand-in cc that compiles, then one that fails)
cat >"$T/bin/pkg-config" <<'X'
#!/bin/sh
exit 1
X
cat >"$T/bin/cc" <<'X'
#!/bin/sh
cat >/dev/null
[ -n "${STANDIN_CC_FAIL:-}" ] && { echo "fatal error: openssl/evp.h: No such file" >&2; exit 1; }
exit 0
X
chmod +x "$T/bin/pkg-config" "$T/bin/cc"
out=$(env -i PATH="$T/bin" TMPDIR="$T/tmp" "$SH" "$DEPS" capture 2>&1)
rc=$?
why=
[ $rc = 0 ] || why="pkg-config without libcrypto but a compiler that has it: exit $rc: $out"
result capture-asks-compiler "$why"
out=$(env -i PATH="$T/bin" TMPDIR="$T/tmp" STANDIN_CC_FAIL=1 "$SH" "$DEPS" capture 2>&1)
rc=$?
why=
[ $rc = 1 ] || why="exit $rc, want 1"
case $out in *"libssl-dev (Debian, Ubuntu) or openssl-devel (RHEL"*) ;; *) why="${why:-both package names not given: $out}" ;; esac
[ -z "$(ls "$T/tmp")" ] || why="${why:-temporary file left: $(ls "$T/tmp")}"
result capture-names-both "$why"
rm -f "$T/bin/pkg-config" "$T/bin/cc"

echo "deps: $pass passed, $failed failed"
[ $failed = 0 ]
