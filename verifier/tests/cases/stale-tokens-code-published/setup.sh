# evidence as capture writes it now; the page a draft, checked --as published; a line of code of
# the shared header changed: stale, an error at the published gate, on the page and its
# program
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
sed -i 's/^status: .*/status: draft/' pages/day02-scan.md
sed -i 's|^#include <cstdlib>$|#include <cstdlib>\n#define CHECK_EXIT_CODE 1|' programs/common/check.h
