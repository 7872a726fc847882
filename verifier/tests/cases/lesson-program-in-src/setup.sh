# a lesson laid out as its upstream project lays it out: the program at
# src/main.cu beside its kernel, a CMakeLists.txt, the shared header two
# folders up; the page names the program; evidence as capture writes it now
cd programs/day02-scan
mkdir src
mv scan.cu src/main.cu
mv tile.cu tile.h src/
sed -i 's|"../common/check.h"|"../../common/check.h"|' src/main.cu src/tile.cu
sed -i '3,4c\\// Build: cmake -S . -B b \&\& cmake --build b' src/main.cu
sed -i 's|^// Run: ./scan |// Run: ./b/scan |; s|hazard ./scan 64|hazard ./b/scan 64|' src/main.cu
printf 'cmake_minimum_required(VERSION 3.18)\nproject(scan CUDA)\nadd_executable(scan src/main.cu src/tile.cu)\n' >CMakeLists.txt
cd ../..
sed -i 's|programs/day02-scan/scan.cu|programs/day02-scan/src/main.cu|; s|<!-- snippet: tile.cu#tile -->|<!-- snippet: src/tile.cu#tile -->|' pages/day02-scan.md
E=evidence/day02-scan/run-2026-11-30.txt
sed -i 's|^program: .*|program: programs/day02-scan/src/main.cu|; s|^build: .*|build: cmake -S . -B b \&\& cmake --build b|; s|^run: ./scan |run: ./b/scan |; s|hazard ./scan 64|hazard ./b/scan 64|' "$E"
sh "$(dirname "$SEAL")/tokens-evidence.sh" . "$E"
