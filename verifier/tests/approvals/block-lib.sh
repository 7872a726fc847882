# block-lib.sh - sourced by the approvals suites (course.sh, agent.sh): an
# approvals file's first block as `ssh-keygen -Y verify` takes it.
#
# first_block FILE DIR: DIR/block, the block's signed text; DIR/block.sig,
# its armored signature; DIR/signers, evidence/allowed_signers without its
# comments (run from the course's root)
first_block() {
	sed -n '1,/^-----BEGIN SSH SIGNATURE-----$/p' "$1" | sed '$d' >"$2/block"
	sed -n '/^-----BEGIN SSH SIGNATURE-----$/,/^-----END SSH SIGNATURE-----$/p' "$1" >"$2/block.sig"
	grep -v '^#' evidence/allowed_signers >"$2/signers"
}
