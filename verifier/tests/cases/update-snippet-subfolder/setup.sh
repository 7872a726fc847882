# a FILE#NAME snippet from a subfolder of the lesson, which verify resolves
# against the lesson's folder: update rewrites it from the same file (it
# said "no such snippet")
mkdir -p programs/day01-demo/src
cat > programs/day01-demo/src/kern.h <<'X'
// snippet: scale
static inline float scale(float x) { return 2.0f * x; }
// end snippet: scale
X
cat >> pages/day01-demo.md <<'X'

The helper it could use:

<!-- snippet: src/kern.h#scale -->
```cuda
static inline float scale(float x) { return 3.0f * x; }
```
X
sh "$SEAL" . evidence/day01-demo/run-2026-11-30.txt
