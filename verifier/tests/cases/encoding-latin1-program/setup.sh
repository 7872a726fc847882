# F01: the fixture's program with a Verified paragraph dated 2019-01-01,
# naming the older run, and one Latin-1 byte (0xE9, an e-acute) in it
f=programs/day31-scan-1/scan.cu
e=$(printf '\351')
LC_ALL=C sed -i "34s|^// Verified 2026-11-30 on an NVIDIA H200 (compute capability 9.0), driver\$|// Verified 2019-01-01 on an NVIDIA H200 (compute capability 9.0), driver ($e)|; 36s|run-2026-11-30-2.txt|run-2026-11-30.txt|" "$f"
