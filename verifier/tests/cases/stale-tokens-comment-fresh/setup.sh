# evidence as capture writes it now (source-rule: tokens-1, the files the
# build read); then a comment in the shared header, a renamed snippet
# marker (program and page), blank lines and re-indented code: no change
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
printf '// a note for readers, added after the capture\n' >>programs/common/check.h
sed -i 's|^// snippet: tile$|// snippet: tile-kernel|' programs/day02-scan/tile.cu
sed -i 's|<!-- snippet: tile.cu#tile -->|<!-- snippet: tile.cu#tile-kernel -->|' pages/day02-scan.md
sed -i 's|^#include "tile.h"$|\n\n#include   "tile.h"   /* the kernel */|' programs/day02-scan/scan.cu
