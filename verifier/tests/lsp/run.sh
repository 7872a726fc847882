#!/bin/sh
# run.sh COURSECHECK - the language server's suite (make lsp-test): the
# client test (lsp-test.py: every answer checked exactly, hostile
# messages), the page written by code actions alone (scratch-test.py),
# and Neovim's built-in client headless (nvim-test.sh; skipped, and named
# in SKIPPED_FILE, when nvim is missing).  Ends on "lsp-test: N passed,
# N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
for t in lsp-test.py scratch-test.py nvim-test.sh; do
	case $t in
	*.py) python3 "$here/$t" "$1" ;;
	*.sh)
		if ! command -v nvim >/dev/null 2>&1; then
			echo "SKIP: nvim-test: nvim is not installed (Debian package neovim)"
			[ -z "${SKIPPED_FILE:-}" ] || echo "lsp nvim-test: nvim missing (Debian package neovim)" >>"$SKIPPED_FILE"
			continue
		fi
		sh "$here/$t" "$1" ;;
	esac
	if [ $? -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "lsp-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
