# the base revision (HEAD) trusts the node key that signed the run; the
# working tree drops it: the run stays trusted (HEAD's keys are what is
# trusted) and the difference is reported
ev=evidence/day01-demo/run-2026-11-30.txt
ssh-keygen -Y sign -q -f "$GOLDEN_KEY" -n coursecheck-evidence $ev
printf 'h200-node namespaces="coursecheck-evidence",valid-after="20261101Z",valid-before="20261201Z" %s\n' \
	"$(cut -d' ' -f1-2 "$GOLDEN_KEY.pub")" >evidence/allowed_signers
git init -q . && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm base
printf '# no key\n' >evidence/allowed_signers
