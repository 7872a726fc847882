# lines coursecheck cannot use, each at its column
k=$(cut -d' ' -f1-2 "$GOLDEN_KEY.pub")
{
	printf '# comments and blank lines are skipped\n\n'
	printf 'ca cert-authority %s\n' "$k"
	printf 'late valid-before="yesterday" %s\n' "$k"
	printf 'rsa ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ\n'
	printf 'alone\n'
	printf 'bad ssh-ed25519 not-base64!\n'
	printf 'never valid-after="20261201Z",valid-before="20261130Z" %s\n' "$k"
	printf 'what color="blue" %s\n' "$k"
} >evidence/allowed_signers
