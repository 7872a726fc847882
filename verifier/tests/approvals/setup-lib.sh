# Sourced by the setup.sh of the golden cases of the review gate (issue 36):
#   . "$(dirname "$SEAL")/approvals/setup-lib.sh"
# Approvals are made with the project's own `coursecheck approve`, signed by
# keys made here with ssh-keygen; their time is COURSECHECK_NOW's, so that
# the expected output does not move.
export COURSECHECK_NOW=2026-12-05T06:00:00Z

# publish PAGE: status: published
publish() { sed -i 's/^status: .*/status: published/' "$1"; }

# sign_runs: the runs signed by the suite's key now (approve checks the page
# at its status first, and a published page needs signed runs), the key
# listed for evidence as the runner lists it
sign_runs() {
	find evidence -type f -name 'run-*.txt' | while IFS= read -r f; do
		[ -e "$f.sig" ] || ssh-keygen -Y sign -q -f "$GOLDEN_KEY" -n coursecheck-evidence "$f" </dev/null >/dev/null 2>&1
	done
	printf 'golden namespaces="coursecheck-evidence" %s\n' "$(cut -d' ' -f1-2 "$GOLDEN_KEY.pub")" >>evidence/allowed_signers
}

# reviewer NAME [listed]: a key in keys/NAME; listed (the default) puts it in
# allowed_signers for coursecheck-review under NAME
reviewer() {
	mkdir -p keys
	ssh-keygen -q -t ed25519 -N '' -C "$1" -f "keys/$1" </dev/null >/dev/null
	[ "${2:-listed}" = listed ] || return 0
	printf '%s namespaces="coursecheck-review" %s\n' "$1" "$(cut -d' ' -f1-2 "keys/$1.pub")" >>evidence/allowed_signers
}

# approve PAGE NAME [ARGS...]: coursecheck approve as reviewer NAME (--all by default)
approve() {
	page=$1 name=$2
	shift 2
	[ $# -gt 0 ] || set -- --all
	"$COURSECHECK" approve "$page" "$@" --key "keys/$name" --principal "$name" -q >/dev/null 2>&1
}
