// Day 2 (test fixture): the figures a page makes claims about.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o claims claims.cu
// Run:   ./claims
// Resolution: ms 0.0005

#include <cstdio>

int main()
{
    std::printf("the transcript of this fixture is written by hand\n");
    return 0;
}
