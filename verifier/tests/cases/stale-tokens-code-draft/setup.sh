# evidence as capture writes it now; the page a draft; a line of code of
# the shared header changed: stale, a warning on the draft page and on its
# program
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
sed -i 's/^status: .*/status: draft/' pages/day02-scan.md
sed -i 's|^#include <cstdlib>$|#include <cstdlib>\n#define CHECK_EXIT_CODE 1|' programs/common/check.h
