# explain's JSON report of a run signed by a trusted key outside its window:
# signer-expired, the window's ends and why (verify's error: sig-expired)
ssh-keygen -q -t ed25519 -N '' -C node -f ../$(basename "$PWD").node </dev/null
ssh-keygen -Y sign -q -f ../$(basename "$PWD").node -n coursecheck-evidence evidence/day01-demo/run-2026-11-30.txt
printf 'gpu-node namespaces="coursecheck-evidence",valid-after="20260101Z",valid-before="20260102Z" %s\n' \
	"$(cut -d' ' -f1-2 ../$(basename "$PWD").node.pub)" >evidence/allowed_signers
