#!/bin/sh
# sign-course.sh - signs every run of a generated benchmark course with a
# key made for it, as the verification node signs real runs, and lists
# that key in the course's evidence/allowed_signers: a generated course
# then verifies without a warning, and the benchmark times the signature
# checks a real course pays.  The private key is made outside the course
# (a key in the repository is an error) and deleted at the end: the
# course is benchmark input, never evidence.
#
#   sign-course.sh COURSE
#
# Needs OpenSSH's ssh-keygen (-Y sign).  Runs already signed (a .sig
# beside them) are left as they are.
set -eu
[ $# -eq 1 ] && [ -d "$1/evidence" ] || { echo "usage: sign-course.sh COURSE (a folder with evidence/)" >&2; exit 2; }
course=$1
command -v ssh-keygen >/dev/null 2>&1 || { echo "sign-course: ssh-keygen is not installed" >&2; exit 2; }
keys=$(mktemp -d)
trap 'rm -rf "$keys"' EXIT
ssh-keygen -q -t ed25519 -N '' -C bench -f "$keys/key" </dev/null
find "$course/evidence" -name 'run-*.txt' -type f | while read -r run; do
	[ -e "$run.sig" ] || ssh-keygen -Y sign -q -f "$keys/key" -n coursecheck-evidence "$run" </dev/null >/dev/null
done
printf 'bench namespaces="coursecheck-evidence" %s\n' "$(cut -d' ' -f1-2 "$keys/key.pub")" >"$course/evidence/allowed_signers"
