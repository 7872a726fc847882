// Day 31: prefix sum, part 1. The Hillis-Steele scan inside one block.
//
// Each block scans its own tile of blockDim.x elements; no value crosses a
// block boundary (day 32 adds that). Four kernels run over one input at
// block sizes 32, 64, 256 and 1024:
//
//   scanInPlaceRacy        one shared array and one barrier per step. A
//                          thread reads a word its neighbour may be writing
//                          in the same step: a data race.
//   scanNoCopy             two shared halves, but a thread with nothing to
//                          add writes nothing, so the half it skipped keeps a
//                          value from two steps back. Wrong, and always
//                          wrong in exactly the same places.
//   scanDoubleBuffered     two halves, every thread writes every step.
//   scanExclusiveShifted   the same scan, each thread then taking its left
//                          neighbour's result, thread 0 taking zero.
//
// The first two are wrong by design and the program reports how wrong,
// without demanding that they fail: one fails through a race, and a race owes
// no launch any particular outcome. The last two are gated.
//
// The input is a whole number from 1 to 8 picked by a hash of the index, so
// no two tiles hold the same values and the pattern has no period a tile
// size could be a multiple of. A prefix inside a 1024-element tile is at
// most 8 x 1024 = 8192, far below 2^24, so every prefix is exact in a float
// and the check is == with no tolerance. A mismatch means the wrong set of
// elements was added, never that the additions rounded differently. The
// output array is filled with 0xFF bytes (a NaN in every float) before each
// row, so an element a kernel never stores cannot pass for a right answer.
//
// Deliberately broken builds: compile with one of -DBROKEN_TILE0,
// -DBROKEN_NO_COPY, -DBROKEN_EXCLUSIVE_HEAD, -DBROKEN_RAGGED_END,
// -DBROKEN_NO_BARRIER or -DBROKEN_IN_PLACE and the gated kernels carry the
// bug the macro names; the gate must then fail (verifier/scripts/
// broken-variants.sh runs them). The last two are this lesson's race put
// into the gated kernels: the gate fails at 64 threads and up, and at 32,
// one warp, where it cannot, racecheck must report the race.
//
// No clock. The lesson is about which answers are right; each launch moves
// about 8 MB, a few microseconds of memory traffic on a current GPU, which
// is the same order as the launch itself (day 9's subject), and the speed
// of a kernel that gets the wrong answer is not worth knowing. Day 32 times
// a scan of ten million elements.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -o scan scan.cu
// Run:   ./scan
// Run racecheck-32: compute-sanitizer --tool racecheck ./scan 32
// Run racecheck-64: compute-sanitizer --tool racecheck ./scan 64
// Expect: ^both double-buffered kernels matched the CPU at
//
// Verified 2026-12-05 on an NVIDIA H200 (compute capability 9.0), driver
// 580.159.04, CUDA 13.0 (V13.0.88), built with -O3 -arch=sm_90. Transcript:
// evidence/day31-scan-1/run-2026-12-05-2.txt

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/cuda_check.h"

// ---------------------------------------------------------------------------
// Error handling and ownership
// ---------------------------------------------------------------------------

// CHECK, CHECK_LAUNCH and CudaFailure are the course's shared error check
// (programs/common/cuda_check.h).

// A failed cudaFree inside a destructor cannot throw; it is counted here and
// main() turns it into a failing exit status.
static int g_freeFailures = 0;

template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(std::size_t count) : count_(count) {
        CHECK(cudaMalloc(&ptr_, count_ * sizeof(T)));
    }
    ~DeviceArray() {
        if (ptr_ != nullptr) {
            const cudaError_t code = cudaFree(ptr_);
            if (code != cudaSuccess) {
                printCudaError(code, "cudaFree", __FILE__, __LINE__);
                ++g_freeFailures;
            }
        }
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    T* get() const { return ptr_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T* ptr_ = nullptr;
    std::size_t count_;
};

// ---------------------------------------------------------------------------
// Constants and the compile-time work model
// ---------------------------------------------------------------------------

// Lanes per warp on every card the course targets. main() compares it with
// the device's own warpSize, because the in-place rows are read against it.
constexpr int kLanes = 32;

// Shared arrays are sized for the largest block in the sweep so that one
// build runs every row. A 32-thread block therefore reserves room for 1024.
constexpr int kMaxBlock = 1024;

constexpr int kSweepCount = 4;
constexpr int kSweep[kSweepCount] = {32, 64, 256, 1024};

// The block size the lesson's prose quotes figures for.
constexpr int kQuotedBlock = 256;

// 2^20 + 611 elements. 611 = 13 x 47 is odd, so no power-of-two block size
// divides the count: every sweep row ends in a partial tile and every
// kernel's bounds test cuts something off.
constexpr std::size_t kElements = (std::size_t{1} << 20) + 611;

// The largest input value. Inputs run from 1 to kMaxInput.
constexpr int kMaxInput = 8;

// The input value at index i: 1 to 8, from the top three bits of an integer
// hash of i. Not (i % 8) + 1: with a period that divides every tile size,
// every tile holds the same numbers, and a kernel that scans tile 0 for
// every block (reading in[t] instead of in[g]) would pass the check.
constexpr float inputAt(std::size_t i) {
    std::uint32_t h = static_cast<std::uint32_t>(i) * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    return static_cast<float>(h >> 29) + 1.0f;
}

// log2 of a power of two: the number of steps a Hillis-Steele scan of that
// many elements takes.
constexpr int stepsFor(int width) {
    int steps = 0;
    for (int w = width; w > 1; w /= 2) {
        ++steps;
    }
    return steps;
}

// Additions one Hillis-Steele scan of `width` elements performs. At the step
// with distance d, every element with something d places to its left adds
// it: width - d additions, for d = 1, 2, 4, ..., width / 2.
constexpr int hillisSteeleAdds(int width) {
    int adds = 0;
    for (int d = 1; d < width; d *= 2) {
        adds += width - d;
    }
    return adds;
}

// A loop that walks the array once adds once per element after the first.
constexpr int sequentialAdds(int width) {
    return width - 1;
}

// A bound on any prefix inside a tile: every input is at most kMaxInput.
// The program prints the largest prefix the input actually reaches.
constexpr int tilePrefixBound(int width) {
    return width * kMaxInput;
}

// Every size in the sweep has to be a power of two (the step distance
// doubles), a whole number of warps, within the shared arrays, and must not
// divide the element count.
constexpr bool sweepIsSound() {
    for (int s = 0; s < kSweepCount; ++s) {
        const int w = kSweep[s];
        if (w < kLanes || w > kMaxBlock || (w & (w - 1)) != 0 ||
            w % kLanes != 0 || kElements % static_cast<std::size_t>(w) == 0) {
            return false;
        }
    }
    return true;
}

// The work claim the lesson makes, for every size in the sweep.
constexpr bool workModelHolds() {
    for (int s = 0; s < kSweepCount; ++s) {
        const int w = kSweep[s];
        if (hillisSteeleAdds(w) != w * stepsFor(w) - (w - 1)) {
            return false;  // the closed form n log2(n) - (n - 1)
        }
        if (hillisSteeleAdds(w) <= sequentialAdds(w)) {
            return false;  // strictly more work than a plain loop
        }
    }
    return true;
}

static_assert(sweepIsSound(),
              "each swept block size must be a power-of-two number of warps, "
              "at most kMaxBlock, and must leave a partial last tile");
static_assert(workModelHolds(),
              "Hillis-Steele over n elements makes n log2(n) - (n - 1) "
              "additions, more than the n - 1 of a sequential scan");
static_assert(hillisSteeleAdds(kQuotedBlock) == 1793 &&
                  sequentialAdds(kQuotedBlock) == 255 &&
                  stepsFor(kQuotedBlock) == 8,
              "a 256-thread tile takes 8 steps and 1793 additions, against "
              "255 for a sequential scan");
static_assert(tilePrefixBound(kMaxBlock) < (1 << 24),
              "no prefix of a tile can reach 2^24, so a float holds every "
              "one exactly");
static_assert(inputAt(0) != inputAt(1024) || inputAt(1) != inputAt(1025) ||
                  inputAt(2) != inputAt(1026),
              "the input must not repeat from one tile to the next");
static_assert(2 * kMaxBlock * sizeof(float) <= 48 * 1024,
              "two halves for the largest block must fit the 48 KiB of "
              "static shared memory a block may declare");

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------
//
// Shared to all four: one thread per element; a warp's global load is 32
// consecutive floats, one 128-byte run; the shared reads at t and t - d are
// consecutive across the warp, so they fall in 32 different banks. None of
// these kernels has a bank conflict, and none of their bugs is about memory
// speed.
//
// Launch for all four: blockDim.x no larger than kMaxBlock, and
// ceil(n / blockDim.x) blocks. The scan itself works for any block size
// (ceil(log2(blockDim.x)) steps); only the work model and the sweep above
// assume powers of two.

// Inclusive scan, in place. Wrong: it races.
//
// In the step with distance d, thread t reads cells[t - d] while thread
// t - d may be writing that very word, and the only barrier sits after both.
// Which value t gets depends on which thread got there first. Inside one
// warp the lanes often move together and the race rarely shows, which is
// exactly why a 32-thread test proves nothing.
// snippet: in-place
__global__ void scanInPlaceRacy(const float* __restrict__ in,
                                float* __restrict__ out, std::size_t n) {
    __shared__ float cells[kMaxBlock];

    const unsigned int t = threadIdx.x;
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;

    // A thread past the end loads 0, which adds nothing to anyone's prefix,
    // and stays in the block so it still reaches every barrier.
    cells[t] = (g < n) ? in[g] : 0.0f;
    __syncthreads();

    for (unsigned int d = 1; d < blockDim.x; d *= 2) {
        if (t >= d) {
            cells[t] += cells[t - d];
        }
        __syncthreads();
    }

    if (g < n) {
        out[g] = cells[t];
    }
}
// end snippet: in-place

// Inclusive scan with two halves, missing the copy. Wrong, deterministically.
//
// Each step reads `from` and writes `to`, which removes the race. But a
// thread with no element d places to its left writes nothing, and in
// two-half form doing nothing is not neutral: `to` still holds what that
// thread wrote two steps earlier, and the next step reads that stale value.
//
// Both halves start out holding the input, so the stale read is of a value
// somebody did write and the mismatch count is the same on every launch.
// Fill only one half and the same bug reads shared memory nobody wrote.
// No tool flags either form: compute-sanitizer's initcheck watches global
// memory, not shared, so only the comparison with the CPU catches this bug.
// snippet: no-copy
__global__ void scanNoCopy(const float* __restrict__ in,
                           float* __restrict__ out, std::size_t n) {
    __shared__ float halves[2 * kMaxBlock];

    const unsigned int t = threadIdx.x;
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;
    float* from = halves;
    float* to = halves + blockDim.x;

    const float mine = (g < n) ? in[g] : 0.0f;
    from[t] = mine;
    to[t] = mine;
    __syncthreads();

    for (unsigned int d = 1; d < blockDim.x; d *= 2) {
        if (t >= d) {
            to[t] = from[t] + from[t - d];
        }
        // ...and no else: threads below d leave to[t] as it was.
        __syncthreads();
        float* const written = to;
        to = from;
        from = written;
    }

    if (g < n) {
        out[g] = from[t];
    }
}
// end snippet: no-copy

// The scan both correct kernels share: two halves, every thread writes every
// step. Returns the half holding the finished inclusive scan.
//
// One barrier per step is enough. A half is read in one step and written in
// the next, and the barrier at the end of each step sits between the two,
// so no thread can overwrite a word another thread has yet to read. (In
// place, the same promise would take a second barrier inside each step.)
//
// `from` always names the half with the complete state, so when the loop
// ends it names the answer: there is no last swap to undo.
// snippet: double-buffer
__device__ const float* pingPongScan(float* halves, float mine) {
    const unsigned int t = threadIdx.x;
    float* from = halves;
    float* to = halves + blockDim.x;

    from[t] = mine;
    __syncthreads();

    for (unsigned int d = 1; d < blockDim.x; d *= 2) {
        if (t >= d) {
            to[t] = from[t] + from[t - d];
        } else {
            to[t] = from[t];  // nothing to add, but the value must move
        }
        __syncthreads();
        float* const written = to;
        to = from;
        from = written;
    }
    return from;
}

// Inclusive scan with two halves, done right.
__global__ void scanDoubleBuffered(const float* __restrict__ in,
                                   float* __restrict__ out, std::size_t n) {
    __shared__ float halves[2 * kMaxBlock];

    const unsigned int t = threadIdx.x;
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;

    const float* done = pingPongScan(halves, (g < n) ? in[g] : 0.0f);

    if (g < n) {
        out[g] = done[t];
    }
}
// end snippet: double-buffer

// Exclusive scan: the correct scan above, then one shift to the right.
//
// Each thread stores its left neighbour's inclusive prefix, which is the sum
// of everything before its own element; thread 0 stores 0, the identity.
// The extra read needs no barrier of its own: the scan's last step ended in
// one and nothing writes the tile afterwards, and reads alone cannot race.
//
// Shifting the result after the scan, not the input before it, means the
// tile still holds the full inclusive scan when the kernel ends, tile total
// included. The lesson's exercise builds the other order.
__global__ void scanExclusiveShifted(const float* __restrict__ in,
                                     float* __restrict__ out, std::size_t n) {
    __shared__ float halves[2 * kMaxBlock];

    const unsigned int t = threadIdx.x;
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;

    const float* done = pingPongScan(halves, (g < n) ? in[g] : 0.0f);

    // snippet: exclusive-shift
    if (g < n) {
        out[g] = (t == 0) ? 0.0f : done[t - 1];
    }
    // end snippet: exclusive-shift
}

// ---------------------------------------------------------------------------
// Deliberately broken builds
// ---------------------------------------------------------------------------
//
// Each macro swaps the two gated kernels for copies that carry one bug the
// lesson names, so that a build with it shows whether the gate can see that
// bug. None is defined in the lesson's own build.
//
//   BROKEN_TILE0           every block loads tile 0 (in[t], not in[g])
//   BROKEN_NO_COPY         the scan drops the else: idle threads go stale
//   BROKEN_EXCLUSIVE_HEAD  the exclusive kernel never stores a tile's zero
//   BROKEN_RAGGED_END      the last element of the array is never stored
//   BROKEN_NO_BARRIER      the ping-pong loop loses its one barrier per step
//   BROKEN_IN_PLACE        the gated kernels scan in place, one shared array
//
// The last two put this lesson's race into the gated kernels. Within one
// warp (32 threads) the exact check cannot see it, so the header's
// racecheck runs of those builds are the second check
// (verifier/scripts/broken-variants.sh runs both).
#if defined(BROKEN_TILE0) || defined(BROKEN_NO_COPY) || \
    defined(BROKEN_EXCLUSIVE_HEAD) || defined(BROKEN_RAGGED_END) || \
    defined(BROKEN_NO_BARRIER) || defined(BROKEN_IN_PLACE)
#define BROKEN_BUILD 1

__device__ const float* brokenPingPongScan(float* halves, float mine) {
    const unsigned int t = threadIdx.x;
#if defined(BROKEN_IN_PLACE)
    // one array, read and written in the same step
    halves[t] = mine;
    __syncthreads();
    for (unsigned int d = 1; d < blockDim.x; d *= 2) {
        if (t >= d) {
            halves[t] += halves[t - d];
        }
        __syncthreads();
    }
    return halves;
#endif
    float* from = halves;
    float* to = halves + blockDim.x;
    from[t] = mine;
#if defined(BROKEN_NO_COPY)
    to[t] = mine;  // both halves start right; only the copy is missing
#endif
    __syncthreads();
    for (unsigned int d = 1; d < blockDim.x; d *= 2) {
        if (t >= d) {
            to[t] = from[t] + from[t - d];
        }
#if !defined(BROKEN_NO_COPY)
        else {
            to[t] = from[t];
        }
#endif
#if !defined(BROKEN_NO_BARRIER)
        __syncthreads();
#endif
        float* const written = to;
        to = from;
        from = written;
    }
#if defined(BROKEN_NO_BARRIER)
    __syncthreads();  // only the steps race; the read-out stays ordered
#endif
    return from;
}

// What a thread loads: its own element, or with BROKEN_TILE0 the element of
// tile 0 at its position.
__device__ float brokenLoad(const float* in, std::size_t g, std::size_t n) {
#if defined(BROKEN_TILE0)
    const std::size_t at = threadIdx.x;
#else
    const std::size_t at = g;
#endif
    return (g < n && at < n) ? in[at] : 0.0f;
}

// Whether element g is stored: all of them, or with BROKEN_RAGGED_END all
// but the array's last.
__device__ bool brokenStores(std::size_t g, std::size_t n) {
#if defined(BROKEN_RAGGED_END)
    return g + 1 < n;
#else
    return g < n;
#endif
}

__global__ void brokenInclusive(const float* __restrict__ in,
                                float* __restrict__ out, std::size_t n) {
    __shared__ float halves[2 * kMaxBlock];
    const unsigned int t = threadIdx.x;
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;
    const float* done = brokenPingPongScan(halves, brokenLoad(in, g, n));
    if (brokenStores(g, n)) {
        out[g] = done[t];
    }
}

__global__ void brokenExclusive(const float* __restrict__ in,
                                float* __restrict__ out, std::size_t n) {
    __shared__ float halves[2 * kMaxBlock];
    const unsigned int t = threadIdx.x;
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;
    const float* done = brokenPingPongScan(halves, brokenLoad(in, g, n));
#if defined(BROKEN_EXCLUSIVE_HEAD)
    // Thread 0 skips its store, as if the zero were already there.
    if (brokenStores(g, n) && t != 0) {
        out[g] = done[t - 1];
    }
#else
    if (brokenStores(g, n)) {
        out[g] = (t == 0) ? 0.0f : done[t - 1];
    }
#endif
}

// From here on, the gated rows launch the broken copies.
#define scanDoubleBuffered brokenInclusive
#define scanExclusiveShifted brokenExclusive
#endif  // deliberately broken builds

// ---------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------

enum class Kernel { InPlace, NoCopy, DoubleBuffered, Exclusive };

struct KernelRow {
    Kernel kernel;
    const char* label;
    bool gated;  // only the two correct kernels are held to the reference
};

constexpr int kKernelCount = 4;
constexpr KernelRow kRows[kKernelCount] = {
    {Kernel::InPlace, "inclusive, in place", false},
    {Kernel::NoCopy, "inclusive, no copy", false},
    {Kernel::DoubleBuffered, "inclusive, double buffered", true},
    {Kernel::Exclusive, "exclusive, double buffered", true},
};

static void launchScan(Kernel which, int blocks, int threads,
                       const float* in, float* out, std::size_t n) {
    switch (which) {
        case Kernel::InPlace:
            scanInPlaceRacy<<<blocks, threads>>>(in, out, n);
            break;
        case Kernel::NoCopy:
            scanNoCopy<<<blocks, threads>>>(in, out, n);
            break;
        case Kernel::DoubleBuffered:
            scanDoubleBuffered<<<blocks, threads>>>(in, out, n);
            break;
        case Kernel::Exclusive:
            scanExclusiveShifted<<<blocks, threads>>>(in, out, n);
            break;
    }
    CHECK_LAUNCH();
}

// The CPU answer, one scan per tile, starting again at every tile boundary,
// which is what a block-level scan produces. A plain loop written to be
// obviously right, accumulating in double; on this input both double and
// float are exact, so the cast back to float loses nothing.
static void tileScanOnHost(const std::vector<float>& in,
                           std::vector<float>& want, std::size_t tile,
                           bool exclusive) {
    const std::size_t n = in.size();
    for (std::size_t start = 0; start < n; start += tile) {
        const std::size_t stop = (start + tile < n) ? start + tile : n;
        double running = 0.0;
        for (std::size_t i = start; i < stop; ++i) {
            if (exclusive) {
                want[i] = static_cast<float>(running);
                running += static_cast<double>(in[i]);
            } else {
                running += static_cast<double>(in[i]);
                want[i] = static_cast<float>(running);
            }
        }
    }
}

// How many elements differ, and the first that does (n when none). Exact
// comparison; the count matters as much as the index, because the two
// broken kernels differ in how much they break.
static std::size_t countMismatches(const std::vector<float>& got,
                                   const std::vector<float>& want,
                                   std::size_t* first) {
    std::size_t bad = 0;
    *first = got.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i]) {
            if (bad == 0) {
                *first = i;
            }
            ++bad;
        }
    }
    return bad;
}

// `./scan THREADS` runs the result rows at that one block size of the sweep,
// so that a racecheck run of the header reports on one block size; `./scan`
// alone runs them all. 0: every size.
static int g_onlyThreads = 0;

static bool pickBlockSize(const char* arg) {
    char* end = nullptr;
    const long v = std::strtol(arg, &end, 10);
    for (int s = 0; s < kSweepCount; ++s) {
        if (end != arg && *end == '\0' && v == kSweep[s]) {
            g_onlyThreads = kSweep[s];
            return true;
        }
    }
    return false;
}

// The whole lesson. Device memory belongs to DeviceArray objects local to
// this function and is released when it returns or when a CHECK throws.
static int runLesson() {
#if defined(BROKEN_BUILD)
    std::printf("DELIBERATELY BROKEN BUILD: the gated kernels carry a bug, "
                "and the gate must fail\n");
#endif
    int device = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    const cudaError_t propsRead = cudaGetDeviceProperties(&prop, device);
    CHECK(propsRead);
    std::printf("GPU: %s (compute capability %d.%d), warp size %d\n",
                prop.name, prop.major, prop.minor, prop.warpSize);
    std::printf("max threads per block: %d, shared memory per block: %zu "
                "bytes\n",
                prop.maxThreadsPerBlock, prop.sharedMemPerBlock);

    int failures = 0;
    if (prop.warpSize != kLanes) {
        std::fprintf(stderr,
                     "this device has %d-lane warps; the in-place rows are "
                     "read against %d\n",
                     prop.warpSize, kLanes);
        ++failures;
    }

    // The work model. The compiler evaluated all of it; nothing here needs
    // the GPU.
    std::printf("\nWork per tile, settled at compile time\n");
    std::printf("%7s  %5s  %9s  %15s  %10s\n", "threads", "steps",
                "scan adds", "sequential adds", "adds ratio");
    std::printf("%7s  %5s  %9s  %15s  %10s\n", "-------", "-----",
                "---------", "---------------", "----------");
    for (int s = 0; s < kSweepCount; ++s) {
        const int w = kSweep[s];
        std::printf("%7d  %5d  %9d  %15d  %9.2fx\n", w, stepsFor(w),
                    hillisSteeleAdds(w), sequentialAdds(w),
                    static_cast<double>(hillisSteeleAdds(w)) /
                        sequentialAdds(w));
    }

    std::vector<float> hostIn(kElements);
    for (std::size_t i = 0; i < kElements; ++i) {
        hostIn[i] = inputAt(i);
    }

    std::printf("\nInput: %zu elements, in[i] = 1 to %d from a hash of i, "
                "no period; one tile per block\n",
                kElements, kMaxInput);
    std::printf("shared memory declared per block: %zu bytes in place, %zu "
                "bytes with two halves (sized for %d threads)\n",
                kMaxBlock * sizeof(float), 2 * kMaxBlock * sizeof(float),
                kMaxBlock);
    std::printf("%7s  %6s  %10s  %9s  %14s\n", "threads", "blocks",
                "full tiles", "last tile", "largest prefix");
    std::printf("%7s  %6s  %10s  %9s  %14s\n", "-------", "------",
                "----------", "---------", "--------------");
    std::vector<float> got(kElements);
    std::vector<float> want(kElements);
    for (int s = 0; s < kSweepCount; ++s) {
        const std::size_t w = static_cast<std::size_t>(kSweep[s]);
        tileScanOnHost(hostIn, want, w, false);
        float largest = 0.0f;
        for (float v : want) {
            largest = v > largest ? v : largest;
        }
        std::printf("%7zu  %6zu  %10zu  %9zu  %14.0f\n", w,
                    (kElements + w - 1) / w, kElements / w, kElements % w,
                    static_cast<double>(largest));
    }

    DeviceArray<float> in(kElements);
    DeviceArray<float> out(kElements);
    CHECK(cudaMemcpy(in.get(), hostIn.data(), in.bytes(),
                     cudaMemcpyHostToDevice));

    std::printf("\nResults, exact comparison with a CPU scan of each tile\n");
    std::printf("%7s  %-26s  %10s  %10s  %9s  %5s\n", "threads", "kernel",
                "mismatches", "% of array", "first bad", "gated");
    std::printf("%7s  %-26s  %10s  %10s  %9s  %5s\n", "-------",
                "--------------------------", "----------", "----------",
                "---------", "-----");

    int sizesRun = 0;
    for (int s = 0; s < kSweepCount; ++s) {
        const int threads = kSweep[s];
        if (g_onlyThreads != 0 && threads != g_onlyThreads) {
            continue;
        }
        if (threads > prop.maxThreadsPerBlock) {
            std::printf("%7d  skipped: this device allows at most %d threads "
                        "per block\n",
                        threads, prop.maxThreadsPerBlock);
            continue;
        }
        ++sizesRun;
        const int blocks = static_cast<int>(
            (kElements + static_cast<std::size_t>(threads) - 1) /
            static_cast<std::size_t>(threads));

        for (const KernelRow& row : kRows) {
            tileScanOnHost(hostIn, want, static_cast<std::size_t>(threads),
                           row.kernel == Kernel::Exclusive);

            // Fill the output with 0xFF bytes first: every float becomes a
            // NaN, which equals nothing, so an element the kernel never
            // stores is a mismatch, and no row can pass on what the
            // previous row left behind. (A zero fill would hide a missing
            // store wherever the right answer is 0, as at every tile start
            // of the exclusive scan.)
            CHECK(cudaMemset(out.get(), 0xFF, out.bytes()));
            launchScan(row.kernel, blocks, threads, in.get(), out.get(),
                       kElements);
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(got.data(), out.get(), out.bytes(),
                             cudaMemcpyDeviceToHost));

            std::size_t first = kElements;
            const std::size_t bad = countMismatches(got, want, &first);
            char firstText[32];
            if (bad == 0) {
                std::snprintf(firstText, sizeof firstText, "-");
            } else {
                std::snprintf(firstText, sizeof firstText, "%zu", first);
            }
            std::printf("%7d  %-26s  %10zu  %10.1f  %9s  %5s\n", threads,
                        row.label, bad,
                        100.0 * static_cast<double>(bad) /
                            static_cast<double>(kElements),
                        firstText, row.gated ? "yes" : "no");

            // The gate: a real branch, not assert(), which NDEBUG removes
            // from release builds. Only the correct kernels reach it.
            if (row.gated && bad != 0) {
                std::fprintf(stderr,
                             "gate failed: %s, %d-thread blocks, %zu wrong "
                             "out of %zu, the first at index %zu (block %zu, "
                             "thread %zu): %.9g where the CPU has %.9g\n",
                             row.label, threads, bad, kElements, first,
                             first / static_cast<std::size_t>(threads),
                             first % static_cast<std::size_t>(threads),
                             static_cast<double>(got[first]),
                             static_cast<double>(want[first]));
                ++failures;
            }
        }
    }

    if (sizesRun == 0) {
        std::fprintf(stderr,
                     "gate failed: the device runs none of the swept block "
                     "sizes\n");
        ++failures;
    }
    if (failures != 0) {
        return EXIT_FAILURE;
    }
    if (g_onlyThreads != 0) {
        std::printf("\nboth double-buffered kernels matched the CPU at %d "
                    "threads\n",
                    g_onlyThreads);
    } else {
        std::printf("\nboth double-buffered kernels matched the CPU at every "
                    "block size\n");
    }
    return EXIT_SUCCESS;
}

int main(int argc, char** argv) {
    // Line-buffered stdout, so that when stdout and stderr are captured
    // together a failure message lands right after the row it explains.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
    if (argc > 2 || (argc == 2 && !pickBlockSize(argv[1]))) {
        std::fprintf(stderr,
                     "usage: scan [THREADS], THREADS one of 32, 64, 256, "
                     "1024\n");
        return EXIT_FAILURE;
    }

    int status = EXIT_FAILURE;
    try {
        status = runLesson();
    } catch (const CudaFailure&) {
        // Reported where it happened; the owners have freed their memory.
        status = EXIT_FAILURE;
    }
    if (g_freeFailures != 0) {
        status = EXIT_FAILURE;
    }
    if (status != EXIT_SUCCESS) {
        std::fprintf(stderr, "scan: a check failed (exit status %d)\n",
                     status);
    }
    return status;
}
