#!/bin/sh
# agent-test: coursecheck approve signs through ssh-agent, as `ssh-keygen
# -Y sign -f KEY.pub` does, on a copy of the course.  With OpenSSH's own
# ssh-agent (a socket in the test's folder):
#   1. alice's key added to the agent, approve --key alice.pub signs: the
#      gate passes for that page and ssh-keygen -Y verify accepts the block;
#   2. carol's key file is encrypted: refused while the agent lacks it,
#      signed once ssh-add has it (its passphrase from SSH_ASKPASS);
#   3. no agent (SSH_AUTH_SOCK unset, or naming no socket), a file that is
#      no key: refused, with the reason and the hint;
# and with fake-agent.py, agents that answer wrongly (another message, a
# signature that is not the key's, no answer, an answer of 4 GiB): each
# refused, and no approval written.
#
#   sh verifier/tests/approvals/agent.sh BINARY
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/block-lib.sh"
course=$(cd "$here/../../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/agent-test.XXXXXX") || exit 2
agent_pid=
trap '[ -z "$agent_pid" ] || kill "$agent_pid" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
pass=0 failed=0
check() {
	n=$1
	shift
	if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); else echo "FAIL $n"; failed=$((failed + 1)); fi
}
not() { ! "$@"; }

C=$T/course K=$T/keys
mkdir -p "$C" "$K"
cp -R "$course/pages" "$course/programs" "$course/evidence" "$C/"
cd "$C" || exit 2
ssh-keygen -q -t ed25519 -N '' -C alice -f "$K/alice" </dev/null >/dev/null || exit 2
ssh-keygen -q -t ed25519 -N 'carol passphrase' -C carol -f "$K/carol" </dev/null >/dev/null || exit 2
printf 'alice namespaces="coursecheck-review" %s\ncarol namespaces="coursecheck-review" %s\n' \
	"$(cut -d' ' -f1-2 "$K/alice.pub")" "$(cut -d' ' -f1-2 "$K/carol.pub")" >>evidence/allowed_signers
git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm copy || exit 2

# the agent: OpenSSH's, in the foreground of a background job, on a socket here
SOCK=$T/agent.sock
ssh-agent -D -a "$SOCK" >/dev/null 2>&1 &
agent_pid=$!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || { echo "FAIL ssh-agent did not start"; exit 1; }
export SSH_AUTH_SOCK="$SOCK"
ssh-add -q "$K/alice" </dev/null >/dev/null 2>&1 || { echo "FAIL ssh-add alice"; exit 1; }

approve() { # approve PAGE KEYFILE NAME: stdout and stderr in $T/out, status in RC
	"$bin" approve "$1" --key "$2" --principal "$3" --all >"$T/out" 2>&1
	RC=$?
}
written() { [ -n "$(git status --porcelain reviews 2>/dev/null)" ]; }

# 1. alice through the agent
approve pages/day31-scan-1.md "$K/alice.pub" alice
check "approve --key alice.pub through the agent failed: $(cat "$T/out")" [ $RC -eq 0 ]
check "approve did not say alice approved" grep -q 'approved by alice' "$T/out"
"$bin" verify --as published pages/day31-scan-1.md >"$T/verify" 2>&1
check "the page approved through the agent still lacks approvals" not grep -q 'approval-missing' "$T/verify"
first_block reviews/day31-scan-1.approvals "$T"
check "ssh-keygen -Y verify refuses the agent-made block" \
	ssh-keygen -Y verify -f "$T/signers" -I alice -n coursecheck-review -s "$T/block.sig" <"$T/block"
git add -A && git -c user.name=t -c user.email=t@example.com commit -qm alice

# 2. carol's encrypted key: not in the agent, then in it
approve pages/day27-memory-model.md "$K/carol" carol
check "an encrypted key the agent lacks was not refused: $(cat "$T/out")" [ $RC -eq 2 ]
check "the refusal does not name the key the agent lacks" \
	grep -q "error: cannot sign: the ssh-agent at $SOCK does not hold the key SHA256:" "$T/out"
check "a refused approve wrote an approval" not written
printf '#!/bin/sh\necho "carol passphrase"\n' >"$T/askpass"
chmod +x "$T/askpass"
SSH_ASKPASS=$T/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=none ssh-add -q "$K/carol" </dev/null >/dev/null 2>&1 ||
	{ echo "FAIL ssh-add carol"; exit 1; }
approve pages/day27-memory-model.md "$K/carol" carol
check "the encrypted key in the agent did not sign: $(cat "$T/out")" [ $RC -eq 0 ]
git add -A && git -c user.name=t -c user.email=t@example.com commit -qm carol

# 3. no agent, or no key
P=pages/day32-scan-2.md
(unset SSH_AUTH_SOCK && approve $P "$K/alice.pub" alice && echo $RC >"$T/rc")
check "a public key without an agent was not refused" [ "$(cat "$T/rc")" = 2 ]
check "the refusal does not say there is no agent" \
	grep -q 'it is a public key, and there is no ssh-agent to sign with its private half (SSH_AUTH_SOCK is not set) \[approve-refused\]' "$T/out"
check "the refusal has no hint" grep -q '^hint: .*ssh-add FILE' "$T/out"
SSH_AUTH_SOCK=$T/none.sock approve $P "$K/alice.pub" alice
check "an agent socket that is not there was not refused" [ $RC -eq 2 ]
check "the refusal does not say the agent cannot be reached" grep -q "cannot reach the ssh-agent at $T/none.sock (SSH_AUTH_SOCK): No such file or directory" "$T/out"
approve $P "$C/evidence/allowed_signers" alice
check "a file that is no key was not refused" [ $RC -eq 2 ]
check "a file that is no key is not named so" grep -q 'neither an OpenSSH private key file nor an ssh-ed25519 public key' "$T/out"
check "a refused approve wrote an approval" not written

# agents that answer wrongly
for mode in type random short huge; do
	F=$T/fake-$mode.sock
	python3 "$here/fake-agent.py" "$F" $mode &
	fake=$!
	i=0
	while [ ! -S "$F" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	SSH_AUTH_SOCK=$F approve $P "$K/alice.pub" alice
	# its one conversation is over (or never came): it is not waited for
	kill $fake 2>/dev/null
	wait $fake 2>/dev/null
	check "a fake agent ($mode) was not refused: $(cat "$T/out")" [ $RC -eq 2 ]
	case $mode in
	type) want='answered message 99, not a signature' ;;
	random) want='answered with a signature that is not one by the key SHA256:' ;;
	short) want='closed the connection before its answer' ;;
	huge) want='answered 4294967295 bytes, not a signature' ;;
	esac
	check "a fake agent ($mode) is not named: $(cat "$T/out")" grep -q "$want" "$T/out"
	check "a fake agent ($mode) left an approval" not written
done

echo "agent: $pass passed, $failed failed"
[ $failed -eq 0 ]
