# evidence captured before source-rule: tokens-1 (every byte of every
# lesson file): a comment in the shared header makes it stale, and
# why-stale can name only the file
printf '// a comment\n' >>programs/common/check.h
