// Day 1 (test fixture): add two vectors, check every sum.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o demo demo.cu
// Run:   ./demo
//
// Verified 2026-11-30 on an NVIDIA H200 (compute capability 9.0), driver
// 580.159.04, CUDA 13.0 (V13.0.88), built with -O3 -arch=sm_90. Transcript:
// evidence/day01-demo/run-2026-11-30.txt

#include <cstdio>

// snippet: add
__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
// end snippet

// end-snippet
// snipet: x
int main()
{
    // snippet: launch
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    // end snippet: launch
    return 0;
}
