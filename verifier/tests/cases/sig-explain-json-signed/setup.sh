# explain's JSON report says who signed each run the page names: principal,
# key, the window's ends as allowed_signers writes them, captured (the
# text form: sig-explain-signed)
ssh-keygen -Y sign -q -f "$GOLDEN_KEY" -n coursecheck-evidence evidence/day01-demo/run-2026-11-30.txt
printf 'h200-node namespaces="coursecheck-evidence",valid-after="20261130100000Z",valid-before="20261202Z" %s\n' \
	"$(cut -d' ' -f1-2 "$GOLDEN_KEY.pub")" >evidence/allowed_signers
