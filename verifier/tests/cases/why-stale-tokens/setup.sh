# evidence as capture writes it now, of a commit git holds; then a line of
# code of the shared header changed: why-stale names the header, the
# include that reached it and the first changed line
git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm captured
sed -i "s/^node: .*/&\ncommit: $(git rev-parse HEAD)/" evidence/day02-scan/run-2026-11-30.txt
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
printf '// a comment first: no change\n' >>programs/common/check.h
sed -i 's/std::exit(1);/std::exit(3);/' programs/common/check.h
