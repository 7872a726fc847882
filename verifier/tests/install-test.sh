#!/bin/sh
# install-test.sh - `make install DESTDIR=... PREFIX=/usr` lays out both
# binaries, the man page and the bash completion; the installed binary
# runs; the completion completes; `make uninstall` removes them all.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 failed=0
check() {
	what=$1
	shift
	if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); else echo "FAIL $what"; failed=$((failed + 1)); fi
}
D=$T/dest
make --no-print-directory -s install DESTDIR="$D" PREFIX=/usr >"$T/log" 2>&1
check "make install DESTDIR=$D PREFIX=/usr failed: $(tail -3 "$T/log")" [ $? -eq 0 ]
for f in usr/bin/coursecheck usr/bin/coursecheck-capture; do
	check "$f is not an executable" [ -x "$D/$f" ]
done
check "the man page is not at usr/share/man/man1/coursecheck.1" [ -f "$D/usr/share/man/man1/coursecheck.1" ]
check "the completion is not at usr/share/bash-completion/completions/coursecheck" \
	[ -f "$D/usr/share/bash-completion/completions/coursecheck" ]
check "the installed man page has mode 644" [ "$(stat -c %a "$D/usr/share/man/man1/coursecheck.1")" = 644 ]
check "the installed binary does not run" sh -c "'$D/usr/bin/coursecheck' --version | grep -q '^coursecheck [0-9]'"
check "the installed capture binary does not run" sh -c "'$D/usr/bin/coursecheck-capture' --version | grep -q '^coursecheck-capture [0-9]'"
# the editors' set-up for coursecheck lsp: Neovim's module loads in a
# headless Neovim from where it is installed, VS Code's extension is there
check "the Neovim module is not at usr/share/coursecheck/nvim/lua/coursecheck.lua" \
	[ -f "$D/usr/share/coursecheck/nvim/lua/coursecheck.lua" ]
check "the VS Code extension is not at usr/share/coursecheck/vscode" \
	[ -f "$D/usr/share/coursecheck/vscode/package.json" -a -f "$D/usr/share/coursecheck/vscode/extension.js" ]
if command -v nvim >/dev/null 2>&1; then
	out=$(cd "$T" && HOME=$T XDG_CONFIG_HOME=$T/x XDG_DATA_HOME=$T/x XDG_STATE_HOME=$T/x XDG_CACHE_HOME=$T/x \
		timeout 60 nvim --headless -n -i NONE -u NONE \
		--cmd "set rtp^=$D/usr/share/coursecheck/nvim" \
		-c "lua io.stdout:write(type(require('coursecheck').setup))" -c 'qall!' </dev/null 2>&1)
	check "the installed Neovim module does not load: $out" [ "$out" = function ]
fi
check "something was installed outside PREFIX" [ "$(cd "$D" && find . -type f | grep -vc '^\./usr/')" -eq 0 ]
if command -v bash >/dev/null 2>&1; then
	out=$(PATH="$D/usr/bin:$PATH" bash -c ". '$D/usr/share/bash-completion/completions/coursecheck'
		COMP_WORDS=(coursecheck ver); COMP_CWORD=1; _coursecheck; echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(coursecheck verify --format=s); COMP_CWORD=2; _coursecheck; echo \"\${COMPREPLY[*]}\"" 2>&1)
	check "the completion does not complete 'ver' and '--format=s': $out" [ "$out" = "verify
sarif" ]
	# options come from the binaries' own --help: capture's Slurm options,
	# update's --format; lessons are folders capture accepts, not common
	C=$T/course
	mkdir -p "$C/programs/common" "$C/programs/day01-a" "$C/programs/bad name" "$C/pages"
	out=$(cd "$C" && PATH="$D/usr/bin:$PATH" bash -c ". '$D/usr/share/bash-completion/completions/coursecheck-capture'
		t() { COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _coursecheck; echo \"\${COMPREPLY[*]}\"; }
		t coursecheck capture ''; t coursecheck-capture --par; t coursecheck update --fo; t coursecheck help up" 2>&1)
	check "the completion's lessons, options or commands are wrong: $out" [ "$out" = "day01-a
--partition=
--format=
update" ]
	check "the capture binary's completion is not linked" [ -L "$D/usr/share/bash-completion/completions/coursecheck-capture" ]
	check "the capture man page is not installed" [ -f "$D/usr/share/man/man1/coursecheck-capture.1" ]
fi
# bindir and mandir on their own
make --no-print-directory -s install DESTDIR="$T/d2" bindir=/opt/cc/bin mandir=/opt/cc/man >/dev/null 2>&1
check "bindir= is not honoured" [ -x "$T/d2/opt/cc/bin/coursecheck" ]
check "mandir= is not honoured" [ -f "$T/d2/opt/cc/man/man1/coursecheck.1" ]
make --no-print-directory -s uninstall DESTDIR="$D" PREFIX=/usr >"$T/log" 2>&1
check "make uninstall failed" [ $? -eq 0 ]
check "uninstall left files: $(cd "$D" && find . -type f | head -3)" [ "$(cd "$D" && find . -type f | wc -l)" -eq 0 ]
# the flags a packager passes reach the compiler and the linker; WERROR=0
# drops -Werror, which the project's own build keeps
make -n -B --no-print-directory BUILD="$T/b" "$T/b/coursecheck" CPPFLAGS=-DPKG_CPPFLAG CFLAGS=-O1 \
	LDFLAGS=-Wl,--as-needed WERROR=0 >"$T/n" 2>&1
check "CPPFLAGS does not reach the compiler" grep -q -- '-c .*' "$T/n"
check "CPPFLAGS does not reach every compile" sh -c "! grep -- ' -c ' '$T/n' | grep -vq -- -DPKG_CPPFLAG"
check "CFLAGS does not reach the compiler" grep -q -- '-O1 .* -c ' "$T/n"
check "LDFLAGS does not reach the linker" grep -q -- '-Wl,--as-needed .*-o .*/coursecheck$' "$T/n"
check "WERROR=0 keeps -Werror" sh -c "! grep -q -- -Werror '$T/n'"
make -n -B --no-print-directory BUILD="$T/b" "$T/b/coursecheck" >"$T/n" 2>&1
check "the project's own build drops -Werror" grep -q -- '-Werror' "$T/n"
# plain `make` installs no package: it names what is missing and stops
# (no package is found under an empty pkg-config search path)
PKG_CONFIG_LIBDIR=$T/none PKG_CONFIG_PATH='' sh verifier/scripts/deps.sh --check build >"$T/deps" 2>&1
rc=$?
check "deps.sh --check exits $rc with every package missing, not 1" [ $rc -eq 1 ]
check "deps.sh --check does not name the missing packages" grep -q 'libjansson-dev' "$T/deps"
check "deps.sh --check installs" sh -c "! grep -q installing '$T/deps'"
check "plain make does not run deps.sh --check" sh -c "make -n --no-print-directory all | grep -q 'deps.sh --check build'"
check "make verify does not install what it lacks" sh -c "make -n --no-print-directory -B verify | grep -q 'deps.sh full$'"
echo "install: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
