// cuda_check.h: the CUDA error check every lesson program uses.
//
// CHECK(call) makes one CUDA runtime call. When it fails, CHECK prints the
// call, the file and line of the CHECK and CUDA's description of the error
// on stderr, then throws CudaFailure. Throwing instead of exiting lets the
// owners of device memory free it while the stack unwinds; main() catches
// CudaFailure and leaves through its one return with a failing status.
//
// A launch reports a bad configuration only through the error state, so
// every <<<...>>> is followed by CHECK_LAUNCH().
//
// Each lesson includes it as "../common/cuda_check.h": capture copies
// programs/common/ beside the lesson folder, so the path holds there too.
#pragma once

#include <cstdio>

#include <cuda_runtime.h>

struct CudaFailure {};

inline void printCudaError(cudaError_t code, const char* what, const char* file,
                           int line) {
    std::fprintf(stderr, "CUDA error at %s:%d in %s: %s\n", file, line, what,
                 cudaGetErrorString(code));
}

// snippet: check
// One statement wherever it is used (the do/while), and the local name ends
// in an underscore so it cannot shadow anything at the call site.
#define CHECK(call)                                               \
    do {                                                          \
        const cudaError_t code_ = (call);                         \
        if (code_ != cudaSuccess) {                               \
            printCudaError(code_, #call, __FILE__, __LINE__);     \
            throw CudaFailure{};                                  \
        }                                                         \
    } while (0)
// end snippet

#define CHECK_LAUNCH() CHECK(cudaGetLastError())
