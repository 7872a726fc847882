# explain's JSON report of an unsigned run: signature unsigned, every
# member the verdict has no value for null, not left out
rm evidence/allowed_signers
