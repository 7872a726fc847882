#!/bin/sh
# temporary: multi-GPU check on a real node (deleted after use)
CAP=$(pwd)/$1
T=$(mktemp -d); R=$T/repo
for l in a b c d; do
mkdir -p $R/programs/$l
cat > $R/programs/$l/bus.cu <<'EOF'
// Build: nvcc -o bus bus.cu
// Run: ./bus
#include <cstdio>
#include <unistd.h>
int main() {
  char bus[64]; int dev = 0, n = 0;
  cudaGetDeviceCount(&n); cudaGetDevice(&dev); cudaFree(0);
  cudaDeviceGetPCIBusId(bus, sizeof bus, dev);
  printf("devices %d bus %s\n", n, bus);
  usleep(2000000);
  return 0;
}
EOF
done
cd $R && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm i
nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader
t0=$(date +%s); "$CAP" -j 4; echo rc=$? took $(( $(date +%s) - t0 )) s
for l in a b c d; do f=$(ls evidence/$l/*.txt); echo "$l: $(grep -E '^(gpu-index|gpu-exclusive|run-seconds):' $f | tr '\n' ' ') $(grep '^devices' $f)"; done
