# a shared header no source of the lesson includes, there when it was
# captured: its code changed, and a new header beside the program, are no
# change to the lesson (the build never read them)
printf '#define UNUSED 1\n' >programs/common/unused.h
sh "$(dirname "$SEAL")/tokens-evidence.sh" . evidence/day02-scan/run-2026-11-30.txt
printf '#define UNUSED 2\n' >programs/common/unused.h
printf '#define LATER 1\n' >programs/day02-scan/later.h
