# trust.sh - sourced by run.sh: what capture vouches for (capture_sign.h).
# Signed runs checked by coursecheck verify and by ssh-keygen -Y verify
# alike, the node key, a tree with changes, a machine that is no GPU node.
# COURSECHECK_NODE_ROOT points at a folder made to look like a GPU node's
# (/proc/driver/nvidia/version, /dev/nvidiactl); without it the stand-ins
# run on a CPU box, which capture must see.

NODE=$T/fake-node
mkdir -p "$NODE/proc/driver/nvidia" "$NODE/dev"
echo "NVRM version: stand-in" >"$NODE/proc/driver/nvidia/version"
: >"$NODE/dev/nvidiactl"
KEYS=$T/keys
mkdir -p "$KEYS"

# sshverify FILE PRINCIPAL: ssh-keygen's own check of FILE.sig against the
# repository's evidence/allowed_signers (at the run's captured: time)
sshverify() {
	ssh-keygen -Y verify -f "$R/evidence/allowed_signers" -I "$2" -n coursecheck-evidence \
		-s "$1.sig" -Overify-time=20261130100600 <"$1"
}
# allow PRINCIPAL PUBFILE [OPTIONS]: lists the key in evidence/allowed_signers
allow() {
	mkdir -p "$R/evidence"
	printf '%s %s%s\n' "$1" "${3:+$3 }" "$(cut -d' ' -f1-2 "$2")" >>"$R/evidence/allowed_signers"
}

begin signed-by-ssh-keygen-key
if ! command -v ssh-keygen >/dev/null 2>&1 || [ -z "$FULL" ]; then
	NAME="$NAME # skip: no ssh-keygen or no coursecheck binary given"
else
	mkrepo signed hello:hello
	mkdir -p "$R/pages"
	ssh-keygen -q -t ed25519 -N '' -C node -f "$KEYS/ssh" </dev/null
	allow node "$KEYS/ssh.pub" 'namespaces="coursecheck-evidence"'
	COURSECHECK_NODE_ROOT=$NODE cap --sign-key="$KEYS/ssh" hello
	E=$R/evidence/hello/run-$DAY.txt
	check "exit status $RC, not 0 ($(tail -n 2 "$T/err" | tr '\n' ' '))" [ "$RC" -eq 0 ]
	check "gpu-node is '$(field "$E" gpu-node)', not yes" [ "$(field "$E" gpu-node)" = yes ]
	check "no signature beside the run" [ -f "$E.sig" ]
	check "the signature is not armored" grep -qx -- "-----BEGIN SSH SIGNATURE-----" "$E.sig"
	check "ssh-keygen -Y verify refuses the signed run" sshverify "$E" node
	(cd "$R" && "$FULL" verify) >"$T/v.out" 2>&1
	check "coursecheck verify does not accept it: $(grep -m1 -E 'error|warning' "$T/v.out")" \
		grep -q ": 0 errors, 0 warnings" "$T/v.out"
	# one byte of the header changed: both refuse it
	sed 's/^node: \(.\)/node: X\1/' "$E" >"$T/edited" && cat "$T/edited" >"$E"
	check "ssh-keygen -Y verify accepts a changed run" not sshverify "$E" node
	(cd "$R" && "$FULL" verify) >"$T/v.out" 2>&1
	check "coursecheck verify accepts a changed run" grep -q "does not match the run.*\[evidence-signature-bad\]" "$T/v.out"
fi
no_litter
end

begin signed-by-node-key
if ! command -v ssh-keygen >/dev/null 2>&1 || [ -z "$FULL" ]; then
	NAME="$NAME # skip: no ssh-keygen or no coursecheck binary given"
else
	mkrepo nodekey hello:hello
	mkdir -p "$R/pages"
	(cd "$R" && COURSECHECK_NOW=2026-11-30T10:00:00Z "$CAP" --keygen="$KEYS/node" --principal=h200 --valid-for=2h) \
		>"$T/line" 2>"$T/err"
	check "--keygen failed: $(cat "$T/err")" [ -s "$KEYS/node" ]
	check "the key is $(stat -c %a "$KEYS/node"), not 600" [ "$(stat -c %a "$KEYS/node")" = 600 ]
	check "the allowed_signers line is not printed with its window" grep -q \
		'^h200 namespaces="coursecheck-evidence",valid-after="20261130100000Z",valid-before="20261130120000Z" ssh-ed25519 ' "$T/line"
	check "ssh-keygen cannot read the key" ssh-keygen -l -f "$KEYS/node"
	mkdir -p "$R/evidence" && cat "$T/line" >"$R/evidence/allowed_signers"
	COURSECHECK_NODE_ROOT=$NODE cap --sign-key="$KEYS/node" hello
	E=$R/evidence/hello/run-$DAY.txt
	check "exit status $RC, not 0" [ "$RC" -eq 0 ]
	check "ssh-keygen -Y verify refuses the run signed with the node key" sshverify "$E" h200
	(cd "$R" && "$FULL" verify) >"$T/v.out" 2>&1
	check "coursecheck verify does not accept it" grep -q ": 0 errors, 0 warnings" "$T/v.out"
	(cd "$R" && "$CAP" --keygen="$KEYS/node") >/dev/null 2>"$T/err"
	check "a key was overwritten" grep -q "never overwritten" "$T/err"
	(cd "$R" && "$CAP" --keygen=programs/key) >/dev/null 2>"$T/err"
	check "a key was written inside the repository" [ ! -e "$R/programs/key" ]
	cp "$KEYS/node" "$R/node-key"
	COURSECHECK_NODE_ROOT=$NODE cap --sign-key=node-key hello
	check "a key inside the repository was used (exit $RC)" [ "$RC" -eq 1 ]
	check "a key inside the repository is not refused with its reason" err_has "lies inside the repository"
	rm -f "$R/node-key"
	ssh-keygen -q -t ed25519 -N secret -f "$KEYS/locked" </dev/null
	COURSECHECK_NODE_ROOT=$NODE cap --sign-key="$KEYS/locked" hello
	check "an encrypted key is not refused with its reason" err_has "it is encrypted"
fi
no_litter
end

begin stand-in-is-no-gpu-node
mkrepo standin hello:hello
(cd "$R" && "$CAP" --keygen="$KEYS/standin" --principal=x) >/dev/null 2>&1
cap --sign-key="$KEYS/standin" hello
E=$R/evidence/hello/run-$DAY.txt
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "gpu-node is '$(field "$E" gpu-node)'" grep -q "^gpu-node: no (no NVIDIA driver on this machine" "$E"
check "a stand-in's run was signed" [ ! -e "$E.sig" ]
check "the unsigned runs are not said" err_has "the runs are not signed: no NVIDIA driver.*\[capture-unsigned\]"
if [ -n "$FULL" ]; then
	mkdir -p "$R/pages"
	(cd "$R" && "$FULL" verify) >"$T/v.out" 2>&1
	check "verify accepts a stand-in's run: $(cat "$T/v.out")" grep -q "not captured on a GPU node.*\[evidence-not-gpu-node\]" "$T/v.out"
fi
no_litter
end

begin dirty-tree-refused
mkrepo dirty hello:hello
printf '// an edit not committed\n' >>"$R/programs/hello/hello.cu"
(cd "$R" && "$CAP" hello) >"$T/out" 2>"$T/err"
RC=$?
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the change is not named" err_has "refused: the tree has uncommitted changes (programs/hello/hello.cu)"
check "evidence was written" [ ! -e "$R/evidence/hello" ]
(cd "$R" && "$CAP" --allow-dirty hello) >"$T/out" 2>"$T/err"
RC=$?
E=$R/evidence/hello/run-$DAY.txt
check "--allow-dirty: exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the run does not say dirty-allowed: yes" [ "$(field "$E" dirty-allowed)" = yes ]
if [ -n "$FULL" ]; then
	mkdir -p "$R/pages"
	(cd "$R" && "$FULL" verify) >"$T/v.out" 2>&1
	check "verify does not warn of the dirty run" grep -q "warning: .*uncommitted changes.*\[evidence-dirty\]" "$T/v.out"
fi
no_litter
end

begin rehearsal
mkrepo rehearse hello:hello
printf '// an edit not committed: a rehearsal takes the tree as it is\n' >>"$R/programs/hello/hello.cu"
(cd "$R" && "$CAP" --rehearse hello) >"$T/out" 2>"$T/err"
RC=$?
E=$R/build/rehearsal/hello/run-$DAY.txt
check "exit status $RC, not 0 ($(tail -n 1 "$T/err"))" [ "$RC" -eq 0 ]
check "no run in build/rehearsal/hello/" [ -f "$E" ]
check "the rehearsal wrote into evidence/" [ ! -e "$R/evidence" ]
check "the run does not say rehearsal: yes" [ "$(field "$E" rehearsal)" = yes ]
check "a rehearsal was signed" [ ! -e "$E.sig" ]
(cd "$R" && PATH=/usr/bin:/bin "$CAP" --rehearse hello) >"$T/out" 2>"$T/err"
check "without nvidia-smi the rehearsal did not get as far as the build" err_has "exec: nvcc: not found"
if [ -n "$FULL" ]; then
	mkdir -p "$R/pages" "$R/evidence/hello" && cp "$E" "$R/evidence/hello/"
	(cd "$R" && "$FULL" verify) >"$T/v.out" 2>&1
	check "verify accepts a rehearsal copied into evidence/" grep -q "it is a rehearsal.*\[evidence-not-gpu-node\]" "$T/v.out"
fi
no_litter
end
