# the pull request signs the run with its own key and adds that key to
# allowed_signers; the base revision (HEAD here) does not list it
printf '# the course trusts no key yet\n' >evidence/allowed_signers
git init -q . && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm base
ssh-keygen -q -t ed25519 -N '' -C mine -f ../$(basename "$PWD").mine </dev/null
ssh-keygen -Y sign -q -f ../$(basename "$PWD").mine -n coursecheck-evidence evidence/day01-demo/run-2026-11-30.txt
printf 'me namespaces="coursecheck-evidence" %s\n' "$(cut -d' ' -f1-2 ../$(basename "$PWD").mine.pub)" >>evidence/allowed_signers
